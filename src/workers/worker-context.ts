import { randomUUID } from 'node:crypto';
import { isoTimestamp } from '../clock';
import type { CommandContext } from '../commands/context';
import { newEventId } from '../events/event-ids';

/** The stores a worker decides on: a command context but for the metadata and event ids it makes. */
export type WorkerStores = Pick<CommandContext, 'eventStore' | 'ids' | 'clock'>;

/** The context of one command a worker takes on its own (`worker:<name>` as actor), at `now`. */
export function workerContext<Stores extends WorkerStores>(
  services: Stores,
  name: string,
  now: Date,
): Stores & CommandContext {
  const requestId = `${name}-${randomUUID()}`;
  const metadata = {
    actor: `worker:${name}`,
    request_id: requestId,
    correlation_id: requestId,
    causation_id: null,
    occurred_at: isoTimestamp(now),
  };
  return { ...services, eventId: newEventId, metadata: () => metadata };
}

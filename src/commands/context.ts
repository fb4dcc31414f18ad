import type { Clock } from '../clock';
import type { EventMetadata, StoredEvent } from '../events/envelope';
import type { EventStore, IdempotencyClaim, IdempotencyRecord } from '../events/event-store';
import { DomainError } from './errors';
import { WrongExpectedRevisionError } from '../events/event-store';
import type { IdAllocator } from './ids';

/** What a command needs from the outside world: the store, ids, time and who is asking. */
export interface CommandContext {
  eventStore: EventStore;
  ids: IdAllocator;
  clock: Clock;
  /** Id of the next event (random in service, drawn from the seed's sequence in demo data). */
  eventId: () => string;
  /** Metadata for the events of one command; `occurred_at` is the command's time. */
  metadata: () => EventMetadata;
  idempotency?: IdempotencyClaim;
}

export interface CommandOutcome {
  /** The stream's events the decision was based on. */
  history: StoredEvent[];
  /** The events appended; empty when nothing changed or the idempotency key had been used before. */
  events: StoredEvent[];
  duplicateOf?: IdempotencyRecord;
}

export interface CommandResult {
  stream: string;
  outcome: CommandOutcome;
}

const ATTEMPTS = 5;

/**
 * Creates an entity under the next free number of its category (stream `<category>-<number>`). When
 * another process took that number first, the allocator resynchronises and the creation is tried with
 * the next one; a refused creation gives its number back.
 */
export async function createNumbered(
  context: CommandContext,
  category: string,
  create: (id: number) => Promise<CommandResult>,
): Promise<CommandResult & { id: number }> {
  for (let attempt = 1; ; attempt++) {
    const id = await context.ids.next(category);
    try {
      return { id, ...(await create(id)) };
    } catch (error) {
      const conflict =
        error instanceof WrongExpectedRevisionError ||
        (error instanceof DomainError && error.code === 'already_exists');
      // A conflict on another stream written with the record (a calendar's day) is the answer itself.
      const taken = conflict && (await creationData(context, `${category}-${id}`)) !== undefined;
      if (!taken) context.ids.release(category, id);
      if (!taken || attempt === ATTEMPTS) throw error;
      await context.ids.refresh(category);
    }
  }
}

/** One time for the whole command: its events' `occurred_at`, and a context that keeps it. */
export function once(context: CommandContext): { context: CommandContext; at: string } {
  const metadata = context.metadata();
  return { context: { ...context, metadata: () => metadata }, at: metadata.occurred_at };
}

/** The data of the event that created a record (the first of its stream), if the record exists. */
export async function creationData<Data>(context: CommandContext, stream: string): Promise<Data | undefined> {
  const [first] = await context.eventStore.readStream(stream, { toRevision: 0 });
  return first?.data as Data | undefined;
}

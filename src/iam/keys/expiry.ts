import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { isoTimestamp, type Clock } from '../../clock';
import type { CommandContext } from '../../commands/context';
import type { IdAllocator } from '../../commands/ids';
import { newEventId } from '../../events/event-ids';
import type { EventStore } from '../../events/event-store';
import { coalescing } from '../../coalescing';
import type { ReadStore } from '../../projections/read-store';
import { expireKey } from './commands';
import { KEYS_COLLECTION } from './projection';

export const SWEEP_INTERVAL_MS = 30_000;
const PAGE = 500;

export interface KeyExpirySweep {
  /** Sweeps once, then every `SWEEP_INTERVAL_MS` until stopped. */
  start(): Promise<void>;
  /** Stops the timer and waits for a sweep under way. */
  stop(): Promise<void>;
}

export interface SweepServices {
  eventStore: EventStore;
  readStore: ReadStore;
  ids: IdAllocator;
  clock: Clock;
  logger: Logger;
}

async function keysDue(readStore: ReadStore, now: string): Promise<string[]> {
  const filters = [
    { field: 'status', op: 'eq', value: 'active' },
    { field: 'expires_at', op: 'lte', value: now },
  ] as const;
  const ids: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await readStore.find(KEYS_COLLECTION, { filters, limit: PAGE, offset });
    ids.push(...page.items.map((item) => (JSON.parse(item) as { id: string }).id));
    if (offset + PAGE >= page.total) return ids;
  }
}

function sweepContext(services: SweepServices, now: Date): CommandContext {
  const requestId = `key-expiry-${randomUUID()}`;
  const metadata = {
    actor: 'worker:key-expiry',
    request_id: requestId,
    correlation_id: requestId,
    causation_id: null,
    occurred_at: isoTimestamp(now),
  };
  return { ...services, eventId: newEventId, metadata: () => metadata };
}

/**
 * Records `KeyExpired` for the active keys past their `expires_at`, in the process that runs jobs.
 * Several such processes may sweep the same key: the decider records its expiry once, and retries a
 * concurrent append on the newer stream, where there is nothing left to do.
 */
export function keyExpirySweep(services: SweepServices): KeyExpirySweep {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const sweep = coalescing(async () => {
    const now = services.clock.now();
    const context = sweepContext(services, now);
    for (const id of await keysDue(services.readStore, isoTimestamp(now))) {
      try {
        await expireKey(context, id);
      } catch (error) {
        services.logger.error({ err: error, key: id }, 'key expiry failed');
      }
    }
  });
  const sweepLogged = () =>
    sweep().catch((error: unknown) => services.logger.error({ err: error }, 'key expiry sweep failed'));
  return {
    async start() {
      await sweepLogged();
      if (stopped || timer) return;
      timer = setInterval(() => void sweepLogged(), SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await sweep.settled();
    },
  };
}

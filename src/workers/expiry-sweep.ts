import type { Logger } from 'pino';
import { isoTimestamp, type Clock } from '../clock';
import type { CommandContext } from '../commands/context';
import type { IdAllocator } from '../commands/ids';
import type { EventStore } from '../events/event-store';
import { scanAll } from '../projections/read-all';
import type { Filter, ReadStore } from '../projections/read-store';
import { periodic } from './periodic';
import { workerContext } from './worker-context';

export const SWEEP_INTERVAL_MS = 30_000;
/**
 * Documents read at a time while looking for what is due. A page of a range is read by the field's
 * index and sorted by id, all the matches after the last page's: many due at once (a suite stopped for
 * long) cost the square of their number over the page's size. 340k SLA targets due at 10M events, in
 * pages of 500, held a first start for minutes.
 */
export const DUE_PAGE = 5_000;
/**
 * Expiries decided at once: their appends share the log's group commits. One at a time, a suite that
 * was stopped long recorded the SLA breaches it found due at some 170 a second (34k at 1M events).
 */
const AT_ONCE = 100;

/**
 * Things that expire at a time (API keys, proposals), or end with something else (the proposals of a
 * proposer whose key ended): where the live ones are, and how one ends.
 */
export interface Expiring {
  /** Names the sweep's actor (`worker:<name>`) and its log lines. */
  name: string;
  collection: string;
  /** The documents still live; those whose `expires_at` is past are expired. */
  live?: Filter;
  expire(context: CommandContext, id: string, readStore: ReadStore): Promise<unknown>;
  /** The ids due now, when they are not those whose `expires_at` is past (the default). */
  due?(readStore: ReadStore, now: Date): Promise<string[]>;
}

export interface ExpirySweep {
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

async function due(readStore: ReadStore, expiring: Expiring, at: Date): Promise<string[]> {
  if (expiring.due) return expiring.due(readStore, at);
  const now = isoTimestamp(at);
  const filters: Filter[] = [{ field: 'expires_at', op: 'lte', value: now }];
  if (expiring.live) filters.push(expiring.live);
  const ids: string[] = [];
  for await (const { doc } of scanAll(readStore, expiring.collection, { filters }, { pageSize: DUE_PAGE })) {
    ids.push((JSON.parse(doc) as { id: string }).id);
  }
  return ids;
}

/**
 * Records the expiry of what has expired, in the process that runs jobs: an event, so that auditors
 * see it. Several such processes may sweep the same thing: its decider records the expiry once, and
 * retries a concurrent append on the newer stream, where there is nothing left to do.
 */
export function expirySweep(services: SweepServices, expiring: readonly Expiring[]): ExpirySweep {
  const sweep = periodic(
    async () => {
      const now = services.clock.now();
      for (const kind of expiring) {
        const context = workerContext(services, kind.name, now);
        const ids = await due(services.readStore, kind, now);
        for (let start = 0; start < ids.length; start += AT_ONCE) {
          await Promise.all(
            ids.slice(start, start + AT_ONCE).map(async (id) => {
              try {
                await kind.expire(context, id, services.readStore);
              } catch (error) {
                services.logger.error({ err: error, id }, `${kind.name} failed`);
              }
            }),
          );
        }
      }
    },
    {
      everyMs: SWEEP_INTERVAL_MS,
      onError: (error) => services.logger.error({ err: error }, 'expiry sweep failed'),
    },
  );
  return { start: sweep.start, stop: sweep.stop };
}

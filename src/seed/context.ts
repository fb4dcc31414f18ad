import { isoTimestamp } from '../clock';
import type { CommandContext } from '../commands/context';
import type { IdAllocator } from '../commands/ids';
import type { EventStore } from '../events/event-store';
import { seededRandom, type SeededRandom } from './random';

export const SEED_ACTOR = 'seed';

/** Demo data is written through the same commands as real writes, on a clock and ids the seed controls. */
export interface SeedContext {
  commands: CommandContext;
  random: SeededRandom;
  /** Sets the time of the next commands. */
  at(time: Date): void;
}

export function createSeedContext(eventStore: EventStore, ids: IdAllocator, seed: string): SeedContext {
  const random = seededRandom(seed);
  let now = new Date(0);
  let commandNumber = 0;
  return {
    random,
    at(time) {
      now = time;
    },
    commands: {
      eventStore,
      ids,
      clock: { now: () => now },
      eventId: () => random.uuid(),
      metadata() {
        commandNumber += 1;
        const requestId = `seed-${seed}-${commandNumber}`;
        return {
          actor: SEED_ACTOR,
          request_id: requestId,
          correlation_id: requestId,
          causation_id: null,
          occurred_at: isoTimestamp(now),
          // Recorded when it occurred (the store keeps recording times monotonic): the same log on every
          // first start, whenever it starts. `seedDemoData` then records all modules' in one order.
          recorded_at: now.toISOString(),
        };
      },
    },
  };
}

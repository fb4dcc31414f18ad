import type { StoredEvent } from '../../src/events/envelope';
import type { EventPublisher } from '../../src/workers/event-publisher';

/** A broker in memory, for the relay's tests: it can refuse batches and hold back acknowledgements. */
export interface InMemoryPublisher extends EventPublisher {
  /** Every event acknowledged, in the order published. */
  readonly delivered: StoredEvent[];
  /** Batches handed to `publish`, acknowledged or not. */
  readonly attempts: number;
  /** The next `count` publishes fail. */
  failNext(count: number): void;
  /** Publishes wait for `release` before they are acknowledged. */
  hold(): void;
  release(): void;
  readonly closed: boolean;
}

export function createInMemoryPublisher(): InMemoryPublisher {
  const delivered: StoredEvent[] = [];
  let attempts = 0;
  let failures = 0;
  let held: Promise<void> | null = null;
  let releaseHeld: (() => void) | null = null;
  let closed = false;

  return {
    delivered,
    get attempts() {
      return attempts;
    },
    get closed() {
      return closed;
    },
    failNext(count) {
      failures = count;
    },
    hold() {
      held = new Promise((resolve) => (releaseHeld = resolve));
    },
    release() {
      releaseHeld?.();
      held = null;
    },
    async publish(events) {
      attempts += 1;
      if (failures > 0) {
        failures -= 1;
        throw new Error('broker unavailable');
      }
      await held;
      delivered.push(...events);
      return { deadLettered: [] };
    },
    async close() {
      closed = true;
    },
  };
}

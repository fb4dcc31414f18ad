import type { StoredEvent } from '../events/envelope';

export interface Published {
  /**
   * Events the broker refuses however they are sent (larger than it accepts), recorded where the
   * adapter keeps dead letters instead of being published. The relay reports them.
   */
  deadLettered: StoredEvent[];
}

/**
 * The EventPublisher port: hands committed events to a broker for other systems. `publish` resolves
 * only once the broker has acknowledged every event of the call (or, for an event it can never take,
 * its dead letter) and rejects otherwise (then some of them may have been delivered: delivery is
 * at-least-once). Events of one stream are delivered in the order given.
 */
export interface EventPublisher {
  publish(events: readonly StoredEvent[]): Promise<Published>;
  close(): Promise<void>;
}

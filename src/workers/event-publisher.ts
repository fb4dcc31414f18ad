import type { StoredEvent } from '../events/envelope';

/**
 * The EventPublisher port: hands committed events to a broker for other systems. `publish` resolves
 * only once the broker has acknowledged every event of the call and rejects otherwise (then some of
 * them may have been delivered: delivery is at-least-once). Events of one stream are delivered in the
 * order given.
 */
export interface EventPublisher {
  publish(events: readonly StoredEvent[]): Promise<void>;
  close(): Promise<void>;
}

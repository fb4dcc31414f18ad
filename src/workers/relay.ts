import type { Logger } from 'pino';
import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import { FALLBACK_POLL_MS, followLogInBatches } from '../events/log-follower';
import type { EventPublisher } from './event-publisher';
import { continuingTraces } from '../telemetry/tracing';

/** Where the relay keeps the position of the last event the broker acknowledged. */
export interface RelayCheckpoint {
  /** 0 when nothing was published yet. */
  load(): Promise<number>;
  save(position: number): Promise<void>;
}

export interface RelayOptions {
  eventStore: EventStore;
  publisher: EventPublisher;
  checkpoint: RelayCheckpoint;
  logger: Logger;
  /** Aborting ends the loop; a publish in flight is abandoned and its events published again next time. */
  signal: AbortSignal;
  /** Events per publish. */
  batchSize?: number;
  /** The longest wait for new events when no commit is notified (a safety net for missed notifications). */
  idlePollMs?: number;
  /** The first delay after a failure; it doubles with each failure in a row, up to 30 s. */
  retryDelayMs?: number;
  /** Called after each acknowledged batch with the new checkpoint (for the relay-lag metric). */
  onPublished?: (position: number) => void;
  /** Called with the events of a batch the broker could not take and the publisher dead-lettered. */
  onDeadLettered?: (events: readonly StoredEvent[]) => void;
}

/** `work`'s result when it settled first, null when the signal aborted first (`work` is then left to fail). */
function settledBeforeAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<{ result: T } | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const aborted = () => resolve(null);
    signal.addEventListener('abort', aborted, { once: true });
    work.then(
      (result) => {
        signal.removeEventListener('abort', aborted);
        resolve({ result });
      },
      (error: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(error);
      },
    );
  });
}

/**
 * `suite relay`: reads the global feed from the checkpoint, publishes each batch and saves the
 * checkpoint only after the broker acknowledged the batch, then goes on (at-least-once: a crash or a
 * failure between publishing and saving publishes those events again; consumers dedupe by event id).
 * Batches go one at a time in log order, so each stream's events reach the broker in order. A failed
 * batch is retried from the checkpoint with a growing delay; the loop ends when `signal` aborts. An
 * event the broker can never take does not stop the relay: the publisher dead-letters it, and the
 * relay logs it as an error and reports it (the dead-letter metric).
 */
export async function runRelay(options: RelayOptions): Promise<void> {
  const { eventStore, checkpoint, logger, signal } = options;
  let position = 0;
  const relay = followLogInBatches({
    log: eventStore,
    pollMs: options.idlePollMs ?? FALLBACK_POLL_MS,
    retryDelayMs: options.retryDelayMs,
    batchSize: options.batchSize ?? 500,
    read: (after, limit) => eventStore.readAll({ after, limit }),
    checkpoint: {
      async load() {
        position = await checkpoint.load();
        logger.info({ position }, 'relay: publishing the log from the checkpoint');
        return position;
      },
      async save(last) {
        await checkpoint.save(last);
        position = last;
        options.onPublished?.(position);
        return position;
      },
    },
    handle: (events, stopping) => publish(events, stopping, options),
    onError(error, retryInMs) {
      logger.warn(
        { err: error, position, retryInMs },
        'relay: publishing failed; retrying from the checkpoint',
      );
    },
  });
  relay.start();
  if (!signal.aborted)
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  await relay.stop();
}

/** Publishes a batch and reports what the broker dead-lettered; a stop abandons the publish. */
async function publish(
  events: StoredEvent[],
  stopping: AbortSignal,
  { publisher, logger, onDeadLettered }: RelayOptions,
): Promise<void> {
  const publishing = continuingTraces(
    'relay.publish',
    events.map((event) => event.metadata.traceparent),
    {
      kind: 'producer',
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'send',
        'messaging.batch.message_count': events.length,
        'suite.position': (events[events.length - 1] as StoredEvent).position,
      },
    },
    () => publisher.publish(events),
  );
  const published = await settledBeforeAbort(publishing, stopping);
  if (!published) throw stopping.reason;
  const { deadLettered } = published.result;
  for (const { event_id, stream, revision, position, type } of deadLettered) {
    logger.error(
      { event_id, stream, revision, position, type },
      'relay: the broker cannot take this event; it was dead-lettered (docs/KAFKA-TOPICS.md)',
    );
  }
  if (deadLettered.length > 0) onDeadLettered?.(deadLettered);
}

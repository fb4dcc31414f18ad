import { Kafka, Partitioners, logLevel, type logCreator, type TopicMessages } from 'kafkajs';
import type { Logger } from 'pino';
import { streamModule, type StoredEvent } from '../events/envelope';
import { CLOUD_EVENT_CONTENT_TYPE, toCloudEvent } from './cloud-event';
import type { EventPublisher } from './event-publisher';

export interface KafkaPublisherOptions {
  brokers: readonly string[];
  clientId?: string;
  logger: Logger;
}

/** All acknowledgements: the in-sync replicas have the message before `publish` resolves. */
const ACKS_ALL = -1;

export function topicFor(stream: string): string {
  return `suite.${streamModule(stream)}.events`;
}

/**
 * One message per event, grouped by topic in the order given: keyed by stream (one partition per
 * stream, so its order holds), the CloudEvent as the value (structured mode).
 */
export function toTopicMessages(events: readonly StoredEvent[]): TopicMessages[] {
  const topics = new Map<string, TopicMessages>();
  for (const event of events) {
    const topic = topicFor(event.stream);
    let batch = topics.get(topic);
    if (!batch) topics.set(topic, (batch = { topic, messages: [] }));
    batch.messages.push({
      key: event.stream,
      value: JSON.stringify(toCloudEvent(event)),
      headers: { 'content-type': CLOUD_EVENT_CONTENT_TYPE },
    });
  }
  return [...topics.values()];
}

function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, ...extra } = log;
      const fields = { ...extra, namespace: `kafkajs.${namespace}` };
      if (level === logLevel.ERROR) logger.error(fields, message);
      else if (level === logLevel.WARN) logger.warn(fields, message);
      else if (level === logLevel.INFO) logger.info(fields, message);
      else logger.debug(fields, message);
    };
}

/**
 * The EventPublisher on Kafka. The producer is idempotent (the broker drops a retried duplicate of a
 * message it already has) with one request in flight, so retries cannot reorder a partition; a batch
 * resolves once every partition leader has it with all in-sync replicas. Keys go to partitions as the
 * Java client sends them (murmur2), so other producers of a topic agree. Topics are expected to exist
 * (created by the platform with the partitions it wants), or the broker creates them on first use.
 */
export async function openKafkaPublisher(options: KafkaPublisherOptions): Promise<EventPublisher> {
  const kafka = new Kafka({
    clientId: options.clientId ?? 'suite-relay',
    brokers: [...options.brokers],
    logLevel: logLevel.INFO,
    logCreator: pinoLogCreator(options.logger),
  });
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  return {
    async publish(events) {
      if (events.length === 0) return;
      await producer.sendBatch({ topicMessages: toTopicMessages(events), acks: ACKS_ALL });
    },
    close: () => producer.disconnect(),
  };
}

import {
  CompressionTypes,
  Kafka,
  Partitioners,
  logLevel,
  type KafkaConfig,
  type logCreator,
  type ProducerBatch,
  type ProducerConfig,
  type RecordMetadata,
  type TopicMessages,
} from 'kafkajs';
import type { Logger } from 'pino';
import type { StoredEvent } from '../events/envelope';
import type { EventPublisher } from './event-publisher';
import { chunksOfAtMost, toEventRecord, toTopicMessages, type EventRecord } from './kafka-records';

export { topicFor } from './kafka-records';

/** The part of a kafkajs producer the publisher uses. */
export interface KafkaProducer {
  connect(): Promise<void>;
  sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]>;
  disconnect(): Promise<void>;
}

/** Makes a producer: kafkajs's, or a model of the broker in tests. */
export type CreateProducer = (client: KafkaConfig, producer: ProducerConfig) => KafkaProducer;

const kafkajsProducer: CreateProducer = (client, producer) => new Kafka(client).producer(producer);

export interface KafkaPublisherOptions {
  brokers: readonly string[];
  clientId?: string;
  logger: Logger;
  createProducer?: CreateProducer;
}

/** All acknowledgements: the in-sync replicas have the message before `publish` resolves. */
const ACKS_ALL = -1;
/**
 * The most bytes of records one send carries, before compression: under the broker's default
 * `message.max.bytes` (1048588, the largest record batch it takes), with room for a batch's own
 * framing, so that no partition's batch of one send exceeds it on a broker with the default.
 */
const MAX_SEND_BYTES = 1_000_000;

/** Where an event goes that the broker refuses at any batch size (see docs/KAFKA-TOPICS.md). */
export const DEAD_LETTER_TOPIC = 'suite.dead-letters';

/** The broker's answer to a record batch larger than it takes; kafkajs does not retry it. */
const tooLarge = (error: unknown) => {
  const type = (error as { type?: unknown }).type;
  return type === 'MESSAGE_TOO_LARGE' || type === 'RECORD_LIST_TOO_LARGE';
};

/** What the dead-letter topic holds for an event: where it belongs and why it is not there. */
function deadLetterMessages(record: EventRecord, error: unknown): TopicMessages {
  const { event, topic } = record;
  const reason = error instanceof Error ? error.message : String(error);
  const value = {
    id: event.event_id,
    subject: event.stream,
    type: event.type,
    position: String(event.position),
    revision: event.revision,
    topic,
    bytes: Buffer.byteLength(record.message.value),
    error: `${(error as { type?: unknown }).type ?? 'ERROR'}: ${reason}`,
  };
  return {
    topic: DEAD_LETTER_TOPIC,
    messages: [
      {
        key: event.stream,
        value: JSON.stringify(value),
        headers: { 'content-type': 'application/json' },
      },
    ],
  };
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
 * message it already has) with one request in flight, so retries cannot reorder a partition; a send
 * resolves once every partition leader has it with all in-sync replicas. Keys go to partitions as the
 * Java client sends them (murmur2), so other producers of a topic agree. Topics are expected to exist
 * (created with the partitions the platform wants; see docs/KAFKA-TOPICS.md).
 *
 * kafkajs sends a partition's messages of one send as one record batch, which the broker refuses
 * whole when it exceeds `message.max.bytes`; so the events go in sends of at most MAX_SEND_BYTES,
 * one after another in order, gzip-compressed. A send the broker refuses as too large is split in
 * halves and sent again, down to a single event: that event is written to the dead-letter topic
 * instead, and `publish` returns it.
 */
export async function openKafkaPublisher(options: KafkaPublisherOptions): Promise<EventPublisher> {
  const createProducer = options.createProducer ?? kafkajsProducer;
  const connectProducer = async () => {
    const producer = createProducer(
      {
        clientId: options.clientId ?? 'suite-relay',
        brokers: [...options.brokers],
        logLevel: logLevel.INFO,
        logCreator: pinoLogCreator(options.logger),
      },
      { idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner },
    );
    await producer.connect();
    return producer;
  };
  let producer: Promise<KafkaProducer> | null = null;
  const connected = () => {
    producer ??= connectProducer().catch((error: unknown) => {
      producer = null;
      throw error;
    });
    return producer;
  };

  /**
   * A send that failed leaves the producer's sequence numbers unknown: kafkajs rolls back those of
   * every partition of a refused request, also of the partitions the broker wrote, so its next batch
   * to them would be refused as OUT_OF_ORDER_SEQUENCE_NUMBER, which it does not retry, for ever. Any
   * send kafkajs gives up on is a failure it will not retry, so each one ends the producer; the next
   * send starts a new one, with a new producer id and sequences from 0.
   */
  async function send(topicMessages: TopicMessages[]): Promise<void> {
    const current = await connected();
    try {
      await current.sendBatch({ topicMessages, acks: ACKS_ALL, compression: CompressionTypes.GZIP });
    } catch (error) {
      producer = null;
      await current.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /** Sends the records; answers the events dead-lettered. */
  async function sendChunk(chunk: EventRecord[]): Promise<StoredEvent[]> {
    try {
      await send(toTopicMessages(chunk));
      return [];
    } catch (error) {
      if (!tooLarge(error)) throw error;
      if (chunk.length === 1) {
        const [record] = chunk as [EventRecord];
        await send([deadLetterMessages(record, error)]);
        return [record.event];
      }
      const half = Math.ceil(chunk.length / 2);
      return [...(await sendChunk(chunk.slice(0, half))), ...(await sendChunk(chunk.slice(half)))];
    }
  }

  await connected();
  return {
    async publish(events) {
      const deadLettered: StoredEvent[] = [];
      for (const chunk of chunksOfAtMost(events.map(toEventRecord), MAX_SEND_BYTES)) {
        deadLettered.push(...(await sendChunk(chunk)));
      }
      return { deadLettered };
    },
    async close() {
      const current = producer;
      producer = null;
      await (await current)?.disconnect();
    },
  };
}

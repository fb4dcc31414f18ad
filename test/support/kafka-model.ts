/**
 * A model of a Kafka cluster as kafkajs's idempotent producer meets it, so that the publisher's
 * contract runs without a broker. Each behaviour it reproduces, and where it is documented:
 *
 * - A partition's record batch, measured as kafkajs encodes it (after compression, with its 12 bytes
 *   of log overhead), larger than the topic's `max.message.bytes` (the broker's `message.max.bytes`,
 *   default 1048588) is refused with MESSAGE_TOO_LARGE (error code 10), which kafkajs does not retry.
 *   Apache Kafka documentation, "Broker Configs: message.max.bytes" ("The largest record batch size
 *   allowed by Kafka (after compression if compression is enabled)") and "Topic Configs:
 *   max.message.bytes"; Kafka protocol guide, "Error Codes"; kafkajs src/protocol/error.js.
 * - kafkajs sends one Produce request per partition leader with one record batch per partition
 *   (kafkajs src/producer/sendMessages.js, createTopicData.js); the model is one broker, as the compose
 *   file runs, so one request. The broker appends each partition of a request on its own and answers
 *   an error code per partition, so a request can be written in part; kafkajs then rejects the whole
 *   send with the first partition's error (src/protocol/requests/produce/v3/response.js).
 * - The idempotent producer: each connect gets a new producer id (InitProducerId); kafkajs numbers each
 *   partition's batches from 0 and, when a request fails, rolls back the sequence of every partition
 *   in it, those the broker wrote included (sendMessages.js, eosManager). The broker keeps per producer
 *   id and partition the last sequence and the last five batches: a batch equal to one of them is a
 *   duplicate, acknowledged with its first offset and not written again; a batch that does not start
 *   right after the last sequence is refused with OUT_OF_ORDER_SEQUENCE_NUMBER (code 45), which
 *   kafkajs does not retry. KIP-98 "Exactly Once Delivery and Transactional Messaging", section
 *   "Idempotent Producer Guarantees"; Kafka source ProducerStateManager (NumBatchesToRetain = 5).
 * - Keys go to partitions through kafkajs's own DefaultPartitioner (murmur2, as the Java client).
 * - A record batch names its compression codec in bits 0-2 of its attributes (0 none, 1 gzip, 2 snappy,
 *   3 lz4, 4 zstd), the numbers of kafkajs's `CompressionTypes`; the broker keeps a batch as the
 *   producer compressed it (the default `compression.type=producer`). Apache Kafka documentation,
 *   "Message Format: Record Batch" and "Topic Configs: compression.type". The model keeps the codec
 *   of every batch it receives, written or refused (`batches`).
 *
 * Not modelled: replication and acks, leader changes, retriable errors (kafkajs retries them), quotas,
 * transactions. A topic must be created first (as with `auto.create.topics.enable=false`).
 */
import { KafkaJSProtocolError, Partitioners, type Message, type ProducerBatch } from 'kafkajs';
import { RecordBatch } from 'kafkajs/src/protocol/recordBatch/v0';
import Record from 'kafkajs/src/protocol/recordBatch/record/v0';
import type { CreateProducer, KafkaProducer } from '../../src/workers/kafka-publisher';

/** The broker default of `message.max.bytes`: 1 MiB and the 12 bytes of a batch's log overhead. */
export const BROKER_MESSAGE_MAX_BYTES = 1_048_588;
const BATCHES_KEPT_PER_PRODUCER = 5;

export interface StoredRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

/** The codecs of `compression.type`, by the number a record batch's attributes give them. */
const CODECS = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;

/** A partition's record batch of a produce request, as the broker received it. */
export interface ReceivedBatch {
  topic: string;
  partition: number;
  records: number;
  compression: (typeof CODECS)[number];
}

interface BatchMetadata {
  firstSequence: number;
  lastSequence: number;
  baseOffset: number;
}

interface Partition {
  records: StoredRecord[];
  producers: Map<number, { lastSequence: number; batches: BatchMetadata[] }>;
}

interface Topic {
  partitions: Partition[];
  maxMessageBytes: number;
}

export interface KafkaModel {
  createProducer: CreateProducer;
  createTopic(topic: string, options: { partitions: number; maxMessageBytes?: number }): void;
  /** The records of a topic, partition by partition in offset order. */
  records(topic: string): StoredRecord[];
  /** Every record batch received, in the order received. */
  batches(): ReceivedBatch[];
}

const protocolError = (type: string, code: number, message: string): KafkaJSProtocolError =>
  new KafkaJSProtocolError(Object.assign(new Error(message), { type, code, retriable: false }));

const messageTooLarge = () =>
  protocolError(
    'MESSAGE_TOO_LARGE',
    10,
    'The request included a message larger than the max message size the server will accept',
  );
const outOfOrderSequence = () =>
  protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER', 45, 'The broker received an out of order sequence number');
const unknownTopic = (topic: string) =>
  protocolError('UNKNOWN_TOPIC_OR_PARTITION', 3, `This server does not host this topic-partition (${topic})`);

const text = (value: Message['value'] | Message['key']): string | null =>
  value === null || value === undefined ? null : value.toString();

/** The batch's size as the broker measures it: kafkajs's own encoding, compressed as sent. */
async function recordBatchBytes(messages: Message[], compression: number | undefined): Promise<number> {
  const records = messages.map((message, offsetDelta) =>
    Record({ offsetDelta, key: message.key ?? null, value: message.value, headers: message.headers }),
  );
  const batch = await RecordBatch({ compression, records, lastOffsetDelta: records.length - 1 });
  return batch.size();
}

/** A cluster of one broker, as the compose file runs: it leads every partition. */
export function createKafkaModel(): KafkaModel {
  const topics = new Map<string, Topic>();
  const partitioner = Partitioners.DefaultPartitioner();
  const received: ReceivedBatch[] = [];
  let producerIds = 0;

  /** The broker's append of one partition's batch: an error, or the batch's first offset. */
  async function append(
    topic: string,
    partitionNumber: number,
    producerId: number,
    firstSequence: number,
    messages: Message[],
    compression: number | undefined,
  ): Promise<KafkaJSProtocolError | number> {
    const { partitions, maxMessageBytes } = topics.get(topic) as Topic;
    const partition = partitions[partitionNumber] as Partition;
    if ((await recordBatchBytes(messages, compression)) > maxMessageBytes) return messageTooLarge();
    const lastSequence = firstSequence + messages.length - 1;
    const state = partition.producers.get(producerId) ?? { lastSequence: -1, batches: [] };
    const duplicate = state.batches.find(
      (batch) => batch.firstSequence === firstSequence && batch.lastSequence === lastSequence,
    );
    if (duplicate) return duplicate.baseOffset;
    if (firstSequence !== state.lastSequence + 1) return outOfOrderSequence();
    const baseOffset = partition.records.length;
    messages.forEach((message, index) =>
      partition.records.push({
        topic,
        partition: partitionNumber,
        offset: baseOffset + index,
        key: text(message.key),
        value: text(message.value) ?? '',
        headers: Object.fromEntries(
          Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]),
        ),
      }),
    );
    state.lastSequence = lastSequence;
    state.batches = [...state.batches, { firstSequence, lastSequence, baseOffset }].slice(
      -BATCHES_KEPT_PER_PRODUCER,
    );
    partition.producers.set(producerId, state);
    return baseOffset;
  }

  function producer(): KafkaProducer {
    let producerId: number | null = null;
    const sequences = new Map<string, number>();

    return {
      async connect() {
        producerId = ++producerIds;
        sequences.clear();
      },
      async disconnect() {
        producerId = null;
      },
      async sendBatch({ topicMessages = [], compression }: ProducerBatch) {
        const id = producerId;
        if (id === null) throw new Error('The producer is disconnected');
        // Messages per partition, all in the one request to the only leader.
        const request: { topic: string; partition: number; messages: Message[] }[] = [];
        for (const { topic, messages } of topicMessages) {
          const found = topics.get(topic);
          if (!found) throw unknownTopic(topic);
          const partitionMetadata = found.partitions.map((_, partitionId) => ({
            partitionId,
            leader: 0,
            replicas: [],
            isr: [],
            partitionErrorCode: 0,
          }));
          const perPartition = new Map<number, Message[]>();
          for (const message of messages) {
            const partition = partitioner({ topic, partitionMetadata, message });
            perPartition.set(partition, [...(perPartition.get(partition) ?? []), message]);
          }
          for (const [partition, ofPartition] of perPartition) {
            request.push({ topic, partition, messages: ofPartition });
          }
        }
        const entries = request.map((entry) => {
          const key = `${entry.topic}/${entry.partition}`;
          const firstSequence = sequences.get(key) ?? 0;
          sequences.set(key, firstSequence + entry.messages.length);
          return { ...entry, key, firstSequence };
        });
        const answers: (KafkaJSProtocolError | number)[] = [];
        for (const { topic, partition, firstSequence, messages } of entries) {
          received.push({
            topic,
            partition,
            records: messages.length,
            compression: CODECS[compression ?? 0],
          });
          answers.push(await append(topic, partition, id, firstSequence, messages, compression));
        }
        const error = answers.find((answer) => answer instanceof KafkaJSProtocolError);
        if (error) {
          for (const entry of entries) sequences.set(entry.key, entry.firstSequence);
          throw error;
        }
        return entries.map((entry, index) => ({
          topicName: entry.topic,
          partition: entry.partition,
          errorCode: 0,
          baseOffset: String(answers[index]),
        }));
      },
    };
  }

  return {
    createProducer: () => producer(),
    createTopic(topic, { partitions, maxMessageBytes }) {
      topics.set(topic, {
        partitions: Array.from({ length: partitions }, () => ({ records: [], producers: new Map() })),
        maxMessageBytes: maxMessageBytes ?? BROKER_MESSAGE_MAX_BYTES,
      });
    },
    records(topic) {
      return (topics.get(topic)?.partitions ?? []).flatMap((partition) => partition.records);
    },
    batches: () => [...received],
  };
}

import type { Message, TopicMessages } from 'kafkajs';
import { streamModule, type StoredEvent } from '../events/envelope';
import { CLOUD_EVENT_CONTENT_TYPE, toCloudEvent } from './cloud-event';

export function topicFor(stream: string): string {
  return `suite.${streamModule(stream)}.events`;
}

/** One event as a Kafka record: keyed by stream (one partition per stream), the CloudEvent as value. */
export interface EventRecord {
  event: StoredEvent;
  topic: string;
  message: Message & { key: string; value: string };
  /** At least the bytes the record takes in a record batch, before compression. */
  bytes: number;
}

/**
 * The most a record's framing in a record batch takes beside its key, value and headers: length,
 * attributes, timestamp and offset deltas, and the lengths of key, value and each header, as varints.
 */
const RECORD_FRAMING_BYTES = 64;

export function toEventRecord(event: StoredEvent): EventRecord {
  const { traceparent } = event.metadata;
  const message = {
    key: event.stream,
    value: JSON.stringify(toCloudEvent(event)),
    // The trace context as a header too, where a consumer's tracing (which reads no body) finds it.
    headers: {
      'content-type': CLOUD_EVENT_CONTENT_TYPE,
      ...(traceparent !== undefined && { traceparent }),
    },
  };
  const bytes =
    Buffer.byteLength(message.key) +
    Buffer.byteLength(message.value) +
    Object.entries(message.headers).reduce(
      (sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value),
      0,
    ) +
    RECORD_FRAMING_BYTES;
  return { event, topic: topicFor(event.stream), message, bytes };
}

/**
 * Consecutive runs of records of at most `maxBytes` together; a record larger than that alone is a
 * run of its own (compressed, the broker may still take it).
 */
export function chunksOfAtMost(records: readonly EventRecord[], maxBytes: number): EventRecord[][] {
  const chunks: EventRecord[][] = [];
  let chunk: EventRecord[] = [];
  let bytes = 0;
  for (const record of records) {
    if (chunk.length > 0 && bytes + record.bytes > maxBytes) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(record);
    bytes += record.bytes;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** The records grouped by topic, each topic's in the order given (kafkajs keeps it per partition). */
export function toTopicMessages(records: readonly EventRecord[]): TopicMessages[] {
  const topics = new Map<string, TopicMessages>();
  for (const { topic, message } of records) {
    let batch = topics.get(topic);
    if (!batch) topics.set(topic, (batch = { topic, messages: [] }));
    batch.messages.push(message);
  }
  return [...topics.values()];
}

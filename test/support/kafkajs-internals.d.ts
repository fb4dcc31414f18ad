// kafkajs's own record encoders, which the Kafka model uses to measure a record batch exactly as
// kafkajs puts it on the wire (they are not part of kafkajs's typed public API).
declare module 'kafkajs/src/protocol/recordBatch/v0' {
  export function RecordBatch(batch: {
    compression?: number;
    records: unknown[];
    lastOffsetDelta?: number;
  }): Promise<{ size(): number }>;
}

declare module 'kafkajs/src/protocol/recordBatch/record/v0' {
  export default function Record(record: {
    offsetDelta: number;
    key: Buffer | string | null;
    value: Buffer | string | null;
    headers?: Record<string, unknown>;
  }): unknown;
}

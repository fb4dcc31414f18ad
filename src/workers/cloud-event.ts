import { streamModule, type StoredEvent } from '../events/envelope';

/**
 * A committed event as a CloudEvents 1.0 document (JSON event format). The extension attributes carry
 * the rest of the envelope; their names are lower-case letters and digits, as the specification asks.
 * `position` is a decimal string: positions may exceed the 32-bit range of a CloudEvents Integer.
 */
export interface SuiteCloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  subject: string;
  time: string;
  datacontenttype: 'application/json';
  data: unknown;
  /** The Partitioning extension: the stream, also the Kafka message key. */
  partitionkey: string;
  position: string;
  revision: number;
  schemaversion: number;
  hash: string;
  prevhash: string;
  actor: string;
  requestid: string;
  correlationid: string;
  causationid?: string;
  organisation?: string;
  /** The Distributed Tracing extension: the trace context the event was appended in, when it was traced. */
  traceparent?: string;
}

/** The media type of a CloudEvent in structured mode (the whole event is the message body). */
export const CLOUD_EVENT_CONTENT_TYPE = 'application/cloudevents+json; charset=UTF-8';

export function toCloudEvent(event: StoredEvent): SuiteCloudEvent {
  const module = streamModule(event.stream);
  const { metadata } = event;
  return {
    specversion: '1.0',
    id: event.event_id,
    source: `/suite/${module}`,
    type: `suite.${module}.${event.type}.v${event.schema_version}`,
    subject: event.stream,
    time: metadata.occurred_at,
    datacontenttype: 'application/json',
    data: event.data,
    partitionkey: event.stream,
    position: String(event.position),
    revision: event.revision,
    schemaversion: event.schema_version,
    hash: event.hash,
    prevhash: event.prev_hash,
    actor: metadata.actor,
    requestid: metadata.request_id,
    correlationid: metadata.correlation_id,
    ...(metadata.causation_id !== null && { causationid: metadata.causation_id }),
    ...(metadata.organisation !== undefined && { organisation: metadata.organisation }),
    ...(metadata.traceparent !== undefined && { traceparent: metadata.traceparent }),
  };
}

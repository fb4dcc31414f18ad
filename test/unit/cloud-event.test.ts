import { toCloudEvent } from '../../src/workers/cloud-event';
import { toEventRecord, toTopicMessages, topicFor } from '../../src/workers/kafka-records';
import { storedEvent } from '../support/stored-event';

const CORE_ATTRIBUTES = ['specversion', 'id', 'source', 'type', 'subject', 'time', 'datacontenttype', 'data'];

describe('CloudEvents mapping', () => {
  const event = storedEvent('esm.request-42', 3, {
    type: 'RequestSubmitted',
    schema_version: 2,
    position: 5_000_000_000,
    data: { title: 'Printer jams', priority: 'High' },
    metadata: {
      actor: 'ann',
      organisation: 'ws-1',
      request_id: 'req-7',
      correlation_id: 'corr-7',
      causation_id: 'cause-7',
      occurred_at: '2026-11-21T09:30:00Z',
    },
  });

  it('maps the envelope onto the CloudEvents 1.0 attributes', () => {
    expect(toCloudEvent(event)).toEqual({
      specversion: '1.0',
      id: event.event_id,
      source: '/suite/esm',
      type: 'suite.esm.RequestSubmitted.v2',
      subject: 'esm.request-42',
      time: '2026-11-21T09:30:00Z',
      datacontenttype: 'application/json',
      data: { title: 'Printer jams', priority: 'High' },
      partitionkey: 'esm.request-42',
      position: '5000000000',
      revision: 3,
      schemaversion: 2,
      hash: event.hash,
      prevhash: event.prev_hash,
      actor: 'ann',
      requestid: 'req-7',
      correlationid: 'corr-7',
      causationid: 'cause-7',
      organisation: 'ws-1',
    });
  });

  it('names extensions in lower-case letters and digits only, and leaves out absent metadata', () => {
    const bare = toCloudEvent(storedEvent('crm.deal-1', 0));
    const extensions = Object.keys(bare).filter((name) => !CORE_ATTRIBUTES.includes(name));
    for (const name of extensions) expect(name).toMatch(/^[a-z0-9]{1,20}$/);
    expect(bare).not.toHaveProperty('causationid');
    expect(bare).not.toHaveProperty('organisation');
    expect(bare).not.toHaveProperty('traceparent');
  });

  it('carries the trace context the event was appended in (Distributed Tracing extension), in the body and a header', () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const traced = storedEvent('crm.deal-1', 0, { metadata: { ...event.metadata, traceparent } });
    expect(toCloudEvent(traced).traceparent).toBe(traceparent);
    const { message } = toEventRecord(traced);
    expect(message.headers).toEqual({
      'content-type': 'application/cloudevents+json; charset=UTF-8',
      traceparent,
    });
    expect(JSON.parse(message.value).traceparent).toBe(traceparent);
  });

  it('keeps integer attributes within the 32-bit range the specification allows', () => {
    const { revision, schemaversion } = toCloudEvent(event);
    for (const value of [revision, schemaversion]) expect(Math.abs(value)).toBeLessThan(2 ** 31);
  });
});

describe('Kafka messages', () => {
  it('sends each module to its topic, keyed by stream, in the order given', () => {
    const events = [
      storedEvent('esm.request-1', 0),
      storedEvent('crm.deal-1', 0),
      storedEvent('esm.request-2', 0),
      storedEvent('esm.request-1', 1),
    ];
    const batches = toTopicMessages(events.map(toEventRecord));
    expect(batches.map((batch) => batch.topic)).toEqual(['suite.esm.events', 'suite.crm.events']);
    const esm = batches[0]!.messages;
    expect(esm.map((message) => message.key)).toEqual(['esm.request-1', 'esm.request-2', 'esm.request-1']);
    expect(esm.map((message) => JSON.parse(message.value as string).revision)).toEqual([0, 0, 1]);
    expect(esm[0]!.headers).toEqual({ 'content-type': 'application/cloudevents+json; charset=UTF-8' });
    expect(JSON.parse(esm[0]!.value as string).id).toBe(events[0]!.event_id);
    expect(topicFor('hrm.leave-9')).toBe('suite.hrm.events');
  });
});

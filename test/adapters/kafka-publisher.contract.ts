import { randomBytes, randomUUID } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import type { StoredEvent } from '../../src/events/envelope';
import type { EventPublisher } from '../../src/workers/event-publisher';
import { DEAD_LETTER_TOPIC, topicFor } from '../../src/workers/kafka-publisher';
import { storedEvent } from '../support/stored-event';

/** A record as a consumer reads it from a topic. */
export interface ReceivedRecord {
  topic: string;
  partition: number;
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

/** A Kafka the contract runs against: a real broker, or the model of one. */
export interface KafkaUnderTest {
  open(): Promise<EventPublisher>;
  /** `maxMessageBytes`: the topics' `max.message.bytes`, the broker's `message.max.bytes` if not given. */
  createTopics(topics: readonly string[], partitions: number, maxMessageBytes?: number): Promise<void>;
  /** What the topics hold, read from their start until `enough` says so. */
  received(
    topics: readonly string[],
    enough: (records: ReceivedRecord[]) => boolean,
  ): Promise<ReceivedRecord[]>;
}

/** The first `count` streams of `module` whose records go to `partition` of a topic of `partitions`. */
function streamsInPartition(module: string, partition: number, partitions: number, count: number): string[] {
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
    partitionId,
    leader: 0,
    replicas: [0],
    isr: [0],
    partitionErrorCode: 0,
  }));
  const streams: string[] = [];
  for (let n = 0; streams.length < count; n++) {
    const stream = `${module}.mail-${n}`;
    const topic = topicFor(stream);
    if (partitioner({ topic, partitionMetadata, message: { key: stream, value: null } }) === partition) {
      streams.push(stream);
    }
  }
  return streams;
}

/** Data that gzip cannot shrink much: base64 of random bytes (6 bits in each 8). */
const incompressible = (bytes: number) => randomBytes(bytes).toString('base64');

const idOf = (record: ReceivedRecord) => (JSON.parse(record.value) as { id: string }).id;

/** Each stream's events as a consumer that skips ids it has seen reads them. */
function firstArrivals(records: ReceivedRecord[]): Map<string, string[]> {
  const seen = new Set<string>();
  const streams = new Map<string, string[]>();
  for (const record of records) {
    const id = idOf(record);
    if (seen.has(id)) continue;
    seen.add(id);
    streams.set(record.key ?? '', [...(streams.get(record.key ?? '') ?? []), id]);
  }
  return streams;
}

function byStream(events: readonly StoredEvent[]): Map<string, string[]> {
  const streams = new Map<string, string[]>();
  for (const event of events)
    streams.set(event.stream, [...(streams.get(event.stream) ?? []), event.event_id]);
  return streams;
}

const holdsAll = (events: readonly StoredEvent[]) => (records: ReceivedRecord[]) => {
  const ids = new Set(records.map(idOf));
  return events.every((event) => ids.has(event.event_id));
};

/** The behaviour of the EventPublisher on Kafka, against a broker or its model. */
export function kafkaPublisherContract(name: string, kafka: () => KafkaUnderTest): void {
  describe(`Kafka publisher contract: ${name}`, () => {
    let publisher: EventPublisher | undefined;
    afterEach(async () => {
      await publisher?.close();
      publisher = undefined;
    });

    /** A module of its own for each test, so tests on one broker do not read each other's events. */
    const freshModule = () => `t${randomUUID().slice(0, 8)}`;

    it('publishes each event to its module topic, keyed by stream, as a CloudEvent, in stream order', async () => {
      const module = freshModule();
      const [one, two, other] = [`${module}.thing-1`, `${module}.thing-2`, `${module}x.thing-1`];
      const events = [
        storedEvent(one, 0),
        storedEvent(two, 0),
        storedEvent(one, 1),
        storedEvent(other, 0),
        storedEvent(two, 1),
        storedEvent(one, 2),
      ];
      const topics = [topicFor(one), topicFor(other)];
      await kafka().createTopics(topics, 3);
      publisher = await kafka().open();
      await publisher.publish(events.slice(0, 4));
      await publisher.publish(events.slice(4));

      const received = await kafka().received(topics, holdsAll(events));
      expect(firstArrivals(received)).toEqual(byStream(events));
      for (const record of received) expect(record.topic).toBe(topicFor(record.key ?? ''));
      const first = received.find((record) => idOf(record) === events[0]!.event_id);
      expect(first).toMatchObject({
        topic: `suite.${module}.events`,
        key: one,
        headers: { 'content-type': expect.stringContaining('application/cloudevents+json') },
      });
      expect(JSON.parse(first!.value)).toMatchObject({
        specversion: '1.0',
        subject: one,
        type: `suite.${module}.ThingHappened.v1`,
        data: { n: 0 },
      });
    });

    it('publishes a batch whose records exceed what the broker takes in one record batch, each event once', async () => {
      const module = freshModule();
      // A partition whose events outgrow one record batch, and one taking a single small event: a send
      // the broker refused in part would publish the small one again with the rest.
      const [large] = streamsInPartition(module, 0, 2, 1);
      const [small] = streamsInPartition(module, 1, 2, 1);
      const events = [
        storedEvent(small!, 0),
        ...Array.from({ length: 12 }, (_, revision) =>
          storedEvent(large!, revision, { data: { body: incompressible(150_000) } }),
        ),
      ];
      const topic = topicFor(large!);
      await kafka().createTopics([topic], 2);
      publisher = await kafka().open();
      await expect(publisher.publish(events)).resolves.toEqual({ deadLettered: [] });

      const received = await kafka().received([topic], holdsAll(events));
      expect(firstArrivals(received)).toEqual(byStream(events));
      expect(received).toHaveLength(events.length);
    });

    it('publishes an event larger than the topic takes uncompressed that compresses below it', async () => {
      const module = freshModule();
      const event = storedEvent(`${module}.page-1`, 0, {
        data: { body: 'The same paragraph of a long CMS page, again. '.repeat(10_000) },
      });
      const topic = topicFor(event.stream);
      const topicLimit = 100_000;
      expect(Buffer.byteLength(JSON.stringify(event.data))).toBeGreaterThan(topicLimit);
      await kafka().createTopics([topic], 1, topicLimit);
      await kafka().createTopics([DEAD_LETTER_TOPIC], 1);
      publisher = await kafka().open();

      await expect(publisher.publish([event])).resolves.toEqual({ deadLettered: [] });
      const received = await kafka().received([topic], holdsAll([event]));
      expect(received.map(idOf)).toEqual([event.event_id]);
    });

    it('dead-letters an event larger than the broker accepts, publishes the rest, and goes on publishing', async () => {
      const module = freshModule();
      // The large event's partition, and two others: one takes two events of the batch, one takes one.
      const [largeStream] = streamsInPartition(module, 0, 3, 1);
      const [twice, alsoTwice] = streamsInPartition(module, 1, 3, 2);
      const [once] = streamsInPartition(module, 2, 3, 1);
      const sized = (stream: string, bytes: number) =>
        storedEvent(stream, 0, { data: { body: incompressible(bytes) } });
      // A topic whose limit is below the publisher's bound on a send: the batch goes in one send, and
      // one partition of it refuses its record batch while the others take theirs (a partial failure).
      const topicLimit = 200_000;
      const large = sized(largeStream!, 250_000);
      const batch = [large, sized(twice!, 40_000), sized(alsoTwice!, 40_000), sized(once!, 40_000)];
      const after = [largeStream!, twice!, alsoTwice!, once!].map((stream) => storedEvent(stream, 1));
      const topic = topicFor(large.stream);
      await kafka().createTopics([topic], 3, topicLimit);
      await kafka().createTopics([DEAD_LETTER_TOPIC], 1);
      publisher = await kafka().open();

      await expect(publisher.publish(batch)).resolves.toEqual({ deadLettered: [large] });
      await expect(publisher.publish(after)).resolves.toEqual({ deadLettered: [] });

      const published = [...batch.slice(1), ...after];
      const received = await kafka().received([topic], holdsAll(published));
      expect(firstArrivals(received)).toEqual(byStream(published));
      const deadLetters = await kafka().received([DEAD_LETTER_TOPIC], (records) =>
        records.some((record) => idOf(record) === large.event_id),
      );
      const deadLetter = deadLetters.find((record) => idOf(record) === large.event_id)!;
      expect(deadLetter.key).toBe(large.stream);
      expect(JSON.parse(deadLetter.value)).toMatchObject({
        id: large.event_id,
        subject: large.stream,
        position: String(large.position),
        revision: 0,
        topic,
        error: expect.stringContaining('MESSAGE_TOO_LARGE'),
      });
    });
  });
}

import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import pino from 'pino';
import { openKafkaPublisher, topicFor } from '../../src/workers/kafka-publisher';
import { describeWithServer } from '../support/external-servers';
import { storedEvent } from '../support/stored-event';

interface Received {
  topic: string;
  key: string | undefined;
  contentType: string | undefined;
  value: { id: string; subject: string; revision: number; type: string; specversion: string; data: unknown };
}

describeWithServer('kafka', 'Kafka publisher', (address) => {
  it('publishes each event to its module topic, keyed by stream, as a CloudEvent, in stream order', async () => {
    const brokers = address().split(',');
    const module = `t${randomUUID().slice(0, 8)}`;
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
    const kafka = new Kafka({ brokers, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      topics: topics.map((topic) => ({ topic, numPartitions: 3 })),
      waitForLeaders: true,
    });
    await admin.disconnect();

    const publisher = await openKafkaPublisher({ brokers, logger: pino({ enabled: false }) });
    await publisher.publish(events.slice(0, 4));
    await publisher.publish(events.slice(4));
    await publisher.close();

    const consumer = kafka.consumer({ groupId: `suite-test-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    const received: Received[] = [];
    await new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ topic, message }) => {
          received.push({
            topic,
            key: message.key?.toString(),
            contentType: message.headers?.['content-type']?.toString(),
            value: JSON.parse(message.value?.toString() ?? 'null'),
          });
          if (received.length === events.length) resolve();
        },
      });
    });
    await consumer.disconnect();

    for (const stream of [one, two, other]) {
      const ofStream = received.filter((message) => message.key === stream);
      expect(ofStream.map((message) => message.value.revision)).toEqual(
        events.filter((event) => event.stream === stream).map((event) => event.revision),
      );
      expect(new Set(ofStream.map((message) => message.topic))).toEqual(new Set([topicFor(stream)]));
    }
    const first = received.find((message) => message.value.id === events[0]!.event_id);
    expect(first).toMatchObject({
      topic: `suite.${module}.events`,
      key: one,
      contentType: expect.stringContaining('application/cloudevents+json'),
      value: { specversion: '1.0', subject: one, type: `suite.${module}.ThingHappened.v1`, data: { n: 0 } },
    });
  }, 120_000);
});

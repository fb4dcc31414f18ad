import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import pino from 'pino';
import { openKafkaPublisher } from '../../src/workers/kafka-publisher';
import { describeWithServer } from '../support/external-servers';
import { kafkaPublisherContract, type ReceivedRecord } from './kafka-publisher.contract';

describeWithServer('kafka', 'Kafka publisher', (address) => {
  const brokers = () => address().split(',');
  const client = () => new Kafka({ brokers: brokers(), logLevel: logLevel.NOTHING });

  kafkaPublisherContract('real broker', () => ({
    open: () => openKafkaPublisher({ brokers: brokers(), logger: pino({ enabled: false }) }),
    async createTopics(topics, partitions, maxMessageBytes) {
      const configEntries =
        maxMessageBytes === undefined ? [] : [{ name: 'max.message.bytes', value: String(maxMessageBytes) }];
      const admin = client().admin();
      await admin.connect();
      try {
        await admin.createTopics({
          topics: topics.map((topic) => ({ topic, numPartitions: partitions, configEntries })),
          waitForLeaders: true,
        });
      } finally {
        await admin.disconnect();
      }
    },
    async received(topics, enough) {
      const consumer = client().consumer({ groupId: `suite-test-${randomUUID()}` });
      await consumer.connect();
      await consumer.subscribe({ topics: [...topics], fromBeginning: true });
      const records: ReceivedRecord[] = [];
      await new Promise<void>((resolve) => {
        void consumer.run({
          eachMessage: async ({ topic, partition, message }) => {
            records.push({
              topic,
              partition,
              key: message.key?.toString() ?? null,
              value: message.value?.toString() ?? '',
              headers: Object.fromEntries(
                Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]),
              ),
            });
            if (enough(records)) resolve();
          },
        });
      });
      await consumer.disconnect();
      return records;
    },
  }));
});

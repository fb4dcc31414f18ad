import pino from 'pino';
import { openKafkaPublisher } from '../../src/workers/kafka-publisher';
import { createKafkaModel, type KafkaModel } from '../support/kafka-model';
import { kafkaPublisherContract } from './kafka-publisher.contract';

let model: KafkaModel;
beforeEach(() => {
  model = createKafkaModel();
});

kafkaPublisherContract('model of the broker (test/support/kafka-model.ts)', () => ({
  open: () =>
    openKafkaPublisher({
      brokers: ['model:9092'],
      logger: pino({ enabled: false }),
      createProducer: model.createProducer,
    }),
  async createTopics(topics, partitions, maxMessageBytes) {
    for (const topic of topics) model.createTopic(topic, { partitions, maxMessageBytes });
  },
  async received(topics, enough) {
    const records = topics.flatMap((topic) => model.records(topic));
    if (!enough(records)) throw new Error('the topics do not hold what was expected');
    return records;
  },
}));

import pino from 'pino';
import { openKafkaPublisher, topicFor } from '../../src/workers/kafka-publisher';
import { createKafkaModel, type KafkaModel } from '../support/kafka-model';
import { storedEvent } from '../support/stored-event';
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

describe('Kafka publisher against the model: the record batches the broker receives', () => {
  it('sends every record batch gzip-compressed', async () => {
    const streams = ['mail.message-1', 'mail.message-2', 'mail.message-3', 'mail.message-4'];
    model.createTopic(topicFor(streams[0]!), { partitions: 3 });
    const publisher = await openKafkaPublisher({
      brokers: ['model:9092'],
      logger: pino({ enabled: false }),
      createProducer: model.createProducer,
    });
    try {
      await publisher.publish(streams.map((stream) => storedEvent(stream, 0)));
      await publisher.publish(streams.map((stream) => storedEvent(stream, 1)));
    } finally {
      await publisher.close();
    }
    expect(new Set(model.batches().map(({ compression }) => compression))).toEqual(new Set(['gzip']));
  });
});

import { CompressionTypes, KafkaJSProtocolError, Partitioners, type Message } from 'kafkajs';
import { createKafkaModel } from '../support/kafka-model';

/** The model's own behaviour, as its header documents it (the publisher's contract relies on it). */
describe('Kafka model', () => {
  const topic = 'suite.test.events';
  const client = { brokers: ['model:9092'] };
  const producerConfig = { idempotent: true, createPartitioner: Partitioners.DefaultPartitioner };
  const message = (key: string, bytes = 10): Message => ({ key, value: 'x'.repeat(bytes) });
  /** Two keys that the partitioner sends to different partitions of a 2-partition topic. */
  const [small, large] = ['stream-1', 'stream-3'];

  function setUp() {
    const model = createKafkaModel();
    model.createTopic(topic, { partitions: 2, maxMessageBytes: 1000 });
    return model;
  }

  it('places the keys of this test in different partitions', async () => {
    const model = setUp();
    const producer = model.createProducer(client, producerConfig);
    await producer.connect();
    await producer.sendBatch({ topicMessages: [{ topic, messages: [message(small), message(large)] }] });
    expect(new Set(model.records(topic).map((record) => record.partition)).size).toBe(2);
  });

  it('keeps the compression codec of the record batch of each partition it receives', async () => {
    const model = setUp();
    const producer = model.createProducer(client, producerConfig);
    await producer.connect();
    await producer.sendBatch({ topicMessages: [{ topic, messages: [message(small)] }] });
    await producer.sendBatch({
      topicMessages: [{ topic, messages: [message(small), message(small), message(large)] }],
      compression: CompressionTypes.GZIP,
    });
    expect(model.batches().map(({ records, compression }) => ({ records, compression }))).toEqual([
      { records: 1, compression: 'none' },
      { records: 2, compression: 'gzip' },
      { records: 1, compression: 'gzip' },
    ]);
  });

  it('writes the partitions that take their batch when another refuses its own as too large', async () => {
    const model = setUp();
    const producer = model.createProducer(client, producerConfig);
    await producer.connect();
    const sending = producer.sendBatch({
      topicMessages: [{ topic, messages: [message(small), message(large, 2000)] }],
    });
    await expect(sending).rejects.toMatchObject({ type: 'MESSAGE_TOO_LARGE', retriable: false });
    await expect(sending).rejects.toBeInstanceOf(KafkaJSProtocolError);
    expect(model.records(topic).map((record) => record.key)).toEqual([small]);
  });

  it('then refuses a different batch from that producer as out of order, and takes it from a new one', async () => {
    const model = setUp();
    const producer = model.createProducer(client, producerConfig);
    await producer.connect();
    const partial = [message(small), message(small), message(large, 2000)];
    await expect(producer.sendBatch({ topicMessages: [{ topic, messages: partial }] })).rejects.toThrow();

    const next = { topicMessages: [{ topic, messages: [message(small)] }] };
    await expect(producer.sendBatch(next)).rejects.toMatchObject({
      type: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
      retriable: false,
    });
    const recreated = model.createProducer(client, producerConfig);
    await recreated.connect();
    await recreated.sendBatch(next);
    expect(model.records(topic).filter((record) => record.key === small)).toHaveLength(3);
  });

  it('acknowledges a batch sent again unchanged without writing it twice', async () => {
    const model = setUp();
    const producer = model.createProducer(client, producerConfig);
    await producer.connect();
    const partial = [message(small), message(large, 2000)];
    await expect(producer.sendBatch({ topicMessages: [{ topic, messages: partial }] })).rejects.toThrow();
    await producer.sendBatch({ topicMessages: [{ topic, messages: [message(small)] }] });
    expect(model.records(topic).filter((record) => record.key === small)).toHaveLength(1);
  });
});

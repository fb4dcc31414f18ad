import { randomUUID } from 'node:crypto';
import { createBullMqJobQueue } from '../../src/workers/bullmq-job-queue';
import type { JobQueue } from '../../src/workers/job-queue';
import { eventually } from '../support/eventually';
import { tcpProxy } from '../support/tcp-proxy';
import { jobQueueContract, QUICK_RETRIES } from './job-queue.contract';

/** The real Redis this machine and CI run (a missing Redis fails these tests; it is not a skip). */
const REDIS_URL = process.env.SUITE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Ports of this file's own: nothing listens on the first; the second is a proxy the tests stop. */
const CLOSED_PORT = 31201;
const PROXY_PORT = 31202;

const openQueue = (url: string) =>
  createBullMqJobQueue({ url, prefix: `suite-test-${randomUUID()}`, ...QUICK_RETRIES });

jobQueueContract('BullMQ on Redis', async () => openQueue(REDIS_URL));

describe('BullMQ job queue while Redis is down', () => {
  const { hostname, port } = new URL(REDIS_URL);
  const proxy = tcpProxy(PROXY_PORT, { host: hostname, port: Number(port) });
  let queue: JobQueue | undefined;
  afterEach(async () => {
    await queue?.close();
    queue = undefined;
    await proxy.stop();
  });

  it('rejects an enqueue when Redis cannot be reached, instead of waiting for it', async () => {
    queue = openQueue(`redis://127.0.0.1:${CLOSED_PORT}`);
    await expect(queue.enqueue('test.echo', {})).rejects.toThrow(/Redis/);
  });

  it('rejects enqueues while the connection is down, and queues again once Redis is back', async () => {
    await proxy.start();
    const through = openQueue(`redis://127.0.0.1:${PROXY_PORT}`);
    queue = through;
    const seen: unknown[] = [];
    through.process('test.echo', async (data) => void seen.push(data));
    await through.enqueue('test.echo', { n: 1 });
    await eventually(
      'the first job to run',
      () => seen.length,
      (ran) => ran === 1,
    );

    await proxy.stop();
    await expect(through.enqueue('test.echo', { n: 2 })).rejects.toThrow();

    await proxy.start();
    await eventually(
      'an enqueue taken once Redis is back',
      () =>
        through.enqueue('test.echo', { n: 3 }).then(
          () => true,
          () => false,
        ),
      (taken) => taken,
    );
    await eventually(
      'the job enqueued once Redis is back to run',
      () => seen.length,
      (ran) => ran === 2,
    );
    expect(seen).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('closes while Redis is down, a job in flight left to be run again', async () => {
    await proxy.start();
    const through = openQueue(`redis://127.0.0.1:${PROXY_PORT}`);
    let started = false;
    through.process('test.slow', () => {
      started = true;
      return new Promise(() => undefined);
    });
    await through.enqueue('test.slow', {});
    await eventually(
      'the slow job to start',
      () => started,
      (yes) => yes,
    );
    await proxy.stop();
    await through.close();
  });
});

import { randomUUID } from 'node:crypto';
import { createBullMqJobQueue } from '../../src/workers/bullmq-job-queue';
import { jobQueueContract, QUICK_RETRIES } from './job-queue.contract';

/** The real Redis this machine and CI run (a missing Redis fails these tests; it is not a skip). */
const REDIS_URL = process.env.SUITE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

jobQueueContract('BullMQ on Redis', async () =>
  createBullMqJobQueue({ url: REDIS_URL, prefix: `suite-test-${randomUUID()}`, ...QUICK_RETRIES }),
);

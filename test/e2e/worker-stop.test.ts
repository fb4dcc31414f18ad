import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { MODULES } from '../../src/api/modules';
import { createLogger } from '../../src/api/kit/logging';
import { loadConfig } from '../../src/config';
import { openSuite, startWorker } from '../../src/main';
import { createBullMqJobQueue } from '../../src/workers/bullmq-job-queue';
import { appendScenarioAsAnotherWriter } from '../support/other-writer';
import { tempDir } from '../support/temp-dir';

describe("a worker that follows another process's projector", () => {
  it('stops while a job waits for read models that projector has not brought; the job is queued again', async () => {
    const { dir, cleanup } = tempDir();
    const redis = {
      url: process.env.SUITE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      prefix: `suite-worker-stop-${randomUUID()}`,
    };
    const config = loadConfig({
      SUITE_DATA_DIR: dir,
      SUITE_SEED: 'none',
      SUITE_LOG_LEVEL: 'silent',
      // BullMQ's close waits for the jobs under way.
      SUITE_REDIS_URL: redis.url,
      SUITE_REDIS_PREFIX: redis.prefix,
    });
    const fpa = MODULES.filter((module) => module.id === 'fpa');
    const worker = await openSuite(config, { logger: createLogger('silent'), modules: fpa, shared: true });
    await worker.runtime.follow(50);
    await startWorker(worker);

    // No projector runs: the planning job this scenario makes due waits for it.
    await appendScenarioAsAnotherWriter(path.join(dir, 'events.db'));
    for (let tries = 0; (await worker.jobs.counts()).active === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await worker.jobs.counts()).active).toBe(1);

    await worker.close();
    const queue = createBullMqJobQueue(redis);
    expect(await queue.counts()).toMatchObject({ active: 0, delayed: 1, failed: 0 });
    await queue.close();
    cleanup();
  });
});

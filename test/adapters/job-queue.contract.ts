import type { JobQueue } from '../../src/workers/job-queue';
import { eventually, type Patience } from '../support/eventually';

/** Options every adapter takes so that retries are quick under test. */
export const QUICK_RETRIES = { attempts: 3, backoffMs: 20 };

/**
 * The behaviour every JobQueue adapter must show; each adapter's test file runs it.
 *
 * A job id dedupes only while a job with it is pending (waiting, delayed between attempts, or
 * running): the job triggers enqueue with ids so that a crash and a catch-up do not queue the same
 * work twice at once. Once the job completed or failed for good, the id is free: enqueueing it again
 * runs the job again, as a user who asks for the work again expects (jobs are idempotent). A queue
 * that kept finished ids would drop such a job without a word on one adapter and run it on another.
 */
export function jobQueueContract(name: string, open: () => Promise<JobQueue>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let queue: JobQueue;
    beforeEach(async () => {
      queue = await open();
    });
    afterEach(() => queue.close());

    const quickly: Patience = { timeoutMs: 5000, intervalMs: 10 };
    const jobsRun = (seen: readonly unknown[], count: number) =>
      eventually(
        `${count} jobs to run`,
        () => seen.length,
        (ran) => ran === count,
        quickly,
      );
    const jobsEnded = (state: 'completed' | 'failed', count: number) =>
      eventually(
        `${count} ${state} jobs`,
        () => queue.counts(),
        (counts) => counts[state] === count,
        quickly,
      );

    it('runs queued jobs with their data, by name, and is idle afterwards', async () => {
      const seen: unknown[] = [];
      queue.process('test.echo', async (data) => void seen.push(data));
      await queue.enqueue('test.echo', { n: 1 });
      await queue.enqueue('test.echo', { n: 2 });
      await jobsRun(seen, 2);
      await queue.idle();
      expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
      expect(await queue.counts()).toMatchObject({
        waiting: 0,
        active: 0,
        delayed: 0,
        completed: 2,
        failed: 0,
      });
    });

    it('retries a failing job with backoff until it succeeds', async () => {
      let attempts = 0;
      queue.process('test.flaky', async () => {
        attempts += 1;
        if (attempts < QUICK_RETRIES.attempts) throw new Error(`attempt ${attempts} failed`);
      });
      await queue.enqueue('test.flaky', {});
      await jobsEnded('completed', 1);
      expect(attempts).toBe(QUICK_RETRIES.attempts);
      expect(await queue.failed()).toEqual([]);
    });

    it('keeps a job whose attempts are spent, with its error, data and attempt count', async () => {
      queue.process('test.broken', async () => {
        throw new Error('the source system is down');
      });
      await queue.enqueue('test.broken', { scenario: 'base' });
      await jobsEnded('failed', 1);
      const [failed] = await queue.failed();
      expect(failed).toMatchObject({
        name: 'test.broken',
        data: { scenario: 'base' },
        error: 'the source system is down',
        attempts: QUICK_RETRIES.attempts,
      });
      await queue.idle();
    });

    it('does not queue a job again while one with its id is waiting', async () => {
      await queue.enqueue('test.once', { n: 1 }, { jobId: 'plan:base@7' });
      await queue.enqueue('test.once', { n: 2 }, { jobId: 'plan:base@7' });
      await queue.enqueue('test.once', { n: 3 }, { jobId: 'plan:base@8' });
      const seen: unknown[] = [];
      queue.process('test.once', async (data) => void seen.push(data));
      await jobsRun(seen, 2);
      await queue.idle();
      expect(seen).toEqual([{ n: 1 }, { n: 3 }]);
    });

    it('runs a job again when its id is enqueued after the job completed', async () => {
      const seen: unknown[] = [];
      queue.process('test.again', async (data) => void seen.push(data));
      await queue.enqueue('test.again', { n: 1 }, { jobId: 'plan:base@7' });
      await jobsRun(seen, 1);
      await queue.idle();
      await queue.enqueue('test.again', { n: 2 }, { jobId: 'plan:base@7' });
      await jobsRun(seen, 2);
      expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    });

    it('runs a job again when its id is enqueued after its attempts were spent', async () => {
      let sourceDown = true;
      queue.process('test.recovers', async () => {
        if (sourceDown) throw new Error('the source system is down');
      });
      await queue.enqueue('test.recovers', {}, { jobId: 'import:base' });
      await jobsEnded('failed', 1);
      sourceDown = false;
      await queue.enqueue('test.recovers', {}, { jobId: 'import:base' });
      await jobsEnded('completed', 1);
      expect(await queue.failed()).toEqual([expect.objectContaining({ id: 'import:base' })]);
    });
  });
}

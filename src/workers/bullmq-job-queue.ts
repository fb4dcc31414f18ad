import { createHash } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { JOB_ATTEMPTS, JOB_BACKOFF_MS, type JobHandler, type JobQueue } from './job-queue';

export interface BullMqOptions {
  /** `redis://host:port/db`. */
  url: string;
  /** Key prefix, so several suites (or tests) can share one Redis. */
  prefix?: string;
  /** Jobs this process runs at once when it is a worker. */
  concurrency?: number;
  attempts?: number;
  backoffMs?: number;
}

const QUEUE_NAME = 'suite-jobs';
const IDLE_POLL_MS = 50;
/** Completed jobs kept for inspection; failed jobs are all kept. */
const COMPLETED_KEPT = 1000;

/**
 * BullMQ needs a custom job id without `:` (its key separator) that does not look like a number;
 * a hash keeps ids of any text distinct.
 */
const bullJobId = (id: string) => `j${createHash('sha256').update(id).digest('hex').slice(0, 40)}`;

/**
 * The distributed profile's JobQueue: one BullMQ queue on Redis for every job name; any `suite
 * worker` process takes jobs, retried with exponential backoff, and failed jobs stay in Redis
 * (visible through `failed()` and `suite jobs`) until an operator removes or retries them.
 */
export function createBullMqJobQueue(options: BullMqOptions): JobQueue {
  // Workers block on Redis and must not give up on a command: BullMQ requires maxRetriesPerRequest null.
  const connect = () => new Redis(options.url, { maxRetriesPerRequest: null });
  const prefix = options.prefix ?? 'suite';
  const connection = connect();
  const queue = new Queue(QUEUE_NAME, { connection, prefix });
  const handlers = new Map<string, JobHandler>();
  let worker: { worker: Worker; connection: Redis } | null = null;

  async function counts() {
    const found = await queue.getJobCounts(
      'waiting',
      'prioritized',
      'active',
      'delayed',
      'completed',
      'failed',
    );
    return {
      waiting: (found.waiting ?? 0) + (found.prioritized ?? 0),
      active: found.active ?? 0,
      delayed: found.delayed ?? 0,
      completed: found.completed ?? 0,
      failed: found.failed ?? 0,
    };
  }

  return {
    process(name, handler) {
      handlers.set(name, handler);
      if (worker) return;
      const workerConnection = connect();
      const run = async (job: { name: string; data: unknown }) => {
        const handle = handlers.get(job.name);
        if (!handle) throw new Error(`This worker has no handler for ${job.name}`);
        await handle(job.data);
      };
      worker = {
        worker: new Worker(QUEUE_NAME, run, {
          connection: workerConnection,
          prefix,
          concurrency: options.concurrency ?? 1,
        }),
        connection: workerConnection,
      };
    },
    async enqueue(name, data, { jobId } = {}) {
      await queue.add(name, data, {
        ...(jobId !== undefined && { jobId: bullJobId(jobId) }),
        attempts: options.attempts ?? JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: options.backoffMs ?? JOB_BACKOFF_MS },
        removeOnComplete: COMPLETED_KEPT,
        removeOnFail: false,
      });
    },
    counts,
    async failed() {
      const jobs = await queue.getFailed();
      return jobs.map((job) => ({
        id: job.id ?? '',
        name: job.name,
        data: job.data as unknown,
        error: job.failedReason,
        attempts: job.attemptsMade,
      }));
    },
    async idle() {
      for (;;) {
        const { waiting, active, delayed } = await counts();
        if (waiting + active + delayed === 0) return;
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      }
    },
    async close() {
      await worker?.worker.close();
      await queue.close();
      worker?.connection.disconnect();
      connection.disconnect();
    },
  };
}

import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { JOB_ATTEMPTS, JOB_BACKOFF_MS, type JobHandler, type JobQueue } from './job-queue';

export interface BullMqOptions {
  /** `redis://host:port/db`. */
  url: string;
  /** Key prefix, so several suites (or tests) can share one Redis. */
  prefix?: string;
  /** The queue's name; default `suite-jobs`. */
  queue?: string;
  /** Jobs this process runs at once when it is a worker. */
  concurrency?: number;
  attempts?: number;
  backoffMs?: number;
}

const QUEUE_NAME = 'suite-jobs';
const IDLE_POLL_MS = 50;
/** Completed jobs kept for inspection; failed jobs are all kept. */
const COMPLETED_KEPT = 1000;

const unreachable = (status: string) =>
  new Error(`Redis cannot be reached (the job queue's connection is ${status}); try again later`);

/**
 * Resolves once the connection is ready (at once when it is); rejects while Redis cannot be reached:
 * the first attempt to connect failed, or the connection dropped and is being retried. The caller
 * (the job triggers) then fails and tries again later, instead of waiting on Redis for ever.
 */
function ready(connection: Redis): Promise<void> {
  const { status } = connection;
  if (status === 'ready') return Promise.resolve();
  if (status !== 'wait' && status !== 'connecting' && status !== 'connect') {
    return Promise.reject(unreachable(status));
  }
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      connection.off('ready', settle);
      connection.off('error', settle);
      connection.off('close', settle);
      if (error) reject(unreachable(`failing: ${error.message}`));
      else if (connection.status === 'ready') resolve();
      else reject(unreachable(connection.status));
    };
    connection.once('ready', settle);
    connection.once('error', settle);
    connection.once('close', settle);
  });
}

/**
 * The distributed profile's JobQueue: one BullMQ queue on Redis for every job name; any `suite
 * worker` process takes jobs, retried with exponential backoff, and failed jobs stay in Redis
 * (visible through `failed()` and `suite jobs`) until an operator removes or retries them.
 *
 * A job id dedupes through BullMQ's deduplication, which holds the id while the job is waiting,
 * delayed or active and frees it when the job completes or fails for good; a custom BullMQ job id
 * would be held for as long as Redis keeps the finished job, and BullMQ drops an add with a held id
 * without an error.
 */
export function createBullMqJobQueue(options: BullMqOptions): JobQueue {
  // Workers block on Redis and must not give up on a command: BullMQ requires maxRetriesPerRequest null.
  const connect = () => new Redis(options.url, { maxRetriesPerRequest: null });
  const prefix = options.prefix ?? 'suite';
  // The queue's own connection fails fast instead: no command waits for Redis to come back.
  const connection = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const queueName = options.queue ?? QUEUE_NAME;
  const queue = new Queue(queueName, { connection, prefix });
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
        worker: new Worker(queueName, run, {
          connection: workerConnection,
          prefix,
          concurrency: options.concurrency ?? 1,
        }),
        connection: workerConnection,
      };
    },
    async enqueue(name, data, { jobId } = {}) {
      await ready(connection);
      await queue.add(name, data, {
        ...(jobId !== undefined && { deduplication: { id: jobId } }),
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
        id: job.deduplicationId ?? job.id ?? '',
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
      // While Redis is down a graceful close would wait for it: jobs in flight are left to BullMQ's
      // stalled-job check, which runs them again.
      const reachable = await connection.ping().then(
        () => true,
        () => false,
      );
      await worker?.worker.close(!reachable);
      await queue.close();
      worker?.connection.disconnect();
      connection.disconnect();
    },
  };
}

import { JOB_ATTEMPTS, JOB_BACKOFF_MS, type FailedJob, type JobHandler, type JobQueue } from './job-queue';

interface Job {
  id: string;
  name: string;
  data: unknown;
  attempts: number;
}

/**
 * The embedded profile's JobQueue: jobs run one at a time in this process, in the order queued,
 * retried with exponential backoff. Nothing survives a restart: what triggers a job (the log) does.
 */
export function createInProcessJobQueue(options: { attempts?: number; backoffMs?: number } = {}): JobQueue {
  const attempts = options.attempts ?? JOB_ATTEMPTS;
  const backoffMs = options.backoffMs ?? JOB_BACKOFF_MS;
  const handlers = new Map<string, JobHandler>();
  const waiting: Job[] = [];
  const delayed = new Map<string, NodeJS.Timeout>();
  const failed: FailedJob[] = [];
  let active: Job | null = null;
  let completed = 0;
  let sequence = 0;
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const holds = (id: string) => active?.id === id || delayed.has(id) || waiting.some((job) => job.id === id);

  function settleIdle(): void {
    if (active || waiting.length > 0 || delayed.size > 0) return;
    for (const resolve of idleWaiters) resolve();
    idleWaiters = [];
  }

  function next(): void {
    if (active || closed) return settleIdle();
    const index = waiting.findIndex((job) => handlers.has(job.name));
    if (index === -1) return settleIdle();
    const job = waiting.splice(index, 1)[0] as Job;
    active = job;
    job.attempts += 1;
    (handlers.get(job.name) as JobHandler)(job.data).then(
      () => {
        completed += 1;
        active = null;
        next();
      },
      (error: unknown) => {
        active = null;
        if (job.attempts >= attempts) {
          failed.push({ ...job, error: error instanceof Error ? error.message : String(error) });
        } else if (!closed) {
          const retry = setTimeout(
            () => {
              delayed.delete(job.id);
              waiting.push(job);
              next();
            },
            backoffMs * 2 ** (job.attempts - 1),
          );
          delayed.set(job.id, retry);
        }
        next();
      },
    );
  }

  return {
    process(name, handler) {
      handlers.set(name, handler);
      queueMicrotask(next);
    },
    async enqueue(name, data, { jobId } = {}) {
      const id = jobId ?? `${name}#${++sequence}`;
      if (closed || holds(id)) return;
      waiting.push({ id, name, data, attempts: 0 });
      queueMicrotask(next);
    },
    async counts() {
      return {
        waiting: waiting.length,
        active: active ? 1 : 0,
        delayed: delayed.size,
        completed,
        failed: failed.length,
      };
    },
    async failed() {
      return [...failed];
    },
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
    async close() {
      closed = true;
      for (const timer of delayed.values()) clearTimeout(timer);
      delayed.clear();
      waiting.length = 0;
      settleIdle();
    },
  };
}

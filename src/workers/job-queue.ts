/** The JobQueue port: work run by `suite worker` processes (in-process in the embedded profile). */

export interface JobOptions {
  /**
   * While a job with this id is pending (waiting, delayed or active) it is not added again; once that
   * job completed or failed for good, the id is free and the job is added (and runs) again.
   */
  jobId?: string;
}

/** Runs one job; a throw is a failed attempt, retried with backoff until the attempts are spent. */
export type JobHandler = (data: unknown) => Promise<void>;

export interface JobCounts {
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
}

/** A job whose attempts are spent; kept so an operator can see it (`suite jobs`) and retry it. */
export interface FailedJob {
  id: string;
  name: string;
  data: unknown;
  error: string;
  attempts: number;
}

export interface JobQueue {
  /** Makes this process a worker for jobs of this name. */
  process(name: string, handler: JobHandler): void;
  /** Rejects at once when the queue cannot take the job (its store is unreachable): retry later. */
  enqueue(name: string, data: unknown, options?: JobOptions): Promise<void>;
  counts(): Promise<JobCounts>;
  failed(): Promise<FailedJob[]>;
  /** Resolves once no job is waiting, delayed or active. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Attempts per job, and the first retry's delay (doubling after each failure). */
export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 250;

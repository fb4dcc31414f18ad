import { coalescing } from '../coalescing';

/** Work a process runs now and then every so often (a sweep of what fell due), one run at a time. */
export interface Periodic {
  /** Runs it once, then every `everyMs` until stopped. */
  start(): Promise<void>;
  /** Runs it once now (or once more after the run under way); a failure is reported, not thrown. */
  runOnce(): Promise<void>;
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

export function periodic(
  work: () => Promise<void>,
  { everyMs, onError }: { everyMs: number; onError(error: unknown): void },
): Periodic {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const run = coalescing(work);
  const runOnce = () => run().catch(onError);
  return {
    async start() {
      await runOnce();
      if (stopped || timer) return;
      timer = setInterval(() => void runOnce(), everyMs);
      timer.unref();
    },
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await run.settled();
    },
  };
}

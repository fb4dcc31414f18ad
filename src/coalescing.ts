/** Work that catches up with something that keeps moving (the head of the log). */
export interface Coalesced {
  /** Runs the work, or, while it runs, makes it run once more: nothing that arrived meanwhile is missed. */
  (): Promise<void>;
  /** Resolves once no run is in progress. */
  settled(): Promise<void>;
}

/** One run at a time; calls during a run coalesce into a single further run. */
export function coalescing(work: () => Promise<void>): Coalesced {
  let running: Promise<void> | null = null;
  let again = false;
  const call = (() => {
    again = true;
    running ??= (async () => {
      try {
        while (again) {
          again = false;
          await work();
        }
      } finally {
        // In the turn the loop ends: a call made in any later turn starts a run of its own.
        running = null;
      }
    })();
    return running;
  }) as Coalesced;
  call.settled = async () => {
    await running?.catch(() => undefined);
  };
  return call;
}

/** The first wait before catch-up work that failed runs again; it doubles with each failure in a row. */
export const FIRST_RETRY_DELAY_MS = 500;
/** The longest wait between retries. */
export const MAX_RETRY_DELAY_MS = 30_000;

/** Catch-up work started on each event, and again after a failure. */
export interface Retrying {
  /** Starts the work; a failure goes to `onError`, and the work runs again after a delay. */
  run(): void;
  /** Whether a retry is waiting for its delay to pass (the last run failed). */
  waiting(): boolean;
  /** Cancels the retry waiting, if any; later failures are no longer retried. */
  stop(): void;
}

/**
 * Runs `work` on each call and, when it fails, once more after a delay (doubling with each failure in a
 * row, up to `MAX_RETRY_DELAY_MS`) without waiting for a call: work started by appends to the log would
 * otherwise stay behind after a passing failure (a locked file, a lost connection) until the next append.
 * `onError` is told the delay of the retry a failure schedules (none when one already waits).
 */
export function retryingAfterFailure(
  work: () => Promise<void>,
  onError: (error: unknown, retryInMs?: number) => void,
  firstDelayMs = FIRST_RETRY_DELAY_MS,
): Retrying {
  let delay = firstDelayMs;
  let retry: NodeJS.Timeout | null = null;
  let stopped = false;
  const run = (): void => {
    work().then(
      () => {
        delay = firstDelayMs;
      },
      (error: unknown) => {
        if (stopped || retry) return onError(error);
        onError(error, delay);
        retry = setTimeout(() => {
          retry = null;
          run();
        }, delay);
        retry.unref();
        delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
      },
    );
  };
  return {
    run,
    waiting: () => retry !== null,
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = null;
    },
  };
}

/** A call that runs at most once per interval, however often it is asked for. */
export interface Throttled {
  /** Runs it once the interval since its last run has passed (one timer at a time). */
  request(): void;
  /** Cancels the run waiting, if any. */
  cancel(): void;
}

/** Follows the log at a pace: work that costs a look at the store, asked for after every append. */
export function throttled(intervalMs: number, run: () => void): Throttled {
  let lastRun = 0;
  let next: NodeJS.Timeout | null = null;
  return {
    request() {
      if (next) return;
      next = setTimeout(
        () => {
          next = null;
          lastRun = Date.now();
          run();
        },
        Math.max(0, lastRun + intervalMs - Date.now()),
      );
      next.unref();
    },
    cancel() {
      if (next) clearTimeout(next);
      next = null;
    },
  };
}

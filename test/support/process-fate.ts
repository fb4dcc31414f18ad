import { runInThisContext } from 'node:vm';

const FATAL_EVENTS = ['uncaughtException', 'unhandledRejection'] as const;

export interface ProcessFate {
  /** A signal that aborts, with the error as its reason, when something would end the process. */
  signal(): AbortSignal;
  /** The errors that would have ended the process since the last call. */
  take(): unknown[];
  /** Hands both events back to Jest. */
  restore(): void;
}

/**
 * What would end a `suite start` process: an uncaught exception or an unhandled rejection (Node ends
 * the process on either by default). Jest runs a test file with a copy of `process` and catches both
 * on the real one, failing whichever test is running; this takes them over while a test file runs, so
 * that its test can name the request that caused one.
 */
export function watchProcessFate(): ProcessFate {
  const real = runInThisContext('process') as NodeJS.Process;
  const saved = FATAL_EVENTS.map((event) => [event, real.listeners(event as 'uncaughtException')] as const);
  let fatal: unknown[] = [];
  let current = new AbortController();
  const record = (error: unknown) => {
    fatal.push(error);
    current.abort(error);
  };
  for (const event of FATAL_EVENTS) {
    real.removeAllListeners(event);
    real.on(event, record);
  }
  return {
    signal() {
      if (current.signal.aborted) current = new AbortController();
      return current.signal;
    },
    take() {
      const taken = fatal;
      fatal = [];
      return taken;
    },
    restore() {
      for (const [event, listeners] of saved) {
        real.removeListener(event, record);
        for (const listener of listeners) real.on(event, listener as (...args: unknown[]) => void);
      }
    },
  };
}

/** `RangeError: Maximum call stack size exceeded`, for a failure message. */
export const errorText = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

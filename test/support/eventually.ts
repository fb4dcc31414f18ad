import { inspect } from 'node:util';

export interface Patience {
  /** How long to keep asking before failing; 10 s unless told. */
  timeoutMs?: number;
  /** The pause between two answers; 50 ms unless told. */
  intervalMs?: number;
}

/**
 * Asks `probe` until `done` holds for its answer, and answers that answer. Fails after `timeoutMs`,
 * saying what it awaited (`awaited`, e.g. "the erasure to be folded") and the last answer.
 */
export async function eventually<T, Done extends T>(
  awaited: string,
  probe: () => T | Promise<T>,
  done: (answer: T) => answer is Done,
  patience?: Patience,
): Promise<Done>;
export async function eventually<T>(
  awaited: string,
  probe: () => T | Promise<T>,
  done: (answer: T) => boolean,
  patience?: Patience,
): Promise<T>;
export async function eventually<T>(
  awaited: string,
  probe: () => T | Promise<T>,
  done: (answer: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 50 }: Patience = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (done(answer)) return answer;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${awaited}; last answer: ${inspect(answer, { depth: 4 })}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

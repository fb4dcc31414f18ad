import type { IncomingMessage } from 'node:http';
import { ProjectionTimeout, type ProjectionProgress } from '../../projections/runtime';
import { ApiError } from './errors';
import type { ValidationDetail } from './validation';

/** How long a read that sends `X-Min-Position` waits for the read models before answering 503. */
export const MIN_POSITION_WAIT_MS = 2000;

/** The `X-Min-Position` a read sent: absent, a position, or why it is not one. */
export function minPositionOf(req: IncomingMessage): number | undefined | ValidationDetail {
  const raw = req.headers['x-min-position'];
  const value = (Array.isArray(raw) ? raw[raw.length - 1] : raw)?.trim();
  if (value === undefined) return undefined;
  if (/^\d{1,15}$/.test(value)) return Number(value);
  return {
    loc: ['header', 'X-Min-Position'],
    msg: 'Input should be a non-negative integer (a position from X-Event-Position)',
    type: 'int_parsing',
    input: value,
  };
}

/**
 * Waits (bounded) until the read models have passed the position of a write the caller saw, so
 * that a read after a write in the distributed profile sees it; 503 with Retry-After when they lag.
 */
export async function awaitPosition(progress: ProjectionProgress, position: number): Promise<void> {
  try {
    await progress.waitFor(position, MIN_POSITION_WAIT_MS);
  } catch (error) {
    if (!(error instanceof ProjectionTimeout)) throw error;
    throw new ApiError(
      'not_caught_up',
      `The read models have not reached position ${position} yet; retry shortly`,
      { position, current: progress.position() },
      { 'Retry-After': '1' },
    );
  }
}

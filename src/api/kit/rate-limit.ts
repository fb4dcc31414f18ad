import type { RateLimit } from '../../config';
import { ApiError } from './errors';

/** `ok`, or how many whole seconds to wait before the next request is allowed. */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string): RateDecision;
  /** What `take` would decide now, without taking a token. */
  peek(key: string): RateDecision;
  /** How many keys hold a bucket: those active lately. */
  size(): number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key (a user, a token holder), in memory: each request takes a token, tokens
 * come back at a steady rate. A bucket that has filled up again is the same as none, so those are
 * dropped, once per time a bucket takes to fill: the map holds the keys active within the last two.
 * `now` is injectable so tests need not wait.
 */
export function createRateLimiter(limit: RateLimit, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, Bucket>();
  const refilled = (bucket: Bucket, time: number) =>
    Math.min(limit.capacity, bucket.tokens + (Math.max(0, time - bucket.at) / 1000) * limit.refillPerSecond);
  const refused = (tokens: number): RateDecision => ({
    ok: false,
    retryAfterSeconds: Math.ceil((1 - tokens) / limit.refillPerSecond),
  });
  const fillMs = (limit.capacity / limit.refillPerSecond) * 1000;
  let sweptAt = 0;
  const dropFull = (time: number) => {
    if (time - sweptAt < fillMs) return;
    sweptAt = time;
    for (const [key, bucket] of buckets) if (refilled(bucket, time) >= limit.capacity) buckets.delete(key);
  };
  return {
    take(key) {
      const time = now();
      dropFull(time);
      const bucket = buckets.get(key) ?? { tokens: limit.capacity, at: time };
      bucket.tokens = refilled(bucket, time);
      bucket.at = time;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return refused(bucket.tokens);
    },
    peek(key) {
      const bucket = buckets.get(key);
      const tokens = bucket ? refilled(bucket, now()) : limit.capacity;
      return tokens >= 1 ? { ok: true } : refused(tokens);
    },
    size: () => buckets.size,
  };
}

/**
 * Takes a token for `key` (with `peek`, only checks that one is left), or throws the 429 envelope
 * error with its `Retry-After` header.
 */
export function enforceRateLimit(limiter: RateLimiter, key: string, { peek = false } = {}): void {
  const decision = peek ? limiter.peek(key) : limiter.take(key);
  if (decision.ok) return;
  const seconds = decision.retryAfterSeconds;
  throw new ApiError(
    'rate_limited',
    `Too many requests; try again in ${seconds} s`,
    { retry_after_seconds: seconds },
    { 'Retry-After': String(seconds) },
  );
}

import { ApiError } from './errors';

export interface RateLimit {
  /** Requests allowed in a burst. */
  capacity: number;
  /** Requests regained per second, up to the capacity. */
  refillPerSecond: number;
}

/** `ok`, or how many whole seconds to wait before the next request is allowed. */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string): RateDecision;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key (a user, a token holder), in memory: each request takes a token, tokens
 * come back at a steady rate. `now` is injectable so tests need not wait.
 */
export function createRateLimiter(limit: RateLimit, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, Bucket>();
  return {
    take(key) {
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: limit.capacity, at: time };
      const elapsed = Math.max(0, time - bucket.at) / 1000;
      bucket.tokens = Math.min(limit.capacity, bucket.tokens + elapsed * limit.refillPerSecond);
      bucket.at = time;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        // A full bucket is the default; forgetting it keeps the map as small as the active keys.
        if (bucket.tokens >= limit.capacity) buckets.delete(key);
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.ceil((1 - bucket.tokens) / limit.refillPerSecond) };
    },
  };
}

/** Takes a token for `key`, or throws the 429 envelope error with its `Retry-After` header. */
export function enforceRateLimit(limiter: RateLimiter, key: string): void {
  const decision = limiter.take(key);
  if (decision.ok) return;
  const seconds = decision.retryAfterSeconds;
  throw new ApiError(
    'rate_limited',
    `Too many requests; try again in ${seconds} s`,
    { retry_after_seconds: seconds },
    { 'Retry-After': String(seconds) },
  );
}

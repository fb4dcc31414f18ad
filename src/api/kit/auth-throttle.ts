import type { IncomingMessage } from 'node:http';
import type { RateLimit } from '../../config';
import { ApiError } from './errors';
import { createRateLimiter, enforceRateLimit } from './rate-limit';

/**
 * Failed authentications per client address. One throttle serves every port of a process, so
 * spreading guesses over the ports gains nothing.
 */
export interface AuthThrottle {
  /**
   * Runs a request's authentication. While the client's address is over its budget the answer is 429
   * before the credential is looked at, so a right guess looks like a wrong one; a 401 the
   * authentication throws to a request that presented a credential counts against the address.
   */
  guard<T>(req: IncomingMessage, authenticate: () => T): T;
}

/** The budget: `limit.capacity` failures at once, then `limit.refillPerSecond` more each second. */
export function createAuthThrottle(limit: RateLimit, now?: () => number): AuthThrottle {
  const failures = createRateLimiter(limit, now);
  return {
    guard(req, authenticate) {
      const address = req.socket.remoteAddress ?? '';
      enforceRateLimit(failures, address, { peek: true });
      // A request without a credential tried nothing: its 401 costs nothing.
      const presented = req.headers.authorization !== undefined || req.headers.cookie !== undefined;
      const counted = (error: unknown): never => {
        if (presented && error instanceof ApiError && error.code === 'unauthorized') {
          enforceRateLimit(failures, address);
        }
        throw error;
      };
      try {
        const result = authenticate();
        return (result instanceof Promise ? result.catch(counted) : result) as typeof result;
      } catch (error) {
        return counted(error);
      }
    },
  };
}

export const UNTHROTTLED: AuthThrottle = { guard: (_req, authenticate) => authenticate() };

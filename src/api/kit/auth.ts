import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from './errors';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Names the token on events without revealing it: `token:` and the first 12 hex digits of its hash. */
export function tokenActor(token: string): string {
  return `token:${digest(token).toString('hex').slice(0, 12)}`;
}

const DISABLED = {
  writes: new ApiError('writes_disabled', 'Writes are disabled until an API token is configured'),
  audit: new ApiError('audit_disabled', 'The audit API is disabled until an auditor token is configured'),
};

/**
 * Bearer authentication (for writes, or for the audit API): 503 while no token is configured, 401
 * for a missing or wrong token. Tokens are compared as fixed-length digests in constant time and
 * never logged.
 */
export function requireBearer(
  token: string | undefined,
  guards: keyof typeof DISABLED = 'writes',
): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return (req, res, next) => {
    if (!expected) throw DISABLED[guards];
    const match = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '');
    if (!match || !timingSafeEqual(digest((match[1] as string).trim()), expected)) {
      res.set('WWW-Authenticate', 'Bearer');
      throw new ApiError('unauthorized', 'A valid bearer token is required');
    }
    res.locals.actor = tokenActor(token as string);
    next();
  };
}

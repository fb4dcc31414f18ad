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

/** Checks an `Authorization` header and names the actor, or throws the 503 / 401 envelope error. */
export type BearerCheck = (authorization: string | undefined) => string;

/**
 * Bearer authentication (for writes, or for the audit API): 503 while no token is configured, 401
 * for a missing or wrong token. Tokens are compared as fixed-length digests in constant time and
 * never logged.
 */
export function bearerCheck(
  token: string | undefined,
  guards: keyof typeof DISABLED = 'writes',
): BearerCheck {
  const expected = token === undefined ? undefined : digest(token);
  const actor = token === undefined ? '' : tokenActor(token);
  return (authorization) => {
    if (!expected) throw DISABLED[guards];
    const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (!match || !timingSafeEqual(digest((match[1] as string).trim()), expected)) {
      throw new ApiError('unauthorized', 'A valid bearer token is required', undefined, {
        'WWW-Authenticate': 'Bearer',
      });
    }
    return actor;
  };
}

/** The same check as express middleware; the actor goes to `res.locals.actor`. */
export function requireBearer(
  token: string | undefined,
  guards: keyof typeof DISABLED = 'writes',
): RequestHandler {
  const check = bearerCheck(token, guards);
  return (req, res, next) => {
    res.locals.actor = check(req.get('authorization'));
    next();
  };
}

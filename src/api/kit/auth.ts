import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { UNTHROTTLED, type AuthThrottle } from './auth-throttle';
import { ApiError } from './errors';
import type { ModuleSettings } from './module';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * Names a token on events without revealing it: `token:` and 12 hex digits of its HMAC-SHA256 under a
 * key derived from the server secret. (A bare hash would let anyone who reads the log test guesses.)
 */
export function tokenActor(token: string, serverSecret: string): string {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, '', 'suite token actor', 32));
  return `token:${createHmac('sha256', key).update(token).digest('hex').slice(0, 12)}`;
}

const DISABLED = {
  writes: new ApiError('writes_disabled', 'Writes are disabled until an API token is configured'),
  audit: new ApiError('audit_disabled', 'The audit API is disabled until an auditor token is configured'),
};

/** Checks an `Authorization` header, or throws the 503 / 401 envelope error. */
export type BearerCheck = (authorization: string | undefined) => void;

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
  return (authorization) => {
    if (!expected) throw DISABLED[guards];
    const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (!match || !timingSafeEqual(digest((match[1] as string).trim()), expected)) {
      throw new ApiError('unauthorized', 'A valid bearer token is required', undefined, {
        'WWW-Authenticate': 'Bearer',
      });
    }
  };
}

/** The check of the API token (`SUITE_API_TOKEN`); answers the actor its holder is named by on events. */
export function apiTokenCheck(
  settings: Pick<ModuleSettings, 'apiToken' | 'sessionSecret'>,
): (authorization: string | undefined) => string {
  const check = bearerCheck(settings.apiToken);
  const actor = settings.apiToken === undefined ? '' : tokenActor(settings.apiToken, settings.sessionSecret);
  return (authorization) => {
    check(authorization);
    return actor;
  };
}

/** The same check as express middleware, behind the failed-authentication throttle. */
export function requireBearer(
  token: string | undefined,
  guards: keyof typeof DISABLED = 'writes',
  throttle: AuthThrottle = UNTHROTTLED,
): RequestHandler {
  const check = bearerCheck(token, guards);
  return (req, _res, next) => {
    throttle.guard(req, () => check(req.get('authorization')));
    next();
  };
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'svc_session';
/** The cookie's name: with `Secure`, the `__Host-` prefix keeps other hosts and plain HTTP from setting it. */
export const sessionCookieName = (secure: boolean) => (secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);
/** Eight hours, a working day. */
export const DEFAULT_SESSION_SECONDS = 8 * 3600;
export const MAX_SESSION_SECONDS = 30 * 86_400;
/** What a user id may be: what integrators' ids look like, nothing a cookie or log could trip on. */
export const USER_ID = /^[A-Za-z0-9._@-]{1,64}$/;
/** 128 random bits, in hex: what signing out revokes. */
export const SESSION_ID = /^[0-9a-f]{32}$/;

export const newSessionId = () => randomBytes(16).toString('hex');

interface SessionClaims {
  /** Session id. */
  s: string;
  /** User id. */
  u: string;
  /** Expiry, in seconds since the epoch. */
  e: number;
}

const signature = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload).digest('base64url');

/** `<base64url(JSON {s, u, e})>.<base64url(HMAC-SHA256(secret, first part))>` */
export function signSession(
  secret: string,
  userId: string,
  expiresAt: Date,
  sessionId: string = newSessionId(),
): string {
  const claims: SessionClaims = { s: sessionId, u: userId, e: Math.floor(expiresAt.getTime() / 1000) };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${signature(secret, payload)}`;
}

export type SessionCheck =
  { ok: true; sessionId: string; userId: string; expiresAt: Date } | { ok: false; reason: string };

/** The session a cookie value names, if its signature holds and it has not expired at `now`. */
export function verifySession(secret: string, value: string, now: Date): SessionCheck {
  const [payload, signed, ...rest] = value.split('.');
  if (!payload || !signed || rest.length > 0) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(signature(secret, payload));
  const given = Buffer.from(signed);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'bad signature' };
  }
  let claims: Partial<SessionClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<SessionClaims>;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (
    typeof claims.s !== 'string' ||
    !SESSION_ID.test(claims.s) ||
    typeof claims.u !== 'string' ||
    !USER_ID.test(claims.u) ||
    typeof claims.e !== 'number'
  ) {
    return { ok: false, reason: 'malformed' };
  }
  if (claims.e * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, sessionId: claims.s, userId: claims.u, expiresAt: new Date(claims.e * 1000) };
}

/** The value of one cookie in a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const attributes = `HttpOnly; SameSite=Lax; Path=/; Max-Age=${maxAgeSeconds}`;
  return `${sessionCookieName(secure)}=${value}; ${secure ? 'Secure; ' : ''}${attributes}`;
}

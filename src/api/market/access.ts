import { z } from 'zod';
import {
  DEFAULT_SESSION_SECONDS,
  MAX_SESSION_SECONDS,
  SESSION_COOKIE,
  USER_ID,
  cookieValue,
  sessionCookie,
  signSession,
  verifySession,
} from '../../market/session';
import { ApiError } from '../kit/errors';
import type { ModuleAccess, ModuleRoute, ModuleSettings } from '../kit/module';

const NO_SESSION = new ApiError(
  'unauthorized',
  `Sign in first: a valid, unexpired ${SESSION_COOKIE} cookie is required`,
);

function secretOf(settings: ModuleSettings): string {
  if (!settings.sessionSecret) throw new ApiError('api_disabled', 'Sessions are not configured');
  return settings.sessionSecret;
}

/** Every data endpoint needs the signed session cookie; the caller is the user it names. */
export const sessionAccess: ModuleAccess = {
  async authorize(request, _kind, services, settings) {
    const value = cookieValue(request.header('cookie'), SESSION_COOKIE);
    if (!value) throw NO_SESSION;
    const session = verifySession(secretOf(settings), value, services.clock.now());
    if (!session.ok) throw NO_SESSION;
    return { actor: `user:${session.userId}`, scope: session.userId };
  },
  securitySchemes: {
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description: 'Signed session (user id and expiry, HMAC-SHA256), set by POST /api/session',
    },
  },
  headers: [],
  errors: { 401: 'No valid, unexpired session cookie' },
};

const SessionRequest = z
  .strictObject({
    user_id: z.string().regex(USER_ID, 'Use 1 to 64 letters, digits, dots, dashes, underscores or @'),
    ttl_seconds: z
      .int()
      .min(60)
      .max(MAX_SESSION_SECONDS)
      .optional()
      .meta({
        description: `Session lifetime in seconds (default ${DEFAULT_SESSION_SECONDS}, at most ${MAX_SESSION_SECONDS})`,
      }),
  })
  .meta({ id: 'SessionRequest' });

const SessionAnswer = z
  .object({ user_id: z.string(), expires_at: z.string().meta({ format: 'date-time' }) })
  .meta({ id: 'Session' });

/** Established by a server-side integrator holding the API token; the browser gets the cookie. */
const signIn: ModuleRoute<unknown, z.infer<typeof SessionRequest>> = {
  method: 'post',
  path: '/api/session',
  summary: 'Sign a user in: sets the session cookie (bearer token of the integrator required)',
  tags: ['session'],
  auth: 'bearer',
  body: SessionRequest,
  responses: {
    201: { description: 'Signed in; `Set-Cookie: svc_session=...`', schema: SessionAnswer },
    401: { description: 'Missing or wrong bearer token' },
    422: { description: 'Invalid body' },
    503: { description: 'No API token is configured' },
  },
  async handle({ body, settings }, services) {
    const ttl = body.ttl_seconds ?? DEFAULT_SESSION_SECONDS;
    const expiresAt = new Date(Math.floor(services.clock.now().getTime() / 1000) * 1000 + ttl * 1000);
    const value = signSession(secretOf(settings), body.user_id, expiresAt);
    return {
      status: 201,
      body: { user_id: body.user_id, expires_at: expiresAt.toISOString().replace('.000Z', 'Z') },
      headers: { 'Set-Cookie': sessionCookie(value, ttl), 'Cache-Control': 'no-store' },
    };
  },
};

const signOut: ModuleRoute = {
  method: 'delete',
  path: '/api/session',
  summary: 'Sign out: clears the session cookie',
  tags: ['session'],
  auth: 'public',
  responses: {
    200: { description: 'Signed out; the cookie is cleared', schema: z.object({ signed_out: z.boolean() }) },
  },
  async handle() {
    return { status: 200, body: { signed_out: true }, headers: { 'Set-Cookie': sessionCookie('', 0) } };
  },
};

export const sessionRoutes = [signIn, signOut] as ModuleRoute[];

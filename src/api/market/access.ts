import { z } from 'zod';
import { isoTimestamp } from '../../clock';
import { endSession, startSession } from '../../commands/market/handlers';
import {
  DEFAULT_SESSION_SECONDS,
  MAX_SESSION_SECONDS,
  SESSION_COOKIE,
  USER_ID,
  cookieValue,
  newSessionId,
  sessionCookie,
  sessionCookieName,
  signSession,
  verifySession,
} from '../../market/session';
import { MARKET_COLLECTIONS, type SessionRecord } from '../../projections/market';
import { callerOf, modulePrincipalCheck } from '../kit/auth';
import { BEARER_AUTH } from '../kit/bearer-scheme';
import { ApiError } from '../kit/errors';
import type { AccessRequest, ModuleAccess, ModuleRoute, ModuleSettings } from '../kit/module';
import type { ModuleServices } from '../../modules/module';

const NO_SESSION = new ApiError(
  'unauthorized',
  `Sign in first: a valid, unexpired ${SESSION_COOKIE} cookie (or a bearer credential) is required`,
);

/** The session a request's cookie names, if it is signed with the secret and has not expired. */
function sessionOf(request: AccessRequest, services: ModuleServices, settings: ModuleSettings) {
  const value = cookieValue(request.header('cookie'), sessionCookieName(settings.secureCookies === true));
  if (!value) return undefined;
  const session = verifySession(settings.sessionSecret, value, services.clock.now());
  return session.ok ? session : undefined;
}

async function signedOut(services: ModuleServices, sessionId: string): Promise<boolean> {
  const stored = await services.readStore.get(MARKET_COLLECTIONS.sessions, sessionId);
  return stored !== null && (JSON.parse(stored) as SessionRecord).ended_at !== null;
}

/** What an invalid bearer credential answers while none could be valid (no API token, no identity provider). */
const NO_BEARER = new ApiError(
  'unauthorized',
  `No bearer credential can be checked here: sign in with the ${SESSION_COOKIE} cookie`,
);

/**
 * Every data endpoint takes either of two credentials. The market's own users carry the signed session
 * cookie of a session not signed out, and act as its user. Staff and integrations carry a bearer
 * credential (an API key, an identity provider's token, the API token) holding the endpoint's
 * `market:` role, as on every other module: the web console reads the market so, and never holds a
 * cookie, which the browser would send to every port of the host. A request that carries a bearer
 * credential is judged by it alone. A principal's chat history is its own, apart from every session
 * user's (a user id has no colon; a principal's id does).
 */
export const marketAccess: ModuleAccess = {
  async authorize(request, need, services, settings) {
    const authorization = request.header('authorization');
    if (authorization !== undefined) {
      const principal = await modulePrincipalCheck(settings, NO_BEARER)(authorization, need.role);
      return { ...callerOf(principal), scope: principal.id };
    }
    const session = sessionOf(request, services, settings);
    if (!session || (await signedOut(services, session.sessionId))) throw NO_SESSION;
    return { actor: `user:${session.userId}`, scope: session.userId };
  },
  securitySchemes: {
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description:
        'Signed session (session id, user id and expiry, HMAC-SHA256), set by POST /api/session; named ' +
        `__Host-${SESSION_COOKIE} when the suite is served over HTTPS (SUITE_COOKIE_SECURE=true)`,
    },
    bearerAuth: BEARER_AUTH,
  },
  headers: [],
  errors: {
    401: 'No valid, unexpired session cookie, or an invalid bearer credential',
    403: 'A bearer credential without the role the operation needs (code `forbidden`, naming the role)',
  },
};

const SessionRequest = z
  .strictObject({
    user_id: z.string().max(64).regex(USER_ID, 'Use 1 to 64 letters, digits, dots, dashes, underscores or @'),
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
  proposable: false,
  path: '/api/session',
  operation: 'signIn',
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
  async handle({ body, settings, commands }, services) {
    const ttl = body.ttl_seconds ?? DEFAULT_SESSION_SECONDS;
    const expiresAt = new Date(Math.floor(services.clock.now().getTime() / 1000) * 1000 + ttl * 1000);
    const session = {
      session_id: newSessionId(),
      user_id: body.user_id,
      expires_at: isoTimestamp(expiresAt),
    };
    await startSession(commands, session);
    const value = signSession(settings.sessionSecret, body.user_id, expiresAt, session.session_id);
    return {
      status: 201,
      body: { user_id: body.user_id, expires_at: session.expires_at },
      headers: {
        'Set-Cookie': sessionCookie(value, ttl, settings.secureCookies === true),
        'Cache-Control': 'no-store',
      },
    };
  },
};

/** Public, so that signing out always clears the cookie; a live session it carries is ended for good. */
const signOut: ModuleRoute = {
  method: 'delete',
  proposable: false,
  path: '/api/session',
  operation: 'signOut',
  summary: 'Sign out: ends the session the cookie names (the cookie no longer opens anything) and clears it',
  tags: ['session'],
  auth: 'public',
  responses: {
    200: { description: 'Signed out; the cookie is cleared', schema: z.object({ signed_out: z.boolean() }) },
    503: { description: 'Writes are disabled (no API token is configured): the session cannot be ended' },
  },
  async handle({ header, settings, commands }, services) {
    const session = sessionOf({ header }, services, settings);
    if (session) {
      if (settings.apiToken === undefined) {
        throw new ApiError('writes_disabled', 'Writes are disabled, so the session cannot be ended');
      }
      const asUser = {
        ...commands,
        metadata: () => ({ ...commands.metadata(), actor: `user:${session.userId}` }),
      };
      const { outcome } = await endSession(asUser, {
        session_id: session.sessionId,
        user_id: session.userId,
      });
      const last = outcome.events[outcome.events.length - 1];
      if (last) await services.runtime.waitFor(last.position);
    }
    const cleared = sessionCookie('', 0, settings.secureCookies === true);
    return { status: 200, body: { signed_out: true }, headers: { 'Set-Cookie': cleared } };
  },
};

export const sessionRoutes = [signIn, signOut] as ModuleRoute[];

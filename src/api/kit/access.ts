import type { IncomingMessage } from 'node:http';
import { apiTokenCheck } from './auth';
import { UNTHROTTLED } from './auth-throttle';
import { ApiError } from './errors';
import { createRateLimiter, enforceRateLimit } from './rate-limit';
import type {
  AccessRequest,
  Caller,
  ModuleAccess,
  ModuleDefinition,
  ModuleSettings,
  RouteServices,
} from './module';

/** The last value of a request header (repeated headers count by their last value). */
export function headerOf(req: IncomingMessage): AccessRequest['header'] {
  return (name) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[value.length - 1] : value;
  };
}

const ANONYMOUS: Caller = { actor: 'anonymous' };

/** Every data endpoint takes the API token: a module's reads with SUITE_READS=token. */
function tokenAccess(settings: ModuleSettings): ModuleAccess {
  const bearer = apiTokenCheck(settings);
  return {
    async authorize(request, kind) {
      if (kind === 'read' && settings.apiToken === undefined) {
        throw new ApiError(
          'api_disabled',
          'Reads need the API token (SUITE_READS=token); none is configured',
        );
      }
      return { actor: bearer(request.header('authorization')) };
    },
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          'The deployment\u2019s API token (SUITE_API_TOKEN): reads take it too (SUITE_READS=token)',
      },
    },
    headers: [],
    errors: { 401: 'Missing or wrong bearer token', 503: 'No API token is configured' },
  };
}

/**
 * The module as the settings serve it: with SUITE_READS=token, a module without an access check of
 * its own takes the API token on reads as on writes (and its description says so).
 */
export function servedModule(module: ModuleDefinition, settings: ModuleSettings): ModuleDefinition {
  return settings.reads === 'token' && !module.access ? { ...module, access: tokenAccess(settings) } : module;
}

/**
 * Names the caller of a data endpoint, or throws the error envelope's error. Modules without an
 * access declaration have public reads and bearer-token writes. Every check of a credential goes
 * through the failed-authentication throttle; writes are rate-limited per caller (429 with
 * Retry-After) when the settings carry a limit.
 */
export function callerCheck(
  module: ModuleDefinition,
  settings: ModuleSettings,
  services: RouteServices,
): (req: IncomingMessage, kind: 'read' | 'write') => Promise<Caller> {
  const { access } = module;
  const bearer = apiTokenCheck(settings);
  const throttle = settings.authThrottle ?? UNTHROTTLED;
  const identify = access
    ? (req: IncomingMessage, kind: 'read' | 'write') =>
        throttle.guard(req, () => access.authorize({ header: headerOf(req) }, kind, services, settings))
    : async (req: IncomingMessage, kind: 'read' | 'write') =>
        kind === 'read' ? ANONYMOUS : { actor: throttle.guard(req, () => bearer(req.headers.authorization)) };
  const writes = settings.writeRateLimit ? createRateLimiter(settings.writeRateLimit) : undefined;
  if (!writes) return identify;
  return async (req, kind) => {
    const caller = await identify(req, kind);
    if (kind === 'write') enforceRateLimit(writes, `${caller.scope ?? ''}/${caller.actor}`);
    return caller;
  };
}

import { linkedEmployee } from '../../iam/employee-link';
import type { IncomingMessage } from 'node:http';
import { callerOf, modulePrincipalCheck } from './auth';
import { UNTHROTTLED } from './auth-throttle';
import { BEARER_AUTH, BEARER_ERRORS } from './bearer-scheme';
import { createRateLimiter, enforceRateLimit } from './rate-limit';
import type {
  AccessNeed,
  AccessRequest,
  Caller,
  ModuleAccess,
  ModuleDefinition,
  ModuleSettings,
} from './module';
import type { ModuleServices } from '../../modules/module';

/** The last value of a request header (repeated headers count by their last value). */
export function headerOf(req: IncomingMessage): AccessRequest['header'] {
  return (name) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[value.length - 1] : value;
  };
}

const ANONYMOUS: Caller = { actor: 'anonymous' };

/** Every data endpoint takes a bearer credential holding its role: a module's reads with SUITE_READS=token. */
function tokenAccess(settings: ModuleSettings): ModuleAccess {
  const check = modulePrincipalCheck(settings);
  return {
    async authorize(request, need) {
      return callerOf(await check(request.header('authorization'), need.role));
    },
    securitySchemes: { bearerAuth: BEARER_AUTH },
    headers: [],
    errors: BEARER_ERRORS,
  };
}

/**
 * The module as the settings serve it: with SUITE_READS=token, a module without an access check of
 * its own takes a bearer credential on reads as on writes (and its description says so).
 */
export function servedModule(module: ModuleDefinition, settings: ModuleSettings): ModuleDefinition {
  return settings.reads === 'token' && !module.access ? { ...module, access: tokenAccess(settings) } : module;
}

/** The caller with the HR employee their person is linked to, which decisions they take name. */
async function withEmployee(caller: Caller, services: ModuleServices): Promise<Caller> {
  if (!caller.principal) return caller;
  return { ...caller, employee: await linkedEmployee(services.readStore, caller.principal) };
}

/** Names the caller of a data endpoint that needs `need`, or throws the error envelope's error. */
export type Authorize = (req: IncomingMessage, need: AccessNeed) => Promise<Caller>;

/**
 * Names the caller of a data endpoint, or throws the error envelope's error. Modules without an
 * access declaration have public reads and writes that take a bearer credential holding the write's
 * role. Every check of a credential goes through the failed-authentication throttle; writes are
 * rate-limited per caller (429 with Retry-After) when the settings carry a limit.
 */
export function callerCheck(
  module: ModuleDefinition,
  settings: ModuleSettings,
  services: ModuleServices,
): Authorize {
  const { access } = module;
  const check = modulePrincipalCheck(settings);
  const throttle = settings.authThrottle ?? UNTHROTTLED;
  const identify = access
    ? (req: IncomingMessage, need: AccessNeed) =>
        throttle.guard(req, () => access.authorize({ header: headerOf(req) }, need, services, settings))
    : async (req: IncomingMessage, need: AccessNeed) =>
        need.kind === 'read'
          ? ANONYMOUS
          : callerOf(await throttle.guard(req, () => check(req.headers.authorization, need.role)));
  const writes = settings.writeRateLimit ? createRateLimiter(settings.writeRateLimit) : undefined;
  return async (req, need) => {
    const caller = await identify(req, need);
    if (need.kind !== 'write') return caller;
    if (writes) enforceRateLimit(writes, caller.actor);
    return withEmployee(caller, services);
  };
}

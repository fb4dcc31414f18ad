import type { IncomingMessage } from 'node:http';
import { bearerCheck } from './auth';
import { createRateLimiter, enforceRateLimit } from './rate-limit';
import type { AccessRequest, Caller, ModuleDefinition, ModuleSettings, RouteServices } from './module';

/** The last value of a request header (repeated headers count by their last value). */
export function headerOf(req: IncomingMessage): AccessRequest['header'] {
  return (name) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[value.length - 1] : value;
  };
}

const ANONYMOUS: Caller = { actor: 'anonymous' };

/**
 * Names the caller of a data endpoint, or throws the error envelope's error. Modules without an
 * access declaration have public reads and bearer-token writes. Writes are rate-limited per caller
 * (429 with Retry-After) when the settings carry a limit.
 */
export function callerCheck(
  module: ModuleDefinition,
  settings: ModuleSettings,
  services: RouteServices,
): (req: IncomingMessage, kind: 'read' | 'write') => Promise<Caller> {
  const { access } = module;
  const bearer = bearerCheck(settings.apiToken);
  const identify = access
    ? (req: IncomingMessage, kind: 'read' | 'write') =>
        access.authorize({ header: headerOf(req) }, kind, services, settings)
    : async (req: IncomingMessage, kind: 'read' | 'write') =>
        kind === 'read' ? ANONYMOUS : { actor: bearer(req.headers.authorization) };
  const writes = settings.writeRateLimit ? createRateLimiter(settings.writeRateLimit) : undefined;
  if (!writes) return identify;
  return async (req, kind) => {
    const caller = await identify(req, kind);
    if (kind === 'write') enforceRateLimit(writes, `${caller.scope ?? ''}/${caller.actor}`);
    return caller;
  };
}

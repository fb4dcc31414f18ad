import type { IncomingMessage } from 'node:http';
import { bearerCheck } from './auth';
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
 * access declaration have public reads and bearer-token writes.
 */
export function callerCheck(
  module: ModuleDefinition,
  settings: ModuleSettings,
  services: RouteServices,
): (req: IncomingMessage, kind: 'read' | 'write') => Promise<Caller> {
  const { access } = module;
  if (access) return (req, kind) => access.authorize({ header: headerOf(req) }, kind, services, settings);
  const bearer = bearerCheck(settings.apiToken);
  return async (req, kind) => (kind === 'read' ? ANONYMOUS : { actor: bearer(req.headers.authorization) });
}

import { createServer, type RequestListener, type Server } from 'node:http';
import { guardedPort, portSecurity } from '../api/kit/port-guard';
import type { PageKind } from '../api/kit/security-headers';
import type { Config } from '../config';
import { connectionAccepted } from '../projections/one-per-turn';

export function listen(handler: RequestListener, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.on('connection', connectionAccepted);
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * Serves one of the suite's ports (a module's, the audit API's, the console's) on the configured
 * host, behind its guard: hosts the suite does not answer for are refused, and every answer carries
 * the security headers of what the port serves.
 */
export function servePort(
  handler: RequestListener,
  port: number,
  config: Config,
  kind: PageKind = 'api',
): Promise<Server> {
  return listen(guardedPort(handler, portSecurity(config, kind)), port, config.host);
}

/** Stops accepting connections; resolves once open requests are done (or, interrupting, ended). */
export function closeServer(
  server: Server,
  { interruptActive }: { interruptActive: boolean },
): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    if (interruptActive) server.closeAllConnections();
    else server.closeIdleConnections();
  });
}

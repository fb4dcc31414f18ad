import type { RequestListener } from 'node:http';
import { LOOPBACK_HOSTS, type Config } from '../../config';
import { ApiError } from './errors';
import { sendError } from './http';
import { securityHeaders, type HeaderList, type PageKind } from './security-headers';

/** What every port checks and sends before it routes a request. */
export interface PortSecurity {
  /** The `Host` values answered, lower case. */
  hosts: ReadonlySet<string>;
  /** The `Host` values the probes answer: those, and this machine's names (container health checks). */
  probeHosts: ReadonlySet<string>;
  headers: HeaderList;
}

type SecuritySettings = Pick<
  Config,
  'allowedHosts' | 'ports' | 'auditPort' | 'consolePort' | 'metricsPort' | 'consoleOrigins' | 'cookieSecure'
>;

const hasPort = (host: string) => /:\d+$/.test(host);

/** Each host as a client may send it: a name with a port as is, a name alone bare or with any of the ports. */
function hostValues(hosts: readonly string[], ports: readonly number[]): Set<string> {
  return new Set(
    hosts.flatMap((host) => (hasPort(host) ? [host] : [host, ...ports.map((port) => `${host}:${port}`)])),
  );
}

/** The API origins the console's page calls: each of its origins' host, on each API port. */
function consoleApis(settings: SecuritySettings): string[] {
  const ports = [...Object.values(settings.ports), settings.auditPort];
  return settings.consoleOrigins.flatMap((origin) => {
    const { protocol, hostname } = new URL(origin);
    return ports.map((port) => `${protocol}//${hostname}:${port}`);
  });
}

/** The checks and headers of a port serving `kind`, from the configuration alone (never from a request). */
export function portSecurity(settings: SecuritySettings, kind: PageKind): PortSecurity {
  const ports = [
    ...Object.values(settings.ports),
    settings.auditPort,
    settings.consolePort,
    settings.metricsPort,
  ];
  const hosts = hostValues(settings.allowedHosts, ports);
  return {
    hosts,
    probeHosts: new Set([...hosts, ...hostValues(LOOPBACK_HOSTS, ports)]),
    headers: securityHeaders(kind, {
      secure: settings.cookieSecure,
      consoleApis: kind === 'console' ? consoleApis(settings) : undefined,
    }),
  };
}

const isProbe = (url: string) => /^\/(livez|readyz)(\?|$)/.test(url);

/**
 * A port's handler behind its guard: a request naming a host the suite does not answer for (a page
 * whose name was re-pointed at this machine: DNS rebinding) is refused with 421 before anything is
 * routed, and every answer carries the security headers.
 */
export function guardedPort(handler: RequestListener, security: PortSecurity): RequestListener {
  const { hosts, probeHosts, headers } = security;
  return (req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    const host = req.headers.host?.toLowerCase() ?? '';
    if (hosts.has(host) || (probeHosts.has(host) && isProbe(req.url ?? '/'))) return handler(req, res);
    // The host is not echoed: nothing in an answer is taken from `Host`.
    sendError(
      res,
      new ApiError('misdirected_request', 'This server does not answer for the host the request names'),
    );
  };
}

import { createServer, type RequestListener, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import type { Readiness } from '../../readiness';
import { compressing } from './compression';
import { guardedPort, type PortSecurity } from './port-guard';
import { probeRouter } from './probes';
import { sendError } from './http';
import { NO_PARAMETERS, parameterError, urlParameterProblem } from './query-parameters';

/**
 * `GET /metrics`, `/health` and the probes (`/livez`, `/readyz`), as the metrics port of a role
 * answers them; none takes a query parameter.
 */
export function metricsHandler(registry: Registry, readiness: Readiness, role: string): RequestListener {
  const probes = probeRouter(readiness);
  return (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (probes(req, res)) return;
    const problem = urlParameterProblem(req.url ?? '/', NO_PARAMETERS);
    if (req.method === 'GET' && (path === '/metrics' || path === '/health') && problem) {
      sendError(res, parameterError(problem, NO_PARAMETERS));
    } else if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    } else if (req.method === 'GET' && path === '/health') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: 'ok', role }));
    } else {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ error: { code: 'route_not_found', message: `No route for ${req.method} ${path}` } }),
      );
    }
  };
}

/** The metrics port of every role, behind its guard, its answers compressed. */
export function serveMetrics(
  registry: Registry,
  readiness: Readiness,
  { port, host, role, security }: { port: number; host: string; role: string; security: PortSecurity },
): Promise<Server> {
  const server = createServer(guardedPort(compressing(metricsHandler(registry, readiness, role)), security));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { Histogram, type Registry } from 'prom-client';
import type { Readiness } from '../../readiness';
import { tracing } from '../../telemetry/tracing';
import { compressing } from './compression';
import type { RequestObserver } from './http';
import { logCompleted } from './logging';
import { probeRouter } from './probes';
import { malformedUrlRouter, wellEncoded } from './url-encoding';

/** What a process gives every port it serves: its metrics registry, and whether it can serve. */
export interface ServingServices {
  metrics: Registry;
  readiness: Readiness;
}

const DURATIONS = 'suite_http_request_duration_seconds';

/** The route label of a request no route answered (a 404): never its path, which a client chooses. */
export const UNMATCHED_ROUTE = 'unmatched';

type Durations = Histogram<'module' | 'route' | 'method' | 'status'>;

/** The process's histogram of request durations, made in its registry on first use. */
function durations(registry: Registry): Durations {
  return (
    (registry.getSingleMetric(DURATIONS) as Durations | undefined) ??
    new Histogram({
      name: DURATIONS,
      help: 'Time from a request to its answer, by module, route template, method and status code',
      labelNames: ['module', 'route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    })
  );
}

/**
 * The observer of one module's (or the audit API's) requests. Each series' histogram is looked up
 * once and kept: labelling a histogram per request would cost more than the log line.
 */
export function requestObserver(logger: Logger, module: string, registry: Registry): RequestObserver {
  const histogram = durations(registry);
  const series = new Map<string, { observe(seconds: number): void }>();
  return {
    logger,
    completed(req, requestId, route, status, started) {
      const method = req.method ?? 'GET';
      const label = route ?? UNMATCHED_ROUTE;
      const key = `${method} ${status} ${label}`;
      let observed = series.get(key);
      if (!observed) {
        observed = histogram.labels({ module, route: label, method, status: String(status) });
        series.set(key, observed);
      }
      observed.observe((performance.now() - started) / 1000);
      if (route !== undefined) tracing()?.routed(req, route);
      logCompleted(logger, req, requestId, status, started);
    },
  };
}

/** The observer of a port whose requests are logged but not measured (the console's). */
export function loggingObserver(logger: Logger): RequestObserver {
  return {
    logger,
    completed: (req, requestId, _route, status, started) =>
      logCompleted(logger, req, requestId, status, started),
  };
}

/**
 * A port's handler as served: the probes first (neither logged, measured nor traced), then each
 * request within its server span when tracing is on, a URL that is not percent-encoded UTF-8 refused
 * before the handler sees it (400 `malformed_url`, on every path); every answer compressed as the
 * client accepts (`compressing`).
 */
export function served(
  handle: RequestListener,
  { readiness, observer }: { readiness: Readiness; observer: RequestObserver },
): RequestListener {
  const probes = probeRouter(readiness);
  const refusesMalformedUrl = malformedUrlRouter(observer);
  const answer: RequestListener = (req, res) => {
    if (!refusesMalformedUrl(req, res)) handle(req, res);
  };
  return compressing((req, res) => {
    // A URL that is not well encoded is no probe: it is refused as any other request is.
    if (wellEncoded(req.url ?? '/') && probes(req, res)) return;
    const traces = tracing();
    if (traces) traces.serve(req, res, () => answer(req, res));
    else answer(req, res);
  });
}

import type { Readiness } from '../../readiness';
import { ApiError } from './errors';
import { sendError, sendJson, type Router } from './http';
import { NO_PARAMETERS, parameterError, urlParameterProblem } from './query-parameters';

const ALIVE = Buffer.from(JSON.stringify({ status: 'alive' }));

/**
 * `GET /livez` (the process serves) and `GET /readyz` (its stores answer and its read models keep up:
 * 200, else 503 with the failing checks), public on every port; neither takes a query parameter. They are neither logged nor traced:
 * an orchestrator asks every few seconds.
 */
export function probeRouter(readiness: Readiness): Router {
  return (req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?', 1)[0];
    if (path !== '/livez' && path !== '/readyz') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, new ApiError('method_not_allowed', `${req.method} is not allowed here; use GET, HEAD`), {
        Allow: 'GET, HEAD',
      });
      return true;
    }
    const problem = urlParameterProblem(url, NO_PARAMETERS);
    if (problem) {
      sendError(res, parameterError(problem, NO_PARAMETERS));
      return true;
    }
    if (path === '/livez') {
      sendJson(res, 200, ALIVE, { 'Cache-Control': 'no-store' });
      return true;
    }
    readiness.check().then(
      (report) =>
        sendJson(res, report.status === 'ready' ? 200 : 503, Buffer.from(JSON.stringify(report)), {
          'Cache-Control': 'no-store',
        }),
      (error: unknown) => sendError(res, error),
    );
    return true;
  };
}

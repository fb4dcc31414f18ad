import { headerOf, type Authorize } from './access';
import {
  answerFailure,
  pathMatcher,
  readJsonBody,
  sendJson,
  type Router,
  type RequestObserver,
} from './http';
import { requestIdOf } from './logging';
import { openApiPath } from './openapi';
import { routeName } from '../../modules/module';
import {
  proposalTtl,
  writeRole,
  type ModuleDefinition,
  type ModuleSettings,
  type WriteRoute,
} from './module';
import { holdBackIfRequired, type ProposalServices } from './proposals';
import { executeWrite, JSON_BODY_LIMIT_BYTES } from './writes';
import { NO_PARAMETERS, parameterError, urlParameterProblem } from './query-parameters';

/**
 * The module's writes on `node:http`: any query parameter refused (400), then the bearer check (503 /
 * 401 before the body is read), then the body (413, 415, 400), then `executeWrite`. Requests for other routes pass on.
 */
export function createWriteRouter(
  module: ModuleDefinition,
  services: ProposalServices,
  authorize: Authorize,
  observer: RequestObserver,
  settings: ModuleSettings,
): Router {
  const routes = module.writes.map((route) => ({
    route,
    match: pathMatcher(route.path),
    template: openApiPath(route.path),
  }));

  return (req, res) => {
    const method = req.method?.toLowerCase();
    const url = req.url ?? '/';
    const path = url.split('?', 1)[0] as string;
    let route: WriteRoute | undefined;
    let template = '';
    let params: Record<string, string> | null = null;
    for (const candidate of routes) {
      if (candidate.route.method !== method) continue;
      params = candidate.match(path);
      if (params) {
        route = candidate.route;
        template = candidate.template;
        break;
      }
    }
    if (!route || !params) return false;

    const started = performance.now();
    const requestId = requestIdOf(req);
    const matched = { route, params };
    (async () => {
      // A write takes no query parameter: its input is its path and body.
      const problem = urlParameterProblem(url, NO_PARAMETERS);
      if (problem) throw parameterError(problem, NO_PARAMETERS);
      const caller = await authorize(req, { kind: 'write', role: writeRole(module, matched.route) });
      const body = await readJsonBody(req, JSON_BODY_LIMIT_BYTES);
      const write = { params: matched.params, body, header: headerOf(req), requestId, caller };
      const held = await holdBackIfRequired(
        services,
        { ...write, module, route: routeName(matched.route), path },
        proposalTtl(settings),
        (checking, header, proposer) =>
          executeWrite(
            module,
            matched.route,
            { ...services, ...checking },
            { ...write, header, caller: proposer },
          ),
      );
      return held ?? executeWrite(module, matched.route, services, write);
    })()
      .then((answer) => {
        sendJson(res, answer.status, Buffer.from(JSON.stringify(answer.body)), {
          ...answer.headers,
          'X-Request-Id': requestId,
        });
        observer.completed(req, requestId, template, answer.status, started);
      })
      .catch((error: unknown) =>
        answerFailure({ req, res, observer, requestId, route: template, started }, error),
      );
    return true;
  };
}

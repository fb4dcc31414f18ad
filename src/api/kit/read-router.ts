import type { Awaitable } from '../../awaitable';
import type { Filter, ReadStore } from '../../projections/read-store';
import { answerFailure, sendJson, type Router, type RequestObserver } from './http';
import { requestIdOf } from './logging';
import type { Authorize } from './access';
import type { AccessNeed, ModuleDefinition } from './module';
import { invalidParameters, readItem, readList, scopeFilter, type ReadAnswer } from './reads';
import { awaitPosition, minPositionOf } from './consistency';
import type { ProjectionProgress } from '../../projections/runtime';
import { readItemAsOf } from './reads-as-of';
import { TIME_TRAVEL_PARAMETERS, type TimeTravelServices } from './time-travel';
import {
  declaredParameters,
  parameterProblem,
  parameterRefusal,
  type DeclaredParameters,
} from './query-parameters';
import { ItemQuery, listQuery } from './read-parameters';

const PREFIX = '/api/v1/';

/** The query of every read without one, shared: such a read allocates none. */
const NO_QUERY = new URLSearchParams();

/** A read route: its template (for logs and metrics) and the query parameters it takes. */
interface ServedRead {
  template: string;
  parameters: DeclaredParameters;
}

/** `GET /api/v1/<resource>` and `GET /api/v1/<resource>/{id}` on `node:http`; other requests pass on. */
export function createReadRouter(
  module: ModuleDefinition,
  services: { readStore: ReadStore; runtime: ProjectionProgress } & TimeTravelServices,
  authorize: Authorize,
  observer: RequestObserver,
): Router {
  const resources = new Map(module.resources.map((resource) => [resource.path.toLowerCase(), resource]));
  const itemParameters = declaredParameters(ItemQuery);
  const routes = new Map(
    module.resources.map((resource) => [
      resource,
      {
        list: {
          template: `/api/v1/${resource.path}`,
          parameters: declaredParameters(listQuery(module, resource)),
        },
        item: { template: `/api/v1/${resource.path}/{${module.itemParam}}`, parameters: itemParameters },
      },
    ]),
  );
  const { readStore, runtime: progress } = services;
  const need: AccessNeed = { kind: 'read', role: `${module.id}:reader` };

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    if (path.length <= PREFIX.length || path.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return false;
    const segments = path.slice(PREFIX.length).split('/');
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
    const resource = resources.get((segments[0] as string).toLowerCase());
    if (!resource || segments.length > 2) return false;
    // A path that does not decode never gets here (`served` refuses it).
    const rawId = segments.length === 2 ? decodeURIComponent(segments[1] as string) : undefined;
    const served = routes.get(resource) as Record<'list' | 'item', ServedRead>;
    const { template: route, parameters } = rawId === undefined ? served.list : served.item;

    const started = performance.now();
    const id = requestIdOf(req);
    const query = queryStart === -1 ? NO_QUERY : new URLSearchParams(url.slice(queryStart + 1));
    // A read of a record as of a point in time folds its events; a plain one reads the read model.
    const travels = rawId !== undefined && TIME_TRAVEL_PARAMETERS.some((name) => query.has(name));
    const read = (scope?: Filter) =>
      rawId === undefined
        ? readList(module, resource, readStore, query, scope)
        : travels
          ? readItemAsOf(module, resource, services, rawId, query, scope)
          : readItem(module, resource, readStore, rawId, scope);
    const respond = ({ status, body }: ReadAnswer) => {
      sendJson(res, status, body, { 'X-Request-Id': id });
      observer.completed(req, id, route, res.statusCode, started);
    };
    const fail = (error: unknown) =>
      answerFailure({ req, res, observer, requestId: id, route, started }, error);
    const problem = queryStart === -1 ? undefined : parameterProblem(query, parameters);
    if (problem) {
      const { status, body } = parameterRefusal(problem, parameters, module.readErrors);
      respond({ status, body: Buffer.from(JSON.stringify(body)) });
      return true;
    }
    const minPosition = minPositionOf(req);
    // A read that needs neither an access check nor a wait is answered in this turn of the event loop
    // when the read store answers synchronously (the embedded one does).
    let answer: Awaitable<ReadAnswer>;
    try {
      answer =
        typeof minPosition === 'object'
          ? invalidParameters(module, [minPosition])
          : module.access || minPosition !== undefined
            ? (async () => {
                const caller = await authorize(req, need);
                if (minPosition !== undefined) await awaitPosition(progress, minPosition);
                return read(scopeFilter(resource, caller));
              })()
            : read();
    } catch (error) {
      fail(error);
      return true;
    }
    if (answer instanceof Promise) answer.then(respond).catch(fail);
    else respond(answer);
    return true;
  };
}

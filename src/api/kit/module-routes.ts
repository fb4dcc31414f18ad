import type { ServerResponse } from 'node:http';
import type { Authorize } from './access';
import { callerOf, modulePrincipalCheck } from './auth';
import { UNTHROTTLED } from './auth-throttle';
import { validated, validationError } from './errors';
import {
  answerFailure,
  pathMatcher,
  readJsonBody,
  sendJson,
  sendText,
  type RequestObserver,
  type Router,
} from './http';
import { requestIdOf } from './logging';
import { openApiPath } from './openapi';
import {
  proposalTtl,
  routeRole,
  type AccessNeed,
  type Caller,
  type ModuleDefinition,
  type ModuleRoute,
  type ModuleSettings,
  type RouteAnswer,
  type RouteApi,
  type RouteInput,
} from './module';
import { routeName, type ModuleServices } from '../../modules/module';
import { holdBackIfRequired } from './proposals';
import { JSON_BODY_LIMIT_BYTES, requestCommandContext, type WriteServices } from './writes';
import { headerOf } from './access';
import { enforceRateLimit } from './rate-limit';
import { awaitPosition, minPositionOf } from './consistency';
import { firstDetails, zodDetails, type ValidationDetail } from './validation';
import {
  declaredParameters,
  parameterProblem,
  parameterRefusal,
  queryOf,
  queryValues,
} from './query-parameters';

/** A route's body as its schema takes it: 422 when it is missing or invalid. */
export function validRouteBody(route: Pick<ModuleRoute, 'body'>, raw: unknown): unknown {
  if (!route.body) return undefined;
  if (raw === undefined) throw validationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  return validated(route.body, raw, 'body');
}

/** How the kit runs a write that an approval policy may hold back: its answer (202), or none to run it. */
type HoldBack<Services> = (
  write: {
    route: ModuleRoute<unknown, unknown, Services>;
    path: string;
    params: Record<string, string>;
  } & Pick<RouteInput<unknown, unknown>, 'caller' | 'requestId' | 'header'> & { body: unknown },
  run: (checking: Partial<Services>, header: RouteInput<unknown, unknown>['header']) => Promise<RouteAnswer>,
) => Promise<RouteAnswer | undefined>;

/** What serving an API's routes takes beyond their declarations. */
export interface RouteServing<Services> {
  services: Services;
  /** The API's access check (routes with the default `auth`). */
  authorize: Authorize;
  observer: RequestObserver;
  settings: ModuleSettings;
  /** A module's approval policies; none: every write runs as it comes. */
  holdBack?: HoldBack<Services>;
}

/** Sends a handler's answer with the request's id, and the route's own Cache-Control where it has one. */
function sendAnswer(
  res: ServerResponse,
  route: Pick<ModuleRoute, 'cacheControl'>,
  answer: Exclude<RouteAnswer, 'streamed'>,
  requestId: string,
): void {
  const headers = {
    ...answer.headers,
    ...(route.cacheControl && { 'Cache-Control': route.cacheControl }),
    'X-Request-Id': requestId,
  };
  if (answer.status === 204) return void res.writeHead(204, headers).end();
  if ('text' in answer) sendText(res, answer.status, answer.mediaType, answer.text, headers);
  else sendJson(res, answer.status, Buffer.from(JSON.stringify(answer.body)), headers);
}

/**
 * An API's routes on `node:http` (a module's computed views, streams and sessions; the audit API):
 * access check unless the route is public, then query and body validated by the route's schemas,
 * then its handler.
 */
export function createRouteRouter<Services extends WriteServices>(
  api: RouteApi<Services>,
  { services, authorize, observer, settings, holdBack }: RouteServing<Services>,
): Router {
  const routes = (api.routes ?? []).map((route) => ({
    route,
    match: pathMatcher(route.path),
    template: openApiPath(route.path),
    parameters: declaredParameters(route.query),
  }));
  const bearer = modulePrincipalCheck(settings);
  const throttle = settings.authThrottle ?? UNTHROTTLED;

  return (req, res) => {
    const method = req.method === 'HEAD' ? 'get' : req.method?.toLowerCase();
    const url = req.url ?? '/';
    const path = url.split('?', 1)[0] as string;
    let found: (Omit<(typeof routes)[number], 'match'> & { params: Record<string, string> }) | undefined;
    for (const { route, match, template, parameters } of routes) {
      if (route.method !== method) continue;
      const params = match(path);
      if (params) {
        found = { route, params, template, parameters };
        break;
      }
    }
    if (!found) return false;
    const { route, params, template, parameters } = found;
    const search = queryOf(url);

    const started = performance.now();
    const requestId = requestIdOf(req);
    (async () => {
      // A parameter the route does not take is refused before anything else is looked at.
      const problem = search && parameterProblem(search, parameters);
      if (problem) {
        return parameterRefusal(problem, parameters, route.method === 'get' ? api.readErrors : 'envelope');
      }
      const need: AccessNeed = {
        kind: route.method === 'get' ? 'read' : 'write',
        role: routeRole(api, route),
      };
      if (route.auth === 'public' && settings.publicReads) {
        enforceRateLimit(settings.publicReads, req.socket.remoteAddress ?? '');
      }
      const caller: Caller =
        route.auth === 'public'
          ? { actor: 'anonymous' }
          : route.auth === 'bearer'
            ? callerOf(await throttle.guard(req, () => bearer(req.headers.authorization, need.role)))
            : await authorize(req, need);
      // Bad read parameters (query, X-Min-Position) keep the API's read-error shape.
      const invalid = (details: ValidationDetail[]): RouteAnswer => {
        if (api.readErrors === 'detail') return { status: 422, body: { detail: firstDetails(details) } };
        throw validationError(details);
      };
      const minPosition = route.method === 'get' && api.readsWait !== false ? minPositionOf(req) : undefined;
      if (typeof minPosition === 'object') return invalid([minPosition]);
      if (minPosition !== undefined) await awaitPosition(services.runtime, minPosition);
      let query: unknown = undefined;
      if (route.query) {
        const parsed = route.query.safeParse(queryValues(search, parameters), { reportInput: true });
        if (!parsed.success) return invalid(zodDetails(parsed.error, 'query'));
        query = parsed.data;
      }
      let raw: unknown = undefined;
      let body: unknown = undefined;
      if (route.body) {
        raw = await readJsonBody(req, route.bodyLimit ?? JSON_BODY_LIMIT_BYTES);
        body = validRouteBody(route, raw);
      }
      const header = headerOf(req);
      const run = (runWith: Services, runHeader: RouteInput<unknown, unknown>['header']) => {
        const commands = requestCommandContext(runWith, { caller, requestId, header: runHeader });
        const input = { query, params, body, caller, requestId, header: runHeader, commands, settings };
        return route.handle(runWith === services ? { ...input, req, res } : input, runWith);
      };
      if (holdBack && route.method !== 'get' && route.proposable !== false) {
        const held = await holdBack(
          { route, path, params, body: raw, caller, requestId, header },
          (checking, checkHeader) => run({ ...services, ...checking }, checkHeader),
        );
        if (held) return held;
      }
      return run(services, header);
    })()
      .then((answer) => {
        if (answer !== 'streamed') sendAnswer(res, route, answer, requestId);
        observer.completed(req, requestId, template, res.statusCode, started);
      })
      .catch((error: unknown) =>
        answerFailure({ req, res, observer, requestId, route: template, started }, error),
      );
    return true;
  };
}

/** A module's own routes, with its approval policies over their writes. */
export function createModuleRouteRouter(
  module: ModuleDefinition,
  services: ModuleServices,
  authorize: Authorize,
  observer: RequestObserver,
  settings: ModuleSettings,
): Router {
  return createRouteRouter(module, {
    services,
    authorize,
    observer,
    settings,
    holdBack: ({ route, ...write }, run) =>
      holdBackIfRequired(services, { ...write, module, route: routeName(route) }, proposalTtl(settings), run),
  });
}

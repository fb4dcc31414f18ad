import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import { ApiError } from './errors';
import { sendError, sendJson, sendText, type RequestObserver } from './http';
import { LICENSE_PATH, LICENSE_TERMS } from './license';
import { loggedUrl, requestIdOf } from './logging';
import { openApiPath, type Descriptions } from './openapi';
import { helmetOptions } from './security-headers';
import { NO_PARAMETERS, parameterError, urlParameterProblem } from './query-parameters';

/**
 * The documentation pages' policy over the port's JSON one (Swagger UI loads its own scripts and
 * styles). HSTS, where it applies, is already sent by the port's guard on every answer.
 */
const docsPageHeaders = helmet(helmetOptions('docs', { secure: false }));

type Method = 'get' | 'post' | 'patch';

/** The paths every port's table serves besides its API, as its index (`GET /api/`) links them. */
export const API_LINKS = {
  health: '/api/v1/health',
  openapi: '/api/openapi.json',
  swagger: '/swagger.json',
  docs: '/api/docs',
  license: LICENSE_PATH,
} as const;

export interface RouteTable {
  app: Express;
  /** A route that takes no query parameter (400 naming one sent). */
  route(method: Method, path: string, ...handlers: RequestHandler[]): void;
  /** Declares a path served elsewhere (the read router), so that other methods on it answer 405. */
  reserve(path: string, methods: readonly string[]): void;
  /** Adds 405 for known paths, 404 for the rest and the error envelope; returns the finished app. */
  finish(): Express;
}

/** Refuses any query parameter (400): the index, health, descriptions and licence take none. */
export const takesNoQuery: RequestHandler = (req, _res, next) => {
  const problem = urlParameterProblem(req.url, NO_PARAMETERS);
  next(problem && parameterError(problem, NO_PARAMETERS));
};

/** Answers an express route's error with the envelope; unexpected errors are logged as 500s. */
function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return void res.end();
    const apiError = sendError(res, error);
    if (apiError.code === 'internal_error') {
      logger.error(
        { err: error, req: { id: res.locals.requestId, method: req.method, url: loggedUrl(req.url) } },
        'request failed',
      );
    }
  };
}

/**
 * Gives every express request its id (`res.locals.requestId`, header `X-Request-Id`) and records it
 * once answered, under the template of the route that answered it.
 */
function requestObservation(observer: RequestObserver): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const id = requestIdOf(req);
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    res.once('finish', () => {
      const declared = (req.route as { path?: unknown } | undefined)?.path;
      const route =
        typeof declared === 'string' ? openApiPath(declared) : (res.locals.route as string | undefined);
      observer.completed(req, id, route, res.statusCode, started);
    });
    next();
  };
}

/**
 * An express app with request ids and logging, the API index, health, the three description
 * endpoints (`/api/openapi.json`, `/swagger.json`, `/api/docs` with Swagger UI from the installed
 * package) and the licence terms they name (`/api/license`), and a record of its routes for the 405
 * answers.
 */
export function createRouteTable(
  observer: RequestObserver,
  basics: { index: object; health: () => object; descriptions: () => Descriptions },
): RouteTable {
  const { logger } = observer;
  const app = express();
  app.disable('x-powered-by');
  app.use(requestObservation(observer));
  const methodsByPath = new Map<string, Set<string>>();
  const reserve = (path: string, methods: readonly string[]) => {
    const known = methodsByPath.get(path) ?? new Set<string>();
    for (const method of methods) known.add(method);
    methodsByPath.set(path, known);
  };
  const route = (method: Method, path: string, ...handlers: RequestHandler[]) => {
    app[method](path, takesNoQuery, ...handlers);
    reserve(path, method === 'get' ? ['GET', 'HEAD'] : [method.toUpperCase()]);
  };

  const { index, health } = basics;
  // The descriptions cost seconds of a start to generate: they are made when first asked for.
  let descriptions: Descriptions | undefined;
  const described = () => (descriptions ??= basics.descriptions());
  // What does not change while the port serves is encoded once, as the reads' bodies are.
  const fixed = (body: () => object): RequestHandler => {
    let encoded: Buffer | undefined;
    return (_req, res) => sendJson(res, 200, (encoded ??= Buffer.from(JSON.stringify(body()))));
  };
  route(
    'get',
    '/api/',
    fixed(() => index),
  );
  route('get', API_LINKS.health, (_req, res) => sendJson(res, 200, Buffer.from(JSON.stringify(health()))));
  route(
    'get',
    API_LINKS.openapi,
    fixed(() => described().runtime),
  );
  route(
    'get',
    API_LINKS.swagger,
    fixed(() => described().compatibility),
  );
  route('get', API_LINKS.license, (_req, res) =>
    sendText(res, 200, 'text/plain; charset=utf-8', LICENSE_TERMS),
  );
  const docsRoute: RequestHandler = (_req, res, next) => {
    res.locals.route = API_LINKS.docs;
    next();
  };
  let docsPage: express.Router | undefined;
  const servedDocsPage: RequestHandler = (req, res, next) => {
    if (!docsPage) {
      const { runtime } = described();
      docsPage = express.Router().use(swaggerUi.serveFiles(runtime), swaggerUi.setup(runtime));
    }
    docsPage(req, res, next);
  };
  app.use(API_LINKS.docs, docsRoute, docsPageHeaders, servedDocsPage);

  return {
    app,
    route,
    reserve,
    finish() {
      for (const [path, methods] of methodsByPath) {
        const allow = [...methods].join(', ');
        app.all(path, (req, res) => {
          res.set('Allow', allow);
          if (req.method === 'OPTIONS') return void res.status(204).end();
          throw new ApiError('method_not_allowed', `${req.method} is not allowed here; use ${allow}`);
        });
      }
      app.use((req) => {
        throw new ApiError('route_not_found', `No route for ${req.method} ${req.path}`);
      });
      app.use(errorHandler(logger));
      return app;
    },
  };
}

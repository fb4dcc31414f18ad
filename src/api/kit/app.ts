import type { RequestListener } from 'node:http';
import express, { type RequestHandler } from 'express';
import type { Logger } from 'pino';
import swaggerUi from 'swagger-ui-express';
import type { ReadStore } from '../../projections/read-store';
import { requireBearer } from './auth';
import { ApiError, errorHandler } from './errors';
import { requestLogging } from './logging';
import type { ModuleDefinition } from './module';
import { describeModule } from './openapi';
import { createReadRouter } from './read-router';
import { writeHandler, type WriteServices } from './writes';

export interface ModuleServices extends WriteServices {
  readStore: ReadStore;
  logger: Logger;
}

export interface ModuleAppOptions {
  apiToken: string | undefined;
}

/** Largest accepted JSON body (express's default); larger ones are answered 413. */
export const JSON_BODY_LIMIT_BYTES = 100 * 1024;

type Method = 'get' | 'post' | 'patch';

function apiIndex(module: ModuleDefinition) {
  return {
    module: module.id,
    product: module.title,
    description: module.description,
    version: module.version,
    links: {
      health: '/api/v1/health',
      openapi: '/api/openapi.json',
      swagger: '/swagger.json',
      docs: '/api/docs',
    },
    resources: module.resources.map((resource) => ({
      name: resource.path,
      description: resource.description,
      list: `/api/v1/${resource.path}`,
      item: `/api/v1/${resource.path}/{${module.itemParam}}`,
      search_fields: resource.collection.searchFields,
      filters: Object.keys(resource.filters ?? {}),
    })),
    writes: module.writes.map((route) => ({
      method: route.method.toUpperCase(),
      path: route.path.replace(/:(\w+)/g, '{$1}'),
      summary: route.summary,
      auth: 'bearer',
    })),
  };
}

/**
 * Turns a module declaration into its HTTP handler: the public reads on the kit's read router, the
 * rest (health, descriptions, writes and every error route) on express.
 */
export function createModuleApp(
  module: ModuleDefinition,
  services: ModuleServices,
  options: ModuleAppOptions,
): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLogging(services.logger));

  const methodsByPath = new Map<string, Set<string>>();
  const route = (method: Method, path: string, ...handlers: RequestHandler[]) => {
    app[method](path, ...handlers);
    const methods = methodsByPath.get(path) ?? new Set<string>();
    methods.add(method.toUpperCase());
    if (method === 'get') methods.add('HEAD');
    methodsByPath.set(path, methods);
  };

  const index = apiIndex(module);
  const descriptions = describeModule(module);
  const health = () => ({
    status: 'ok',
    product: module.title,
    version: module.version,
    writes_enabled: options.apiToken !== undefined,
  });
  route('get', '/api/', (_req, res) => void res.json(index));
  route('get', '/api/v1/health', (_req, res) => void res.json(health()));
  route('get', '/api/openapi.json', (_req, res) => void res.json(descriptions.runtime));
  route('get', '/swagger.json', (_req, res) => void res.json(descriptions.compatibility));
  app.use('/api/docs', swaggerUi.serveFiles(descriptions.runtime), swaggerUi.setup(descriptions.runtime));

  for (const resource of module.resources) {
    // Served by the read router; registered here so that other methods answer 405.
    for (const path of [`/api/v1/${resource.path}`, `/api/v1/${resource.path}/:${module.itemParam}`]) {
      methodsByPath.set(path, new Set(['GET', 'HEAD']));
    }
  }
  const parseJson = express.json({
    limit: JSON_BODY_LIMIT_BYTES,
    type: ['application/json', 'application/*+json'],
  });
  for (const write of module.writes) {
    route(
      write.method,
      write.path,
      requireBearer(options.apiToken),
      parseJson,
      writeHandler(module, write, services),
    );
  }

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
  app.use(errorHandler(services.logger));

  const reads = createReadRouter(module, services.readStore, services.logger);
  return (req, res) => {
    if (!reads(req, res)) app(req, res);
  };
}

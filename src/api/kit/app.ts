import type { RequestListener } from 'node:http';
import { callerCheck, servedModule } from './access';
import type { ModuleDefinition, ModuleSettings, RouteServices } from './module';
import { answerFailure } from './http';
import { requestIdOf } from './logging';
import { createModuleRouteRouter } from './module-routes';
import { principalRoute } from './principal-route';
import { proposalRoutes } from './proposal-routes';
import { describeModule, openApiPath } from './openapi';
import { createReadRouter } from './read-router';
import { createRouteTable } from './routes';
import { createWriteRouter, type WriteServices } from './writes';

export type ModuleServices = WriteServices & RouteServices;

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
    routes: (module.routes ?? []).map((route) => ({
      method: route.method.toUpperCase(),
      path: openApiPath(route.path),
      summary: route.summary,
    })),
    writes: module.writes.map((route) => ({
      method: route.method.toUpperCase(),
      path: openApiPath(route.path),
      summary: route.summary,
      auth: module.access ? Object.keys(module.access.securitySchemes).join(' + ') : 'bearer',
    })),
  };
}

/**
 * Turns a module declaration into its HTTP handler. Reads and writes, the hot paths, are served by the
 * kit's routers straight from `node:http` (express's per-request machinery costs several times a read);
 * the index, health, descriptions and every error route (404, 405) are served by express.
 */
export function createModuleApp(
  declared: ModuleDefinition,
  services: ModuleServices,
  options: ModuleSettings,
): RequestListener {
  const served = servedModule(declared, options);
  const module = { ...served, routes: [...(served.routes ?? []), ...proposalRoutes(served), principalRoute] };
  const table = createRouteTable(services.logger, {
    index: apiIndex(module),
    health: () => ({
      status: 'ok',
      product: module.title,
      version: module.version,
      writes_enabled: options.apiToken !== undefined,
      projections: services.runtime.status(),
    }),
    descriptions: describeModule(module),
  });
  for (const resource of module.resources) {
    table.reserve(`/api/v1/${resource.path}`, ['GET', 'HEAD']);
    table.reserve(`/api/v1/${resource.path}/:${module.itemParam}`, ['GET', 'HEAD']);
  }
  for (const write of module.writes) table.reserve(write.path, [write.method.toUpperCase()]);
  for (const route of module.routes ?? []) {
    table.reserve(route.path, route.method === 'get' ? ['GET', 'HEAD'] : [route.method.toUpperCase()]);
  }
  const app = table.finish();

  const authorize = callerCheck(module, options, services);
  const routers = [
    createReadRouter(module, services, authorize, services.logger),
    createWriteRouter(module, services, authorize, services.logger, options),
    createModuleRouteRouter(module, services, authorize, services.logger, options),
  ];
  return (req, res) => {
    try {
      if (!routers.some((route) => route(req, res))) app(req, res);
    } catch (error) {
      const failed = {
        req,
        res,
        logger: services.logger,
        requestId: requestIdOf(req),
        started: performance.now(),
      };
      answerFailure(failed, error);
    }
  };
}

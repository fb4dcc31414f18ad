import type { RequestListener } from 'node:http';
import { callerCheck, servedModule } from './access';
import { changeRoutes } from './change-routes';
import type { ModuleDefinition, ModuleSettings } from './module';
import type { ModuleServices } from '../../modules/module';
import { answerFailure, type RequestObserver, type Router } from './http';
import { requestIdOf } from './logging';
import { requestObserver, served, type ServingServices } from './observation';
import { createModuleRouteRouter } from './module-routes';
import { principalRoute } from './principal-route';
import { activityRoutes } from './activity';
import { proposalRoutes } from './proposal-routes';
import { changeWebhook, webhookRoutes } from './webhook-routes';
import { describeModule, openApiPath } from './openapi';
import { createReadRouter } from './read-router';
import { API_LINKS, createRouteTable } from './routes';
import { createWriteRouter } from './write-router';
import type { WriteServices } from './writes';

/** What a module's app is served with: its writes', its routes' and its port's services. */
export type AppServices = WriteServices & ModuleServices & ServingServices;

function apiIndex(module: ModuleDefinition) {
  return {
    module: module.id,
    product: module.title,
    description: module.description,
    version: module.version,
    links: API_LINKS,
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
      auth: module.access ? Object.keys(module.access.securitySchemes).join(' or ') : 'bearer',
    })),
  };
}

/**
 * The module as a process serves it: as the settings serve it (see `servedModule`), with its change
 * feed, the routes of its proposals, its webhooks and `GET /api/v1/me`. Its description
 * (`describeModule`) is what `/api/openapi.json` answers, and what `npm run docs` renders into `docs/api/`.
 */
export function moduleAsServed(declared: ModuleDefinition, settings: ModuleSettings): ModuleDefinition {
  const served = servedModule(declared, settings);
  const routes = [
    ...(served.routes ?? []),
    ...changeRoutes(served),
    ...proposalRoutes(served),
    ...activityRoutes(served),
    ...webhookRoutes(served),
    principalRoute,
  ];
  return { ...served, routes, webhooks: [changeWebhook(served)] };
}

/**
 * Turns a module declaration into its HTTP handler. Reads and writes, the hot paths, are served by the
 * kit's routers straight from `node:http` (express's per-request machinery costs several times a read);
 * the index, health, descriptions and every error route (404, 405) are served by express.
 */
export function createModuleApp(
  declared: ModuleDefinition,
  services: AppServices,
  options: ModuleSettings,
): RequestListener {
  const module = moduleAsServed(declared, options);
  const observer = requestObserver(services.logger, module.id, services.metrics);
  const table = createRouteTable(observer, {
    index: apiIndex(module),
    health: () => ({
      status: 'ok',
      product: module.title,
      version: module.version,
      writes_enabled: options.apiToken !== undefined,
      projections: services.runtime.status(),
    }),
    descriptions: () => describeModule(module),
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
    createReadRouter(module, services, authorize, observer),
    createWriteRouter(module, services, authorize, observer, options),
    createModuleRouteRouter(module, services, authorize, observer, options),
  ];
  return served(dispatching(routers, app, observer), { readiness: services.readiness, observer });
}

/**
 * Each request to the first of the kit's routers that takes it, the others to express (index,
 * health, descriptions, 404, 405); whatever a router throws is answered with the error envelope.
 */
export function dispatching(
  routers: readonly Router[],
  app: RequestListener,
  observer: RequestObserver,
): RequestListener {
  return (req, res) => {
    try {
      if (!routers.some((route) => route(req, res))) app(req, res);
    } catch (error) {
      answerFailure({ req, res, observer, requestId: requestIdOf(req), started: performance.now() }, error);
    }
  };
}

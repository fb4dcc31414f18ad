import type { RequestListener } from 'node:http';
import express from 'express';
import type { Logger } from 'pino';
import type { ReadStore } from '../../projections/read-store';
import { requireBearer } from './auth';
import type { ModuleDefinition } from './module';
import { describeModule } from './openapi';
import { createReadRouter } from './read-router';
import { createRouteTable } from './routes';
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
 * rest (index, health, descriptions, writes and every error route) on express.
 */
export function createModuleApp(
  module: ModuleDefinition,
  services: ModuleServices,
  options: ModuleAppOptions,
): RequestListener {
  const table = createRouteTable(services.logger, {
    index: apiIndex(module),
    health: () => ({
      status: 'ok',
      product: module.title,
      version: module.version,
      writes_enabled: options.apiToken !== undefined,
    }),
    descriptions: describeModule(module),
  });
  for (const resource of module.resources) {
    table.reserve(`/api/v1/${resource.path}`, ['GET', 'HEAD']);
    table.reserve(`/api/v1/${resource.path}/:${module.itemParam}`, ['GET', 'HEAD']);
  }
  const parseJson = express.json({
    limit: JSON_BODY_LIMIT_BYTES,
    type: ['application/json', 'application/*+json'],
  });
  for (const write of module.writes) {
    table.route(
      write.method,
      write.path,
      requireBearer(options.apiToken),
      parseJson,
      writeHandler(module, write, services),
    );
  }
  const app = table.finish();

  const reads = createReadRouter(module, services.readStore, services.logger);
  return (req, res) => {
    if (!reads(req, res)) app(req, res);
  };
}

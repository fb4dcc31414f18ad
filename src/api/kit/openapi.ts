import {
  OpenAPIRegistry,
  OpenApiGeneratorV3,
  OpenApiGeneratorV31,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { CollectionDefinition } from '../../projections/read-store';
import { ERROR_STATUS, type ErrorCode } from './errors';
import { BEARER_AUTH, BEARER_ERRORS } from './bearer-scheme';
import { ProposalSchema } from './proposal-schema';
import {
  routeRole,
  writeRole,
  type AccessNeed,
  type ModuleAccess,
  type ModuleDefinition,
  type ModuleRoute,
  type ResourceDefinition,
  type WriteRoute,
} from './module';

export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });

export const ValidationErrorSchema = z
  .object({
    detail: z
      .array(
        z.object({
          loc: z.array(z.union([z.string(), z.number().int()])),
          msg: z.string(),
          type: z.string(),
          input: z.unknown().optional(),
          ctx: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'ValidationError' });

export const HealthSchema = z
  .object({
    status: z.string(),
    product: z.string(),
    version: z.string(),
    writes_enabled: z.boolean(),
    projections: z.enum(['ok', 'degraded']).meta({
      description:
        '`degraded` while a projection has parked an event it could not apply (see the audit API) or cannot catch up; the other read models stay live',
    }),
  })
  .meta({ id: 'Health' });

export const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const envelope = (description: string) => json(ErrorEnvelopeSchema, description);

function readErrorResponse(module: ModuleDefinition) {
  return module.readErrors === 'detail'
    ? json(ValidationErrorSchema, 'Invalid parameter')
    : envelope('Invalid parameter');
}

function listQuery(module: ModuleDefinition, resource: ResourceDefinition) {
  const { defaultLimit, maxLimit } = module.list;
  const filters = Object.fromEntries(
    Object.entries(resource.filters ?? {}).map(([param, filter]) => [
      param,
      filter.schema.optional().meta({ description: filter.description }),
    ]),
  );
  return z.object({
    limit: z.number().int().min(1).max(maxLimit).default(defaultLimit).optional(),
    offset: z.number().int().min(0).default(0).optional(),
    q: z
      .string()
      .optional()
      .meta({
        description: `Case-insensitive substring search in: ${searchedFields(resource.collection)}`,
      }),
    ...filters,
  });
}

/** `/api/v1/requests/:item_id` -> `/api/v1/requests/{item_id}`. */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

/** `ref, title, form_data (its values)`. */
function searchedFields({ searchFields, jsonSearchFields }: CollectionDefinition): string {
  return searchFields
    .map((field) => (jsonSearchFields?.includes(field) ? `${field} (its values)` : field))
    .join(', ');
}

type Described = Pick<ModuleAccess, 'securitySchemes' | 'headers' | 'errors'>;

/** What a write answers when its route is under an approval policy (`suite policy require-approval`). */
const HELD_BACK = json(
  ProposalSchema,
  'Held back for approval (the route is under an approval policy): the proposal, at `Location`',
);

/**
 * What a data operation adds for the module's access check: security, headers, error answers, and
 * the role a bearer credential needs (`x-required-role`).
 */
function accessOf(module: ModuleDefinition, need: AccessNeed) {
  const access: Described | undefined = module.access ?? (need.kind === 'write' ? BEARER_ACCESS : undefined);
  if (!access) return { security: undefined, headers: {}, responses: {}, extensions: {} };
  const headers = access.headers
    .filter((header) => header.on === 'all' || need.kind === 'write')
    .map((header) => [header.name, z.string().meta({ description: header.description })]);
  const bearer = 'bearerAuth' in access.securitySchemes;
  return {
    security: [Object.fromEntries(Object.keys(access.securitySchemes).map((name) => [name, []]))],
    headers: Object.fromEntries(headers) as Record<string, z.ZodString>,
    responses: Object.fromEntries(
      Object.entries(access.errors).map(([status, description]) => [status, envelope(description)]),
    ),
    extensions: bearer ? { 'x-required-role': need.role } : {},
  };
}

/** How the kit's bearer-credential writes and routes are described: the credential and its role. */
const BEARER_ACCESS: Described = {
  securitySchemes: { bearerAuth: BEARER_AUTH },
  headers: [],
  errors: BEARER_ERRORS,
};

function registerResource(registry: OpenAPIRegistry, module: ModuleDefinition, resource: ResourceDefinition) {
  const access = accessOf(module, { kind: 'read', role: `${module.id}:reader` });
  const headers = Object.keys(access.headers).length > 0 ? { headers: z.object(access.headers) } : {};
  const collection = z
    .object({
      data: z.array(resource.record),
      meta: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
    })
    .meta({ id: `${resource.record.meta()?.id ?? resource.name}Collection` });
  const tags = [resource.path];
  registry.registerPath({
    method: 'get',
    path: `/api/v1/${resource.path}`,
    summary: `List ${resource.description}`,
    tags,
    ...(access.security && { security: access.security }),
    ...access.extensions,
    request: { query: listQuery(module, resource), ...headers },
    responses: {
      200: json(collection, 'A page of records'),
      ...access.responses,
      422: readErrorResponse(module),
    },
  });
  const idSchema = resource.collection.idKind === 'integer' ? z.number().int() : z.string();
  registry.registerPath({
    method: 'get',
    path: `/api/v1/${resource.path}/{${module.itemParam}}`,
    summary: `Get one ${resource.name.toLowerCase()}`,
    tags,
    ...(access.security && { security: access.security }),
    ...access.extensions,
    request: { params: z.object({ [module.itemParam]: idSchema }), ...headers },
    responses: {
      200: json(resource.record, resource.name),
      ...access.responses,
      404: envelope('No such record'),
      422: readErrorResponse(module),
    },
  });
}

const pathParameters = (path: string) =>
  z.object(
    Object.fromEntries([...path.matchAll(/:(\w+)/g)].map((match) => [match[1] as string, z.string()])),
  );

function registerWrite(registry: OpenAPIRegistry, module: ModuleDefinition, route: WriteRoute) {
  const params = [...route.path.matchAll(/:(\w+)/g)];
  const access = accessOf(module, { kind: 'write', role: writeRole(module, route) });
  const config: RouteConfig = {
    method: route.method,
    path: openApiPath(route.path),
    summary: route.summary,
    tags: [route.resource.path],
    ...(access.security && { security: access.security }),
    ...access.extensions,
    request: {
      headers: z.object({
        ...access.headers,
        'Idempotency-Key': z
          .string()
          .optional()
          .meta({ description: 'Repeating a request with the same key returns the first result' }),
      }),
      body: { required: true, content: { 'application/json': { schema: route.body } } },
      ...(params.length > 0 && { params: pathParameters(route.path) }),
    },
    responses: {
      [route.status]: json(route.resource.record, route.resource.name),
      202: HELD_BACK,
      400: envelope('Malformed JSON'),
      ...access.responses,
      ...(params.length > 0 && { 404: envelope('No such record') }),
      409: envelope('The move is not allowed from the current state'),
      413: envelope('Body too large'),
      415: envelope('Body is not JSON'),
      422: envelope('Invalid payload'),
    },
  };
  registry.registerPath(config);
}

function registerRoute(registry: OpenAPIRegistry, module: ModuleDefinition, route: ModuleRoute) {
  const need: AccessNeed = {
    kind: route.method === 'get' ? 'read' : 'write',
    role: routeRole(module, route),
  };
  const access =
    route.auth === 'public'
      ? accessOf({ ...module, access: undefined }, { ...need, kind: 'read' })
      : route.auth === 'bearer'
        ? accessOf({ ...module, access: undefined }, { ...need, kind: 'write' })
        : accessOf(module, need);
  const hasParams = /:\w+/.test(route.path);
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, response]) => [
      status,
      response.schema
        ? json(response.schema, response.description)
        : {
            description: response.description,
            ...(response.mediaType && { content: { [response.mediaType]: { schema: z.string() } } }),
          },
    ]),
  );
  registry.registerPath({
    method: route.method,
    path: openApiPath(route.path),
    summary: route.summary,
    ...(route.tags && { tags: [...route.tags] }),
    ...(access.security && { security: access.security }),
    ...access.extensions,
    request: {
      ...(route.query && { query: route.query as z.ZodObject }),
      ...((route.params ?? hasParams) && { params: route.params ?? pathParameters(route.path) }),
      ...(Object.keys(access.headers).length > 0 && { headers: z.object(access.headers) }),
      ...(route.body && {
        body: { required: true, content: { 'application/json': { schema: route.body } } },
      }),
    },
    responses: {
      ...access.responses,
      ...(route.method !== 'get' && route.proposable !== false && { 202: HELD_BACK }),
      ...responses,
    },
  });
}

/** Registers the index and health endpoints every API serves. */
export function registerBasics(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/',
    summary: 'API index',
    responses: { 200: json(z.record(z.string(), z.unknown()), 'Links to every resource and description') },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/health',
    summary: 'Health',
    responses: { 200: json(HealthSchema, 'Health') },
  });
  registry.registerPath({
    method: 'get',
    path: '/livez',
    summary: 'Liveness: the process serves (public, on every port)',
    security: [],
    responses: { 200: json(z.object({ status: z.literal('alive') }), 'Alive') },
  });
  const readiness = z.object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.record(z.string(), z.looseObject({ status: z.enum(['ok', 'failing', 'lagging']) })),
  });
  registry.registerPath({
    method: 'get',
    path: '/readyz',
    summary:
      'Readiness: the stores answer and the read models are within SUITE_READY_MAX_LAG events of the log (public, on every port)',
    security: [],
    responses: {
      200: json(readiness, 'Ready'),
      503: json(readiness, 'Not ready: the checks say why'),
    },
  });
}

export interface Descriptions {
  /** OpenAPI 3.1, served at `/api/openapi.json`. */
  runtime: object;
  /** OpenAPI 3.0.3 of the same interface, served at `/swagger.json` for tools that predate 3.1. */
  compatibility: object;
}

export function generateDescriptions(
  registry: OpenAPIRegistry,
  info: { title: string; version: string; description: string },
): Descriptions {
  const { definitions } = registry;
  return {
    runtime: new OpenApiGeneratorV31(definitions).generateDocument({ openapi: '3.1.0', info }),
    compatibility: new OpenApiGeneratorV3(definitions).generateDocument({ openapi: '3.0.3', info }),
  };
}

export function describeModule(module: ModuleDefinition): Descriptions {
  const registry = new OpenAPIRegistry();
  const bearer = { bearerAuth: BEARER_AUTH };
  const usesBearer = !module.access || module.routes?.some((route) => route.auth === 'bearer');
  const schemes = { ...module.access?.securitySchemes, ...(usesBearer && bearer) };
  for (const [name, scheme] of Object.entries(schemes)) {
    registry.registerComponent('securitySchemes', name, scheme);
  }
  registerBasics(registry);
  for (const resource of module.resources) registerResource(registry, module, resource);
  for (const route of module.writes) registerWrite(registry, module, route);
  for (const route of module.routes ?? []) registerRoute(registry, module, route);
  return generateDescriptions(registry, {
    title: `${module.title} API`,
    version: module.version,
    description: module.description,
  });
}

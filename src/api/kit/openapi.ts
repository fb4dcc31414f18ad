import {
  OpenAPIRegistry,
  OpenApiGeneratorV3,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors';
import { BEARER_AUTH, BEARER_ERRORS } from './bearer-scheme';
import { READ_CACHE_CONTROL } from './conditional';
import { MIN_POSITION_WAIT_MS } from './consistency';
import { DESCRIBED_LICENSE } from './license';
import { describeNulls } from './openapi-nulls';
import { ProposalSchema } from './proposal-schema';
import { asOfAnswer } from './time-travel';
import { PageMeta } from './list-order';
import { withRecordTimes } from './record-times';
import { ItemQuery, listQuery } from './read-parameters';
import {
  routeRole,
  writeRole,
  type AccessDescription,
  type AccessNeed,
  type ModuleDefinition,
  type ModuleRoute,
  type ResourceDefinition,
  type RouteApi,
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

/** A server-sent event stream: `event: <name>` and `data: <JSON>` lines, per the description. */
export const eventStream = (description: string) => ({
  description,
  content: { 'text/event-stream': { schema: z.string().meta({ description: 'Server-sent events' }) } },
});

/**
 * The operationId of an operation of one of the suite's APIs (a module's id, or `audit`) and its
 * verb and resource: `esm_listRequests`, `hrm_updateLeave`. Unique across the suite; stable, so that
 * generated clients keep their method names.
 */
export const operationId = (api: string, operation: string): string => `${api}_${operation}`;

/** `career-sites` -> `CareerSites`, `Knowledge article` -> `KnowledgeArticle`. */
export const pascalCase = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => `${word[0]?.toUpperCase()}${word.slice(1)}`)
    .join('');

type ReadingApi = Pick<RouteApi<never>, 'readErrors' | 'readsWait'>;

function readErrorResponse(api: ReadingApi) {
  const invalid = `Invalid parameter (${api.readsWait === false ? 'query or path' : 'query, path or X-Min-Position'})`;
  return api.readErrors === 'detail' ? json(ValidationErrorSchema, invalid) : envelope(invalid);
}

const NOT_CAUGHT_UP = `\`not_caught_up\`: the read models had not passed X-Min-Position within ${MIN_POSITION_WAIT_MS / 1000} s (see Retry-After)`;

/** What every read of a module takes and may answer beyond its access check: the consistency header. */
function readConsistency(api: ReadingApi, accessResponses: Record<string, { description: string }>) {
  const unavailable = accessResponses[503]?.description;
  return {
    header: {
      'X-Min-Position': z.int().min(0).optional().meta({
        description:
          'Answer only once the read models show the log up to this position (the X-Event-Position of a write)',
      }),
    },
    responses: {
      422: readErrorResponse(api),
      503: envelope(unavailable ? `${unavailable}; or ${NOT_CAUGHT_UP}` : NOT_CAUGHT_UP),
    },
  };
}

/** The headers of a read's answer that carries an entity tag (`sendJson`), a 200 or a 304. */
const TAGGED = z.object({
  ETag: z.string().meta({
    description: 'A strong tag of the answer: a hash of its exact bytes, which changes when they do',
  }),
  'Cache-Control': z.literal(READ_CACHE_CONTROL).meta({
    description: 'Kept by the caller only, and asked for again (with If-None-Match) before each use',
  }),
});

/** What every read answered with an entity tag takes and answers: a conditional request, and 304. */
const CONDITIONAL_READ = {
  header: {
    'If-None-Match': z.string().optional().meta({
      description:
        'ETags of answers already held (a list, weak tags compared as strong ones), or `*`: answered 304 without a body while the answer would be the same',
    }),
  },
  answers: (ok: ResponseConfig) => ({
    200: { ...ok, headers: TAGGED },
    304: { description: 'Not modified: the answer If-None-Match names is still the answer', headers: TAGGED },
  }),
};

/** `/api/v1/requests/:item_id` -> `/api/v1/requests/{item_id}`. */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

/** What a write answers when its route is under an approval policy (`suite policy require-approval`). */
const HELD_BACK = json(
  ProposalSchema,
  'Held back for approval (the route is under an approval policy): the proposal, at `Location`',
);

export const TOO_MANY_FAILURES = envelope(
  'Too many failed authentications from this address (`rate_limited`; see Retry-After)',
);
const TOO_MANY_WRITES = envelope(
  'Too many failed authentications from this address, or too many writes of this caller (`rate_limited`; see Retry-After)',
);

/**
 * What a data operation adds for the API's access check: security, headers, error answers, and
 * the role a bearer credential needs (`x-required-role`).
 */
function accessOf(api: Pick<RouteApi<never>, 'access'>, need: AccessNeed) {
  const access = api.access ?? (need.kind === 'write' ? BEARER_ACCESS : undefined);
  if (!access) return { security: [], headers: {}, responses: {}, extensions: {} };
  const headers = access.headers
    .filter((header) => header.on === 'all' || need.kind === 'write')
    .map((header) => [header.name, z.string().meta({ description: header.description })]);
  const bearer = Object.values(access.securitySchemes).some(
    (scheme) => scheme.type === 'http' && scheme.scheme === 'bearer',
  );
  // A bearer credential of any role will do: no 403 for want of one.
  const errors = Object.entries(access.errors).filter(
    ([status]) => !(bearer && need.role === undefined && status === '403'),
  );
  return {
    // Alternatives: any one of the schemes will do.
    security: Object.keys(access.securitySchemes).map((name) => ({ [name]: [] })),
    headers: Object.fromEntries(headers) as Record<string, z.ZodString>,
    responses: {
      ...Object.fromEntries(errors.map(([status, description]) => [status, envelope(description)])),
      429: need.kind === 'write' ? TOO_MANY_WRITES : TOO_MANY_FAILURES,
    } as Record<string, ReturnType<typeof envelope>>,
    extensions: bearer ? { 'x-required-role': need.role } : {},
  };
}

/** How the kit's bearer-credential writes and routes are described: the credential and its role. */
const BEARER_ACCESS: AccessDescription = {
  securitySchemes: { bearerAuth: BEARER_AUTH },
  headers: [],
  errors: BEARER_ERRORS,
};

/** How a record's id is typed, in every path that names it. */
const idSchema = (resource: ResourceDefinition) =>
  resource.collection.idKind === 'integer' ? z.number().int() : z.string();

/**
 * The path parameters of an express path: a resource's item parameter typed as its ids are (on reads
 * and writes alike), the others as the route declares them, else strings.
 */
function pathParameters(
  api: Pick<RouteApi<never>, 'resources' | 'itemParam'>,
  path: string,
  declared?: z.ZodObject,
): z.ZodObject | undefined {
  const names = [...path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  if (names.length === 0) return undefined;
  const resource = api.resources?.find((candidate) =>
    path.startsWith(`/api/v1/${candidate.path}/:${api.itemParam}`),
  );
  const typed = (name: string) =>
    (declared?.shape[name] as z.ZodType | undefined) ??
    (resource && name === api.itemParam ? idSchema(resource) : z.string());
  return z.object(Object.fromEntries(names.map((name) => [name, typed(name)])));
}

/** `x: z.ZodType` request headers as the registry takes them; none: no entry. */
const headersOf = (headers: Record<string, z.ZodType>) =>
  Object.keys(headers).length > 0 ? { headers: z.object(headers) } : {};

/** An answer a route declares: an error without a schema is the error envelope (or a read's parameter error). */
function routeResponse(
  api: ReadingApi,
  route: Pick<ModuleRoute, 'method'>,
  status: number,
  response: RouteResponse,
) {
  if (response.mediaType) {
    return {
      description: response.description,
      content: { [response.mediaType]: { schema: response.schema ?? z.string() } },
    };
  }
  if (response.schema && response.stream) {
    const events = z.string().meta({ description: response.stream });
    return {
      description: response.description,
      content: { 'application/json': { schema: response.schema }, 'text/event-stream': { schema: events } },
    };
  }
  if (response.schema) return json(response.schema, response.description);
  if (status === 422 && route.method === 'get') return readErrorResponse(api);
  return status >= 400 ? envelope(response.description) : { description: response.description };
}

type RouteResponse = ModuleRoute['responses'][number];

const recordId = (resource: ResourceDefinition): string =>
  (resource.record.meta()?.id as string | undefined) ?? resource.name;

function registerResource(registry: OpenAPIRegistry, module: ModuleDefinition, resource: ResourceDefinition) {
  const access = accessOf(module, { kind: 'read', role: `${module.id}:reader` });
  const consistency = readConsistency(module, access.responses);
  const headers = headersOf({ ...access.headers, ...consistency.header, ...CONDITIONAL_READ.header });
  const collection = z
    .object({
      data: z.array(withRecordTimes(resource.record)),
      meta: PageMeta,
    })
    .meta({ id: `${recordId(resource)}Collection` });
  const tags = [resource.path];
  registry.registerPath({
    method: 'get',
    path: `/api/v1/${resource.path}`,
    operationId: operationId(module.id, `list${pascalCase(resource.path)}`),
    summary: `List ${resource.description}`,
    tags,
    security: access.security,
    ...access.extensions,
    request: { query: listQuery(module, resource), ...headers },
    responses: {
      ...CONDITIONAL_READ.answers(json(collection, 'A page of records')),
      ...access.responses,
      ...consistency.responses,
    },
  });
  registry.registerPath({
    method: 'get',
    path: `/api/v1/${resource.path}/{${module.itemParam}}`,
    operationId: operationId(module.id, `get${pascalCase(resource.name)}`),
    summary: `Get one ${resource.name.toLowerCase()}`,
    tags,
    security: access.security,
    ...access.extensions,
    request: { params: z.object({ [module.itemParam]: idSchema(resource) }), query: ItemQuery, ...headers },
    responses: {
      ...CONDITIONAL_READ.answers(
        json(
          z.union([
            withRecordTimes(resource.record),
            asOfAnswer(resource.record, `${recordId(resource)}AsOf`),
          ]),
          `${resource.name}; with as_of, as_of_position or valid_at, as it was then, under data, with meta naming the cut`,
        ),
      ),
      ...access.responses,
      404: envelope('No such record (as of the point in time asked for: none then)'),
      ...consistency.responses,
    },
  });
}

function registerWrite(registry: OpenAPIRegistry, module: ModuleDefinition, route: WriteRoute) {
  const params = pathParameters(module, route.path);
  const access = accessOf(module, { kind: 'write', role: writeRole(module, route) });
  const config: RouteConfig = {
    method: route.method,
    path: openApiPath(route.path),
    operationId: operationId(module.id, route.operation),
    summary: route.summary,
    tags: [route.resource.path],
    security: access.security,
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
      ...(params && { params }),
    },
    responses: {
      [route.status]: json(withRecordTimes(route.resource.record), route.resource.name),
      202: HELD_BACK,
      400: envelope('Malformed JSON'),
      ...access.responses,
      ...(params && { 404: envelope('No such record') }),
      409: envelope('The move is not allowed from the current state'),
      413: envelope('Body too large'),
      415: envelope('Body is not JSON'),
      422: envelope('Invalid payload'),
    },
  };
  registry.registerPath(config);
}

function registerRoute<Services>(
  registry: OpenAPIRegistry,
  api: RouteApi<Services>,
  route: ModuleRoute<unknown, unknown, Services>,
) {
  const reads = route.method === 'get';
  const need: AccessNeed = { kind: reads ? 'read' : 'write', role: routeRole(api, route) };
  const access =
    route.auth === 'public'
      ? accessOf({}, { ...need, kind: 'read' })
      : route.auth === 'bearer'
        ? accessOf({}, { ...need, kind: 'write' })
        : accessOf(api, need);
  const consistency = reads && api.readsWait !== false ? readConsistency(api, access.responses) : undefined;
  const params = pathParameters(api, route.path, route.params);
  const responses: Responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, response]) => [
      status,
      routeResponse(api, route, Number(status), response),
    ]),
  );
  const ok = route.responses[200];
  // A read's answer carries an entity tag, unless it is a stream or is not to be kept.
  const conditional = reads && !route.noStore && ok && ok.mediaType !== 'text/event-stream';
  registry.registerPath({
    method: route.method,
    path: openApiPath(route.path),
    operationId: operationId(api.id, route.operation),
    summary: route.summary,
    ...(route.tags && { tags: [...route.tags] }),
    security: access.security,
    ...access.extensions,
    request: {
      ...(route.query && { query: route.query as z.ZodObject }),
      ...(params && { params }),
      ...headersOf({
        ...access.headers,
        ...consistency?.header,
        ...(conditional && CONDITIONAL_READ.header),
      }),
      ...(route.body && {
        body: { required: true, content: { 'application/json': { schema: route.body } } },
      }),
    },
    responses: {
      ...access.responses,
      ...consistency?.responses,
      ...(!reads && route.proposable !== false && { 202: HELD_BACK }),
      ...responses,
      ...(conditional && CONDITIONAL_READ.answers(responses[200] as ResponseConfig)),
    },
  });
}

/** Registers the index and health endpoints every API serves (public), health answering `health`. */
export function registerBasics(registry: OpenAPIRegistry, api: string, health: z.ZodType): void {
  registry.registerPath({
    method: 'get',
    path: '/api/',
    operationId: operationId(api, 'getIndex'),
    summary: 'API index',
    security: [],
    request: { headers: z.object(CONDITIONAL_READ.header) },
    responses: CONDITIONAL_READ.answers(
      json(z.record(z.string(), z.unknown()), 'Links to every resource and description'),
    ),
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/health',
    operationId: operationId(api, 'getHealth'),
    summary: 'Health',
    security: [],
    request: { headers: z.object(CONDITIONAL_READ.header) },
    responses: CONDITIONAL_READ.answers(json(health, 'Health')),
  });
  registry.registerPath({
    method: 'get',
    path: '/livez',
    operationId: operationId(api, 'getLiveness'),
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
    operationId: operationId(api, 'getReadiness'),
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

/** Every operation has an operationId, and no two the same: throws naming the first that breaks this. */
function checkOperationIds(registry: OpenAPIRegistry): void {
  const seen = new Set<string>();
  for (const definition of registry.definitions) {
    if (definition.type !== 'route') continue;
    const { method, path, operationId: id } = definition.route;
    if (!id || seen.has(id))
      throw new Error(`${method.toUpperCase()} ${path}: operationId ${id} is missing or taken`);
    seen.add(id);
  }
}

const MALFORMED_URL = '`malformed_url`: the URL (path or query) is not valid percent-encoded UTF-8';

const PARAMETER_REFUSED =
  '`unknown_parameter` or `repeated_parameter`: a query parameter the operation does not take, or one it takes once given more than once (`details.parameter` names it, `details.allowed` lists those it takes)';

const PARAMETER_DETAIL =
  'a query parameter the operation does not take (`extra_forbidden`), or one it takes once given more than once (`repeated_parameter`)';

type Responses = RouteConfig['responses'];

/** The responses with `answer` at `status`, joined to the one already there. */
function joined(responses: Responses, status: number, answer: Responses[number]): Responses {
  const own = responses[status];
  if (!own || !('description' in own) || !('description' in answer))
    return { ...responses, [status]: answer };
  return { ...responses, [status]: { ...own, description: `${own.description}; or ${answer.description}` } };
}

/** Whether an operation's parameter errors take the `{"detail": [...]}` shape (the service desk's reads). */
function answersDetail(route: RouteConfig): boolean {
  const invalid = route.responses[422];
  const media = invalid && 'content' in invalid ? invalid.content?.['application/json'] : undefined;
  return !!media && 'schema' in media && media.schema === ValidationErrorSchema;
}

/**
 * The operation with the errors every operation of every API may answer before its own: a malformed
 * URL (its port refuses one before any route: `served`), and a query parameter it does not take, or
 * a single one repeated (400, or 422 where its parameter errors take the `detail` shape).
 */
function refusingBadUrls(route: RouteConfig): RouteConfig {
  const malformed = joined(route.responses, 400, envelope(MALFORMED_URL));
  const responses = answersDetail(route)
    ? joined(malformed, 422, json(ValidationErrorSchema, PARAMETER_DETAIL))
    : joined(malformed, 400, envelope(PARAMETER_REFUSED));
  return { ...route, responses };
}

export function generateDescriptions(
  registry: OpenAPIRegistry,
  info: { title: string; version: string; description: string },
): Descriptions {
  checkOperationIds(registry);
  const definitions = registry.definitions.map((definition) =>
    definition.type === 'route' ? { ...definition, route: refusingBadUrls(definition.route) } : definition,
  );
  // Each API is served from its own base address, as is its description: paths start there.
  const servers = [{ url: '/', description: 'The base address this description is served from' }];
  return {
    runtime: describeNulls(
      new OpenApiGeneratorV31(definitions).generateDocument({
        openapi: '3.1.0',
        info: { ...info, license: DESCRIBED_LICENSE.runtime },
        servers,
      }),
    ),
    compatibility: describeNulls(
      new OpenApiGeneratorV3(definitions).generateDocument({
        openapi: '3.0.3',
        info: { ...info, license: DESCRIBED_LICENSE.compatibility },
        servers,
      }),
    ),
  };
}

/**
 * Registers the security schemes of an API's access check, and the kit's bearer scheme when its
 * writes (`writesTakeBearer`) or some of its routes take a bearer credential.
 */
function registerSchemes<Services>(
  registry: OpenAPIRegistry,
  api: RouteApi<Services>,
  writesTakeBearer: boolean,
): void {
  const usesBearer = writesTakeBearer || api.routes?.some((route) => route.auth === 'bearer');
  const schemes = { ...api.access?.securitySchemes, ...(usesBearer && { bearerAuth: BEARER_AUTH }) };
  for (const [name, scheme] of Object.entries(schemes)) {
    registry.registerComponent('securitySchemes', name, scheme);
  }
}

/**
 * The description of an API made of routes alone (the audit API), as `/api/openapi.json` serves it:
 * the basics every API serves, health answering `health`, and each route.
 */
export function describeRoutes<Services>(
  api: RouteApi<Services>,
  info: { title: string; version: string; description: string },
  health: z.ZodType,
): Descriptions {
  const registry = new OpenAPIRegistry();
  registerSchemes(registry, api, false);
  registerBasics(registry, api.id, health);
  for (const route of api.routes ?? []) registerRoute(registry, api, route);
  return generateDescriptions(registry, info);
}

export function describeModule(module: ModuleDefinition): Descriptions {
  const registry = new OpenAPIRegistry();
  registerSchemes(registry, module, !module.access);
  registerBasics(registry, module.id, HealthSchema);
  for (const resource of module.resources) registerResource(registry, module, resource);
  for (const route of module.writes) registerWrite(registry, module, route);
  for (const route of module.routes ?? []) registerRoute(registry, module, route);
  for (const webhook of module.webhooks ?? []) {
    registry.registerWebhook({
      // The suite sends no credential: the receiver verifies the signature header.
      security: [],
      method: 'post',
      path: webhook.name,
      operationId: operationId(module.id, webhook.name),
      summary: webhook.summary,
      description: webhook.description,
      request: {
        headers: webhook.headers,
        body: { required: true, content: { 'application/json': { schema: webhook.body } } },
      },
      responses: {
        200: { description: 'Any 2xx: delivered' },
        default: { description: 'Anything else, or no answer within 10 s: sent again later' },
      },
    });
  }
  return generateDescriptions(registry, {
    title: `${module.title} API`,
    version: module.version,
    description: module.description,
  });
}

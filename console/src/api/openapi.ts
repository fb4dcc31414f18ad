/** The parts of a module's OpenAPI 3.1 description the console is generic over. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface Operation {
  summary?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  'x-required-role'?: string;
}

export interface OpenApi {
  paths: Record<string, Partial<Record<'get' | 'post' | 'patch' | 'delete', Operation>>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** A write the console offers as a form: an operation with a JSON body, or a POST without one. */
export interface WriteOperation {
  key: string;
  method: 'post' | 'patch';
  path: string;
  operation: Operation;
}

export function resolve(api: OpenApi, schema: JsonSchema | undefined): JsonSchema {
  let current = schema ?? {};
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    current = api.components?.schemas?.[name] ?? {};
  }
  return current;
}

/** A schema without the `null` it may also be: `{anyOf: [{type: string}, {type: null}]}` is a string. */
export function nonNull(
  api: OpenApi,
  schema: JsonSchema | undefined,
): { schema: JsonSchema; nullable: boolean } {
  const resolved = resolve(api, schema);
  const options = resolved.anyOf ?? resolved.oneOf;
  if (options) {
    const rest = options.filter((option) => resolve(api, option).type !== 'null');
    if (rest.length === 1) return { schema: resolve(api, rest[0]), nullable: rest.length < options.length };
  }
  if (Array.isArray(resolved.type)) {
    const types = resolved.type.filter((type) => type !== 'null');
    return { schema: { ...resolved, type: types[0] }, nullable: types.length < resolved.type.length };
  }
  return { schema: resolved, nullable: false };
}

export const writeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Paths the console serves with pages of their own, not as generic writes. */
const OWN_PAGES = /^\/api\/v1\/(proposals|me)\b/;

/** The writes of a module whose path starts with the resource's list path. */
export function writesOf(api: OpenApi, resourcePath: string): WriteOperation[] {
  const prefix = `/api/v1/${resourcePath}`;
  return Object.entries(api.paths).flatMap(([path, item]) => {
    if (OWN_PAGES.test(path) || (path !== prefix && !path.startsWith(`${prefix}/`))) return [];
    return (['post', 'patch'] as const).flatMap((method) => {
      const operation = item[method];
      return operation ? [{ key: writeKey(method, path), method, path, operation }] : [];
    });
  });
}

/** Whether a write acts on one record (its path names the record's id). */
export const onRecord = (write: WriteOperation, resourcePath: string): boolean =>
  new RegExp(`^/api/v1/${resourcePath}/\\{[^}]+\\}`).test(write.path);

/** The JSON body a write takes, if any. */
export const bodySchema = (api: OpenApi, write: WriteOperation): JsonSchema | undefined => {
  const schema = write.operation.requestBody?.content?.['application/json']?.schema;
  return schema ? resolve(api, schema) : undefined;
};

/** The record schema of a resource: its by-id read's 200. */
export function recordSchema(api: OpenApi, resourcePath: string): JsonSchema {
  const item = Object.entries(api.paths).find(([path]) =>
    new RegExp(`^/api/v1/${resourcePath}/\\{[^}]+\\}$`).test(path),
  )?.[1];
  return resolve(api, item?.get?.responses?.['200']?.content?.['application/json']?.schema);
}

/** The query parameters of a resource's list, but paging (the table pages itself). */
export const listParameters = (api: OpenApi, resourcePath: string): Parameter[] =>
  (api.paths[`/api/v1/${resourcePath}`]?.get?.parameters ?? []).filter(
    (parameter) => parameter.in === 'query' && parameter.name !== 'limit' && parameter.name !== 'offset',
  );

/** Headers a module's data endpoints take besides its credential (a workspace, a member). */
export function contextHeaders(api: OpenApi): Parameter[] {
  const found = new Map<string, Parameter>();
  for (const item of Object.values(api.paths)) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation?.parameters ?? []) {
        if (parameter.in === 'header' && parameter.name !== 'Idempotency-Key')
          found.set(parameter.name, parameter);
      }
    }
  }
  return [...found.values()];
}

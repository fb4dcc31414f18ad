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
  title?: string;
  pattern?: string;
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
  info?: { title?: string; description?: string };
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

/** Paths the console serves with pages of their own, not as tables or generic writes. */
const OWN_PAGES = /^\/api\/v1\/(proposals|me)\b/;

/**
 * A list the console shows as a table: a GET without path parameters that answers a page (`data` and
 * `meta`), named by its last path segment (`/api/v1/leave`: `leave`; the market's `/api/competitors`:
 * `competitors`), and the by-id read beside it, if the module has one.
 */
export interface ResourceTable {
  name: string;
  listPath: string;
  itemPath: string | undefined;
  summary: string | undefined;
  /** Whether the list takes `limit` and `offset`; one that does not answers all its records at once. */
  paged: boolean;
  /** The tag that groups the list with its writes in the description. */
  tag: string | undefined;
}

const okJson = (operation: Operation | undefined) =>
  operation?.responses?.['200']?.content?.['application/json']?.schema;

/** The schema of a page of records: the answer itself, or the one of its alternatives that is a page. */
function pageSchema(api: OpenApi, operation: Operation | undefined): JsonSchema | undefined {
  const answer = resolve(api, okJson(operation));
  const isPage = (schema: JsonSchema) =>
    schema.properties?.data?.type === 'array' && !!schema.properties.meta;
  if (isPage(answer)) return answer;
  return (answer.anyOf ?? answer.oneOf)?.map((option) => resolve(api, option)).find(isPage);
}

/** Every table of a module, in the order its description lists them. */
export function tablesOf(api: OpenApi): ResourceTable[] {
  return Object.entries(api.paths).flatMap(([listPath, item]) => {
    if (OWN_PAGES.test(listPath) || listPath.includes('{') || !pageSchema(api, item.get)) return [];
    const itemPath = Object.entries(api.paths).find(
      ([path, read]) =>
        path.startsWith(listPath) && /^\/\{[^/]+\}$/.test(path.slice(listPath.length)) && read.get,
    )?.[0];
    const name = listPath.slice(listPath.lastIndexOf('/') + 1);
    const paged = (item.get?.parameters ?? []).some((parameter) => parameter.name === 'offset');
    return [{ name, listPath, itemPath, summary: item.get?.summary, paged, tag: item.get?.tags?.[0] }];
  });
}

/**
 * The writes of a table: the module's POST and PATCH operations tagged as its list is (the contracts'
 * signatures are at `/contracts/{id}/signatures`, beside the list at `/api/v1/contracts`).
 */
export function writesOf(api: OpenApi, table: ResourceTable): WriteOperation[] {
  return Object.entries(api.paths).flatMap(([path, item]) => {
    if (OWN_PAGES.test(path)) return [];
    return (['post', 'patch'] as const).flatMap((method) => {
      const operation = item[method];
      return operation && table.tag !== undefined && operation.tags?.includes(table.tag)
        ? [{ key: writeKey(method, path), method, path, operation }]
        : [];
    });
  });
}

/** Whether a write acts on one record: its path names the record's id. */
export const onRecord = (write: WriteOperation): boolean => /\{[^}]+\}/.test(write.path);

/** The JSON body a write takes, if any. */
export const bodySchema = (api: OpenApi, write: WriteOperation): JsonSchema | undefined => {
  const schema = write.operation.requestBody?.content?.['application/json']?.schema;
  return schema ? resolve(api, schema) : undefined;
};

/** The schema of a table's records, as its list answers them. */
export const recordSchema = (api: OpenApi, table: ResourceTable): JsonSchema =>
  resolve(api, pageSchema(api, api.paths[table.listPath]?.get)?.properties?.data?.items);

/**
 * The query parameters of a table's list, but paging and order (the table pages itself, its headers
 * sort it) and `format` (which asks for another shape of answer than a page, such as the market's GeoJSON).
 */
export const listParameters = (api: OpenApi, table: ResourceTable): Parameter[] =>
  (api.paths[table.listPath]?.get?.parameters ?? []).filter(
    (parameter) =>
      parameter.in === 'query' && !['limit', 'offset', 'sort', 'after', 'format'].includes(parameter.name),
  );

/**
 * Headers a module's data endpoints require besides its credential (the contract module's workspace and
 * member); optional ones, such as `X-Min-Position` and `Idempotency-Key`, are the console's business.
 */
export function contextHeaders(api: OpenApi): Parameter[] {
  const found = new Map<string, Parameter>();
  for (const item of Object.values(api.paths)) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation?.parameters ?? []) {
        if (parameter.in === 'header' && parameter.required === true) found.set(parameter.name, parameter);
      }
    }
  }
  return [...found.values()];
}

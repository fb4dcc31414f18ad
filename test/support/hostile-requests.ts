import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gzipSync } from 'node:zlib';

/**
 * Hostile requests for every operation of an OpenAPI description: a valid-looking body generated from
 * the request schema with one JSON position replaced by something hostile (deep nesting, huge arrays,
 * long strings, odd Unicode, wrong types), whole-request faults (content types, encodings, repeated
 * headers, malformed JSON, a body on GET) and hostile query and path values. Shared by
 * `test/api/hostile-input.test.ts` (which samples them) and `bench/hostile.ts` (which sends them all).
 */

/** The largest request body the suite reads (`JSON_BODY_LIMIT_BYTES`): beyond it, 413. */
export const BODY_LIMIT = 100 * 1024;
/** A refused request is answered in fewer bytes: error details never echo large or nested input. */
export const MAX_ERROR_BYTES = 8 * 1024;

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
}

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** As described: `/api/v1/requests/{item_id}`. */
  path: string;
  parameters: Parameter[];
  /** The JSON request body's schema, references resolved on use. */
  body?: JsonSchema;
  /** Names of the security schemes the operation requires (`bearerAuth`, `sessionCookie`, ...). */
  security: string[];
}

interface Description {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Every operation of an OpenAPI 3.1 description, with its body schema's references resolved. */
export function operationsOf(description: unknown): Operation[] {
  const doc = description as Description;
  const schemas = doc.components?.schemas ?? {};
  const resolve = (schema: JsonSchema): JsonSchema =>
    schema.$ref ? resolve(schemas[schema.$ref.split('/').pop() as string] ?? {}) : schema;
  const deref = (schema: JsonSchema): JsonSchema => {
    const resolved = resolve(schema);
    return {
      ...resolved,
      ...(resolved.items && { items: deref(resolved.items) }),
      ...(resolved.anyOf && { anyOf: resolved.anyOf.map(deref) }),
      ...(resolved.oneOf && { oneOf: resolved.oneOf.map(deref) }),
      ...(resolved.properties && {
        properties: Object.fromEntries(
          Object.entries(resolved.properties).map(([name, property]) => [name, deref(property)]),
        ),
      }),
      ...(typeof resolved.additionalProperties === 'object' && {
        additionalProperties: deref(resolved.additionalProperties),
      }),
    };
  };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, described]) => {
      const operation = described as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        security?: Record<string, unknown>[];
      };
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      return {
        method: method as Operation['method'],
        path,
        parameters: operation.parameters ?? [],
        ...(schema && { body: deref(schema) }),
        security: (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)),
      };
    }),
  );
}

export const nameOf = (operation: Pick<Operation, 'method' | 'path'>) =>
  `${operation.method.toUpperCase()} ${operation.path}`;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const typeOf = (schema: JsonSchema): string | undefined => {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  // A nullable string is given as a string (a free-form field to fill); any other nullable as null.
  if (types.includes('string')) return 'string';
  if (types.includes('null')) return 'null';
  return types[0] ?? (schema.properties ? 'object' : undefined);
};

const SAMPLE_TEXT = 'Hostile input probe';

/** A value the schema accepts, as far as its description tells (ids point at the first record). */
export function sampleOf(schema: JsonSchema): Json {
  if (schema.enum?.length) return schema.enum[0] as Json;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return sampleOf(variants.find((variant) => typeOf(variant) !== 'null') ?? {});
  switch (typeOf(schema)) {
    case 'string':
      if (schema.format === 'date') return '2026-11-20';
      if (schema.format === 'date-time') return '2026-11-20T09:00:00Z';
      if (schema.format === 'email') return 'probe@example.com';
      if (schema.pattern) return 'hostile-probe';
      return SAMPLE_TEXT.slice(0, schema.maxLength ?? SAMPLE_TEXT.length);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sampleOf(schema.items ?? {}));
    case 'object': {
      if (schema.properties) {
        return Object.fromEntries(
          Object.entries(schema.properties).map(([name, property]) => [name, sampleOf(property)]),
        );
      }
      const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
      return { field: sampleOf(values) };
    }
    default:
      return SAMPLE_TEXT;
  }
}

export type JsonPath = (string | number)[];

/** One place in a body: its path (`[]` is the whole body), the value there and its schema. */
export interface Position {
  path: JsonPath;
  value: Json;
  schema: JsonSchema;
}

/** Every JSON position of a value: the root, each property and each item, depth first. */
export function positionsOf(value: Json, schema: JsonSchema, path: JsonPath = []): Position[] {
  const here: Position = { path, value, schema };
  if (Array.isArray(value)) {
    return [here, ...value.flatMap((item, index) => positionsOf(item, schema.items ?? {}, [...path, index]))];
  }
  if (value !== null && typeof value === 'object') {
    const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
    return [
      here,
      ...Object.entries(value).flatMap(([key, item]) =>
        positionsOf(item, schema.properties?.[key] ?? additional, [...path, key]),
      ),
    ];
  }
  return [here];
}

/** `$`, `$.signers[0].name` */
export const pathText = (path: JsonPath) =>
  `$${path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('')}`;

const MARK = '\u0001hostile\u0001';
const MARK_JSON = JSON.stringify(MARK);

/** The JSON text of `body` with `raw` (JSON text) at `path`: built as text, so any depth is cheap. */
function spliced(body: Json, path: JsonPath, raw: string, as: 'value' | 'key'): string {
  if (path.length === 0 && as === 'value') return raw;
  const copy = structuredClone(body) as Json;
  let parent = copy as Record<string | number, Json>;
  const steps = as === 'value' ? path.slice(0, -1) : path;
  for (const step of steps) parent = parent[step] as Record<string | number, Json>;
  if (as === 'value') parent[path[path.length - 1] as string | number] = MARK;
  else parent[MARK] = 0;
  const text = JSON.stringify(copy);
  const at = text.indexOf(MARK_JSON);
  return `${text.slice(0, at)}${raw}${text.slice(at + MARK_JSON.length)}`;
}

/** Room left for a value at `path`, under the body limit. */
const roomAt = (body: Json, path: JsonPath, as: 'value' | 'key') =>
  BODY_LIMIT - (spliced(body, path, '', as).length + (as === 'key' ? 2 : 0)) - 16;

export const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
export const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

/** The classes the runner reports, in its table's order. */
export const CLASSES = [
  'deep nesting (JSON body)',
  'deep nesting (JSON text in a string)',
  'huge arrays',
  'long strings and keys',
  'odd Unicode',
  'wrong types',
  'content types and encodings',
  'repeated headers',
  'malformed JSON',
  'body on GET',
  'hostile query and path values',
  'hostile Host values',
] as const;
export type HostileClass = (typeof CLASSES)[number];

/** A replacement for one JSON position; `raw` is JSON text, or undefined where it does not apply. */
export interface ValueMutation {
  name: string;
  class: HostileClass;
  /** `key`: adds a property with this key (JSON text) to the object at the position. */
  as?: 'value' | 'key';
  raw(position: Position, room: () => number): string | undefined;
}

const whenString = (make: (position: Position) => string) => (position: Position) =>
  typeof position.value === 'string' ? make(position) : undefined;
const whenObject =
  (make: (position: Position, room: () => number) => string) => (position: Position, room: () => number) =>
    position.value !== null && typeof position.value === 'object' && !Array.isArray(position.value)
      ? make(position, room)
      : undefined;

const NESTING_DEPTHS = [64, 65, 1_000, 50_000];
const ODD_TEXTS: [string, string][] = [
  ['a lone high surrogate (\\ud800)', '"probe \\ud800 text"'],
  ['a lone low surrogate then a high one (\\udc00\\ud800)', '"\\udc00\\ud800"'],
  ['U+0000', '"probe\\u0000text"'],
  ['a right-to-left override (U+202E)', JSON.stringify('probe \u202etxt.exe')],
  ['emoji with zero-width joiners', JSON.stringify('👩‍👩‍👧‍👦 🏳️‍🌈 probe')],
  ['1,000 combining marks on one letter', JSON.stringify(`e${'\u0301'.repeat(1_000)}`)],
  ['U+FFFF and U+FFFE', '"\\uffff\\ufffe"'],
  ['a byte-order mark and zero-width spaces', '"\\ufeff\\u200b\\u200bprobe"'],
];
const WRONG_TYPES: [string, string][] = [
  ['null', 'null'],
  ['true', 'true'],
  ['1e400 (Infinity when parsed)', '1e400'],
  ['9007199254740993 (beyond a safe integer)', '9007199254740993'],
  ['-0', '-0'],
  ['an empty object', '{}'],
  ['an empty array', '[]'],
  ['the string "1"', '"1"'],
];

export const VALUE_MUTATIONS: readonly ValueMutation[] = [
  ...NESTING_DEPTHS.flatMap((depth): ValueMutation[] => [
    {
      name: `${depth.toLocaleString('en-US')} levels of nested arrays`,
      class: 'deep nesting (JSON body)',
      raw: () => nestedArrays(depth),
    },
    {
      name: `${depth.toLocaleString('en-US')} levels of nested objects`,
      class: 'deep nesting (JSON body)',
      raw: () => nestedObjects(depth),
    },
    {
      name: `a string holding ${depth.toLocaleString('en-US')} levels of nested arrays as JSON text`,
      class: 'deep nesting (JSON text in a string)',
      raw: whenString(() => JSON.stringify(nestedArrays(depth))),
    },
    {
      name: `a string holding ${depth.toLocaleString('en-US')} levels of nested objects as JSON text`,
      class: 'deep nesting (JSON text in a string)',
      raw: whenString(() => JSON.stringify(nestedObjects(depth))),
    },
  ]),
  {
    name: 'nested objects as deep as the body limit allows',
    class: 'deep nesting (JSON body)',
    raw: (_position, room) => nestedObjects(Math.floor(room() / 6)),
  },
  {
    name: 'a string holding nested arrays as JSON text, as deep as the field’s maxLength allows',
    class: 'deep nesting (JSON text in a string)',
    raw: whenString(({ schema }) =>
      schema.maxLength !== undefined && schema.maxLength >= 130
        ? JSON.stringify(nestedArrays(Math.floor(schema.maxLength / 2)))
        : JSON.stringify(nestedArrays(1_000)),
    ),
  },
  {
    name: 'an array of 0s filling the body up to the limit',
    class: 'huge arrays',
    raw: (_position, room) => `[${Array.from({ length: Math.floor(room() / 2) }, () => '0').join(',')}]`,
  },
  {
    name: 'an array of 100,000 items (a body over the limit)',
    class: 'huge arrays',
    raw: () => `[${Array.from({ length: 100_000 }, () => '0').join(',')}]`,
  },
  {
    name: 'an array of 100,000 empty strings (a body over the limit)',
    class: 'huge arrays',
    raw: () => `[${Array.from({ length: 100_000 }, () => '""').join(',')}]`,
  },
  {
    name: 'a string filling the body up to the limit',
    class: 'long strings and keys',
    raw: (_position, room) => JSON.stringify('x'.repeat(room())),
  },
  {
    name: 'a string of 110,000 characters (a body over the limit)',
    class: 'long strings and keys',
    raw: () => JSON.stringify('x'.repeat(110_000)),
  },
  {
    name: 'a string of 20,000 lone surrogates (\\ud800 escapes, a body over the limit)',
    class: 'long strings and keys',
    raw: () => `"${'\\ud800'.repeat(20_000)}"`,
  },
  {
    name: 'an unknown property whose name fills the body up to the limit',
    class: 'long strings and keys',
    as: 'key',
    raw: whenObject((_position, room) => JSON.stringify('k'.repeat(room()))),
  },
  {
    name: 'an unknown property whose name is a lone surrogate and a right-to-left override',
    class: 'odd Unicode',
    as: 'key',
    raw: whenObject(() => '"\\ud800\\u202e"'),
  },
  ...ODD_TEXTS.map(([name, raw]): ValueMutation => ({
    name: `a string with ${name}`,
    class: 'odd Unicode',
    raw: () => raw,
  })),
  ...WRONG_TYPES.map(([name, raw]): ValueMutation => ({ name, class: 'wrong types', raw: () => raw })),
];

/** The values a request needs to pass the access checks. */
export interface Credentials {
  /** `SUITE_API_TOKEN`, for `bearerAuth`. */
  token: string;
  /** `SUITE_AUDIT_TOKEN`, for `auditorAuth`. */
  auditToken?: string;
  /** A `Cookie` header with a valid market session, for `sessionCookie`. */
  cookie?: string;
  /** Contract headers: a workspace and a member of it who may write. */
  organisation?: string;
  actor?: string;
  /** Values for path parameters (`id`), by operation name (`POST /contracts/{id}/signatures`) or name. */
  pathValues?: Record<string, string>;
  /** Body properties that make the sample valid (a contract id), by operation name. */
  bodyOverrides?: Record<string, Record<string, Json>>;
}

export type Header = [name: string, value: string];

/** A request as sent: headers in order (a name may repeat), the body as bytes. */
export interface HostileRequest {
  operation: string;
  class: HostileClass;
  /** What was done to it, to name it in a failure: `$.title = 50,000 levels of nested arrays`. */
  fault: string;
  method: string;
  path: string;
  headers: Header[];
  body?: Buffer;
  /** Send the body chunked, without Content-Length. */
  chunked?: boolean;
  /** The status the request must get, when one is certain (413 for a body over the limit). */
  expectStatus?: number;
  /** The `Host` header, when not the target's own `host:port`. */
  host?: string;
}

let keys = 0;
const idempotencyKey = () => `hostile-${process.pid}-${++keys}`;

/** The headers that authenticate a request for the operation (credentials first, then its own). */
export function accessHeaders(operation: Operation, credentials: Credentials): Header[] {
  const headers: Header[] = [];
  for (const scheme of operation.security) {
    if (scheme === 'bearerAuth') headers.push(['Authorization', `Bearer ${credentials.token}`]);
    if (scheme === 'auditorAuth')
      headers.push(['Authorization', `Bearer ${credentials.auditToken ?? credentials.token}`]);
    if (scheme === 'sessionCookie' && credentials.cookie) headers.push(['Cookie', credentials.cookie]);
  }
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'header') continue;
    const name = parameter.name.toLowerCase();
    if (name === 'x-svc-organisation' && credentials.organisation)
      headers.push([parameter.name, credentials.organisation]);
    if (name === 'x-svc-actor' && credentials.actor) headers.push([parameter.name, credentials.actor]);
    if (name === 'idempotency-key') headers.push([parameter.name, idempotencyKey()]);
  }
  return headers;
}

/** The operation's path with its parameters filled in (`1` unless the credentials give a value). */
export function concretePath(
  operation: Operation,
  credentials: Credentials,
  fill?: (name: string) => string,
) {
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
    fill
      ? fill(name)
      : encodeURIComponent(
          credentials.pathValues?.[`${nameOf(operation)} ${name}`] ?? credentials.pathValues?.[name] ?? '1',
        ),
  );
}

/** The valid-looking body of a write: a sample of its schema with the credentials' overrides. */
export function sampleBody(operation: Operation, credentials: Credentials): Json | undefined {
  if (!operation.body) return undefined;
  const sample = sampleOf(operation.body);
  const overrides = credentials.bodyOverrides?.[nameOf(operation)];
  return overrides && sample !== null && typeof sample === 'object' && !Array.isArray(sample)
    ? { ...sample, ...overrides }
    : sample;
}

const JSON_TYPE: Header = ['Content-Type', 'application/json'];

/** The sample body with one position replaced (or, for a key mutation, one property added). */
export function valueRequest(
  operation: Operation,
  credentials: Credentials,
  position: JsonPath,
  mutation: ValueMutation,
): HostileRequest | undefined {
  const body = sampleBody(operation, credentials);
  if (body === undefined) return undefined;
  const at = positionsOf(body, operation.body ?? {}).find(
    (candidate) => pathText(candidate.path) === pathText(position),
  );
  if (!at) return undefined;
  const as = mutation.as ?? 'value';
  const raw = mutation.raw(at, () => roomAt(body, position, as));
  if (raw === undefined) return undefined;
  const text = Buffer.from(spliced(body, position, raw, as));
  const where =
    as === 'key' ? `${pathText(position)} gets ${mutation.name}` : `${pathText(position)} = ${mutation.name}`;
  return {
    operation: nameOf(operation),
    class: mutation.class,
    fault: `${where} (${text.length.toLocaleString('en-US')}-byte body)`,
    method: operation.method.toUpperCase(),
    path: concretePath(operation, credentials),
    headers: [...accessHeaders(operation, credentials), JSON_TYPE],
    body: text,
    ...(text.length > BODY_LIMIT && { expectStatus: 413 }),
  };
}

/** The body with invalid UTF-8 bytes in place of its sample text (or in a string of its own). */
function withInvalidUtf8(body: Json): Buffer {
  const invalid = Buffer.from([0xc3, 0x28, 0xff]);
  const text = JSON.stringify(body);
  const at = text.indexOf(SAMPLE_TEXT);
  if (at === -1) return Buffer.concat([Buffer.from('{"probe":"'), invalid, Buffer.from('"}')]);
  return Buffer.concat([
    Buffer.from(text.slice(0, at)),
    invalid,
    Buffer.from(text.slice(at + SAMPLE_TEXT.length)),
  ]);
}

/** Whole-request faults of a write: content types, encodings, repeated headers and malformed JSON. */
export function requestFaults(operation: Operation, credentials: Credentials): HostileRequest[] {
  const body = sampleBody(operation, credentials);
  if (body === undefined) return [];
  const valid = Buffer.from(JSON.stringify(body));
  const access = accessHeaders(operation, credentials);
  const base = {
    operation: nameOf(operation),
    method: operation.method.toUpperCase(),
    path: concretePath(operation, credentials),
  };
  const make = (
    klass: HostileClass,
    fault: string,
    headers: Header[],
    bytes: Buffer = valid,
    extra: Partial<HostileRequest> = {},
  ): HostileRequest => ({ ...base, class: klass, fault, headers, body: bytes, ...extra });
  const withType = (type: string) => [...access, ['Content-Type', type] as Header];
  const types = 'content types and encodings';
  const repeated = 'repeated headers';
  const malformed = 'malformed JSON';
  const faults: HostileRequest[] = [
    make(types, 'no Content-Type', access),
    make(types, 'Content-Type: text/plain', withType('text/plain')),
    make(
      types,
      'Content-Type: application/x-www-form-urlencoded',
      withType('application/x-www-form-urlencoded'),
    ),
    make(
      types,
      'Content-Type: application/json; charset=latin1',
      withType('application/json; charset=latin1'),
    ),
    make(
      types,
      'Content-Type: application/json; charset=latin1 with a Latin-1 byte',
      withType('application/json; charset=latin1'),
      Buffer.from(JSON.stringify(body).replace(SAMPLE_TEXT, 'Caf\u00e9'), 'latin1'),
    ),
    make(
      types,
      'Content-Type: application/json; charset=utf-16',
      withType('application/json; charset=utf-16'),
    ),
    make(
      types,
      'Content-Encoding: gzip (the body gzipped)',
      [...withType('application/json'), ['Content-Encoding', 'gzip']],
      gzipSync(valid),
    ),
    make(
      types,
      'Content-Encoding: gzip, the body 50,000 levels of nested arrays gzipped',
      [...withType('application/json'), ['Content-Encoding', 'gzip']],
      gzipSync(nestedArrays(50_000)),
    ),
    make(types, 'Content-Encoding: br on a plain body', [
      ...withType('application/json'),
      ['Content-Encoding', 'br'],
    ]),
    make(
      types,
      'a 200 kB body sent chunked, without Content-Length',
      withType('application/json'),
      Buffer.from(JSON.stringify('x'.repeat(200_000))),
      {
        chunked: true,
        expectStatus: 413,
      },
    ),
    make(repeated, 'two Content-Type headers (application/json, text/plain)', [
      ...access,
      ['Content-Type', 'application/json'],
      ['Content-Type', 'text/plain'],
    ]),
    make(repeated, 'two Content-Type headers (text/plain, application/json)', [
      ...access,
      ['Content-Type', 'text/plain'],
      ['Content-Type', 'application/json'],
    ]),
    make(repeated, 'two Idempotency-Key headers', [
      ...access,
      JSON_TYPE,
      ['Idempotency-Key', idempotencyKey()],
      ['Idempotency-Key', idempotencyKey()],
    ]),
    make(repeated, 'an Idempotency-Key of 10,000 characters', [
      ...access,
      JSON_TYPE,
      ['Idempotency-Key', 'k'.repeat(10_000)],
    ]),
    make(
      malformed,
      'a truncated body',
      withType('application/json'),
      valid.subarray(0, Math.max(1, valid.length - 3)),
    ),
    make(
      malformed,
      'single-quoted JSON',
      withType('application/json'),
      Buffer.from(JSON.stringify(body).replace(/"/g, "'")),
    ),
    make(
      malformed,
      'a trailing comma',
      withType('application/json'),
      Buffer.from(`${JSON.stringify(body).slice(0, -1)},}`),
    ),
    make(
      malformed,
      'trailing garbage after the JSON',
      withType('application/json'),
      Buffer.concat([valid, Buffer.from(' }{ garbage')]),
    ),
    make(malformed, 'NaN', withType('application/json'), Buffer.from('NaN')),
    make(malformed, 'a body of one space', withType('application/json'), Buffer.from(' ')),
    make(
      malformed,
      'a UTF-8 byte-order mark before the JSON',
      withType('application/json'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), valid]),
    ),
    make(
      malformed,
      'invalid UTF-8 bytes (0xC3 0x28 0xFF) inside a string',
      withType('application/json'),
      withInvalidUtf8(body),
    ),
    make(
      malformed,
      'the body in UTF-16',
      withType('application/json'),
      Buffer.from(JSON.stringify(body), 'utf16le'),
    ),
    make(malformed, '50,000 unclosed arrays', withType('application/json'), Buffer.from('['.repeat(50_000))),
    make(
      malformed,
      '50,000 nested arrays closed by one brace too many',
      withType('application/json'),
      Buffer.from(`${nestedArrays(50_000)}}`),
    ),
  ];
  for (const scheme of operation.security) {
    if (scheme === 'bearerAuth' || scheme === 'auditorAuth') {
      const token =
        scheme === 'auditorAuth' ? (credentials.auditToken ?? credentials.token) : credentials.token;
      const others = access.filter(([name]) => name !== 'Authorization');
      faults.push(
        make(repeated, 'two Authorization headers (the valid token, then a wrong one)', [
          ...others,
          ['Authorization', `Bearer ${token}`],
          ['Authorization', 'Bearer wrong-token'],
          JSON_TYPE,
        ]),
        make(repeated, 'two Authorization headers (a wrong token, then the valid one)', [
          ...others,
          ['Authorization', 'Bearer wrong-token'],
          ['Authorization', `Bearer ${token}`],
          JSON_TYPE,
        ]),
      );
    }
    if (scheme === 'sessionCookie' && credentials.cookie) {
      const others = access.filter(([name]) => name !== 'Cookie');
      faults.push(
        make(repeated, 'two Cookie headers (the valid session, then a forged one)', [
          ...others,
          ['Cookie', credentials.cookie],
          ['Cookie', 'svc_session=forged.value'],
          JSON_TYPE,
        ]),
        make(repeated, 'two Cookie headers (a forged session, then the valid one)', [
          ...others,
          ['Cookie', 'svc_session=forged.value'],
          ['Cookie', credentials.cookie],
          JSON_TYPE,
        ]),
      );
    }
  }
  for (const [name] of access.filter(([name]) => /^x-svc-/i.test(name))) {
    faults.push(
      make(repeated, `two ${name} headers`, [...access, [name, 'ws-globex'], JSON_TYPE]),
      make(repeated, `a ${name} of 10,000 characters`, [
        ...access.filter(([other]) => other !== name),
        [name, 'w'.repeat(10_000)],
        JSON_TYPE,
      ]),
    );
  }
  return faults;
}

/** Hostile query values: each query parameter (and `q`, `limit`, `offset`) gets one. */
const QUERY_VALUES: [string, string][] = [
  ['a value of 4,000 characters', 'q'.repeat(4_000)],
  ['1,000 levels of nested arrays as JSON text', encodeURIComponent(nestedArrays(1_000))],
  ['a lone surrogate encoded as UTF-8 (%ED%A0%80)', '%ED%A0%80'],
  ['invalid UTF-8 (%C3%28%FF)', '%C3%28%FF'],
  ['a broken percent escape (%E2%8)', '%E2%8'],
  ['U+0000 (%00)', 'a%00b'],
  ['a right-to-left override', encodeURIComponent('\u202eabc')],
  ['emoji with zero-width joiners', encodeURIComponent('👩‍👩‍👧‍👦')],
  ['500 combining marks', encodeURIComponent(`e${'\u0301'.repeat(500)}`)],
  ['1e400', '1e400'],
  ['99999999999999999999999', '99999999999999999999999'],
  ['-0', '-0'],
];

/** Hostile requests of a read: query values, path values, repeated headers and a body on GET. */
export function readFaults(operation: Operation, credentials: Credentials): HostileRequest[] {
  const access = accessHeaders(operation, credentials);
  const base = { operation: nameOf(operation), method: 'GET' };
  const path = concretePath(operation, credentials);
  const query = 'hostile query and path values';
  const make = (
    klass: HostileClass,
    fault: string,
    target: string,
    headers: Header[] = access,
    extra: Partial<HostileRequest> = {},
  ): HostileRequest => ({ ...base, class: klass, fault, path: target, headers, ...extra });
  const names = [
    ...new Set([
      ...operation.parameters
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name),
      ...(operation.path.includes('{') ? [] : ['q', 'limit', 'offset']),
    ]),
  ];
  const faults: HostileRequest[] = [];
  for (const name of names) {
    for (const [fault, value] of QUERY_VALUES)
      faults.push(make(query, `?${name}= ${fault}`, `${path}?${name}=${value}`));
    faults.push(
      make(
        query,
        `?${name} repeated 500 times`,
        `${path}?${Array.from({ length: 500 }, (_, i) => `${name}=${i}`).join('&')}`,
      ),
      make(query, `?${name}[a][b][c]= (bracket syntax)`, `${path}?${name}[a][b][c]=1&${name}[]=2`),
    );
  }
  faults.push(
    make(
      query,
      '1,000 distinct unknown query parameters',
      `${path}?${Array.from({ length: 1_000 }, (_, i) => `p${i}=1`).join('&')}`,
    ),
  );
  for (const name of [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)) {
    const fill = (value: string) => (other: string) =>
      other === name ? value : encodeURIComponent(credentials.pathValues?.[other] ?? '1');
    for (const [fault, value] of [
      ...QUERY_VALUES,
      ['an encoded slash and dots (..%2F..%2F)', '..%2F..%2Fetc%2Fpasswd'],
    ] as [string, string][]) {
      faults.push(make(query, `{${name}} = ${fault}`, concretePath(operation, credentials, fill(value))));
    }
  }
  const repeated = 'repeated headers';
  for (const scheme of operation.security) {
    const others = access.filter(([name]) => name !== 'Authorization' && name !== 'Cookie');
    if (scheme === 'bearerAuth' || scheme === 'auditorAuth') {
      const token =
        scheme === 'auditorAuth' ? (credentials.auditToken ?? credentials.token) : credentials.token;
      faults.push(
        make(repeated, 'two Authorization headers (the valid token, then a wrong one)', path, [
          ...others,
          ['Authorization', `Bearer ${token}`],
          ['Authorization', 'Bearer wrong-token'],
        ]),
        make(repeated, 'two Authorization headers (a wrong token, then the valid one)', path, [
          ...others,
          ['Authorization', 'Bearer wrong-token'],
          ['Authorization', `Bearer ${token}`],
        ]),
        make(repeated, 'an Authorization header of 10,000 characters', path, [
          ...others,
          ['Authorization', `Bearer ${'t'.repeat(10_000)}`],
        ]),
      );
    }
    if (scheme === 'sessionCookie' && credentials.cookie) {
      faults.push(
        make(repeated, 'two Cookie headers (the valid session, then a forged one)', path, [
          ...others,
          ['Cookie', credentials.cookie],
          ['Cookie', 'svc_session=forged.value'],
        ]),
        make(repeated, 'a Cookie header of 200 cookies', path, [
          ...others,
          [
            'Cookie',
            `${Array.from({ length: 200 }, (_, i) => `c${i}=${i}`).join('; ')}; ${credentials.cookie}`,
          ],
        ]),
      );
    }
  }
  for (const [name] of access.filter(([name]) => /^x-svc-/i.test(name))) {
    faults.push(make(repeated, `two ${name} headers`, path, [...access, [name, 'ws-globex']]));
  }
  faults.push(
    make(repeated, 'two X-Min-Position headers (0, then "abc")', path, [
      ...access,
      ['X-Min-Position', '0'],
      ['X-Min-Position', 'abc'],
    ]),
    make(repeated, 'X-Min-Position: 1e400', path, [...access, ['X-Min-Position', '1e400']]),
    make(repeated, 'two X-Request-Id headers and an X-Correlation-Id of 4,000 characters', path, [
      ...access,
      ['X-Request-Id', 'first'],
      ['X-Request-Id', 'second'],
      ['X-Correlation-Id', 'c'.repeat(4_000)],
    ]),
  );
  const onGet = 'body on GET';
  faults.push(
    make(onGet, 'a JSON body on GET', path, [...access, JSON_TYPE], { body: Buffer.from('{"probe":true}') }),
    make(onGet, 'a body of 50,000 levels of nested arrays on GET', path, [...access, JSON_TYPE], {
      body: Buffer.from(nestedArrays(50_000)),
    }),
    make(onGet, 'a 200 kB body on GET', path, [...access, JSON_TYPE], {
      body: Buffer.from(JSON.stringify('x'.repeat(200_000))),
    }),
    make(onGet, 'a gzip-encoded body on GET', path, [...access, JSON_TYPE, ['Content-Encoding', 'gzip']], {
      body: gzipSync('{"probe":true}'),
    }),
  );
  return faults;
}

/** Names a request exactly, for a failure message. */
/**
 * `Host` values no port of the suite answers for, with the port a request is sent to: what a page whose
 * name was re-pointed at this machine (DNS rebinding) makes a browser send, and look-alikes of the
 * suite's own names.
 */
export const foreignHosts = (port: number): string[] => [
  `attacker.example:${port}`,
  'attacker.example',
  `localhost.attacker.example:${port}`,
  `127.0.0.1.nip.io:${port}`,
  `127.0.0.2:${port}`,
  `[::2]:${port}`,
  `0x7f000001:${port}`,
  `localhost:${port}.attacker.example`,
  `localhost:1${port}`,
  '',
];

/** The operation's request as any client sends it, for each foreign `Host`: each is refused with 421. */
export function hostFaults(operation: Operation, credentials: Credentials, port: number): HostileRequest[] {
  const body = sampleBody(operation, credentials);
  const headers = [...accessHeaders(operation, credentials), ...(body === undefined ? [] : [JSON_TYPE])];
  return foreignHosts(port).map((host) => ({
    operation: nameOf(operation),
    class: 'hostile Host values',
    fault: `Host: ${host}`,
    method: operation.method.toUpperCase(),
    path: concretePath(operation, credentials),
    headers,
    ...(body !== undefined && { body: Buffer.from(JSON.stringify(body)) }),
    host,
    expectStatus: 421,
  }));
}

export function describeRequest(request: HostileRequest): string {
  const headers = request.headers
    .map(
      ([name, value]) =>
        `${name}: ${value.length > 60 ? `${value.slice(0, 40)}… (${value.length} chars)` : value}`,
    )
    .join(', ');
  const path =
    request.path.length > 120
      ? `${request.path.slice(0, 100)}… (${request.path.length} chars)`
      : request.path;
  return `${request.method} ${path} [${request.fault}] {${headers}}`;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first MB of the body. */
  body: Buffer;
  bytes: number;
}

export type Outcome = Answer | { failed: string };

/** Sends one request on its own connection; `failed` names what went wrong when no answer came. */
export function send(
  target: { host: string; port: number },
  request: HostileRequest,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers: string[] = [
      'Host',
      request.host ?? `${target.host}:${target.port}`,
      'Connection',
      'close',
    ];
    for (const [name, value] of request.headers) headers.push(name, value);
    if (request.body && request.chunked) headers.push('Transfer-Encoding', 'chunked');
    else if (request.body) headers.push('Content-Length', String(request.body.length));
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const req = httpRequest({
      host: target.host,
      port: target.port,
      method: request.method,
      path: request.path,
      headers,
      agent: false,
      setHost: false,
    });
    const timer = setTimeout(() => {
      finish({ failed: `no answer within ${options.timeoutMs / 1000} s` });
      req.destroy();
    }, options.timeoutMs);
    const onAbort = () => {
      finish({ failed: String(options.signal?.reason ?? 'aborted') });
      req.destroy();
    };
    options.signal?.addEventListener('abort', onAbort);
    // Once the status has come, a connection the server closes while the body is still being sent (it
    // answered without reading it all) ends the answer, as far as it came.
    let answered: (() => void) | undefined;
    req.on('error', (error) => (answered ? answered() : finish({ failed: `no answer: ${error.message}` })));
    req.on('response', (res) => {
      // A live tail never ends: its status and headers are the answer.
      if (request.method === 'GET' && /^text\/event-stream/.test(res.headers['content-type'] ?? '')) {
        finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0), bytes: 0 });
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= 1024 * 1024) chunks.push(chunk);
      });
      answered = () =>
        finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), bytes });
      res.on('end', answered);
      res.on('error', answered);
      res.on('aborted', answered);
    });
    if (request.body && request.chunked) {
      for (let at = 0; at < request.body.length; at += 16 * 1024)
        req.write(request.body.subarray(at, at + 16 * 1024));
      req.end();
    } else req.end(request.body);
  });
}

const STACK_TRACE = /at .*\.(ts|js):\d+/;

/**
 * What is wrong with an answer: a 5xx, an error not in the error shape (`{"error":{"code","message"}}`
 * or, for the service desk's reads, `{"detail":[...]}`), an error of 8 kB or more (details echoing the
 * input), a stack trace, or not the status the request must get. Empty when the answer is right.
 */
export function problemsWith(request: HostileRequest, outcome: Outcome): string[] {
  if ('failed' in outcome) return [outcome.failed];
  const problems: string[] = [];
  const text = outcome.body.toString('utf8');
  const snippet = text.length > 160 ? `${text.slice(0, 160)}…` : text;
  if (outcome.status >= 500) problems.push(`answered ${outcome.status}: ${snippet}`);
  if (request.expectStatus !== undefined && outcome.status !== request.expectStatus && outcome.status < 500)
    problems.push(`answered ${outcome.status}, not ${request.expectStatus}: ${snippet}`);
  if (STACK_TRACE.test(text)) problems.push('the answer holds a stack trace');
  if (outcome.status < 400) return problems;
  if (outcome.bytes >= MAX_ERROR_BYTES)
    problems.push(
      `answered ${outcome.status} in ${outcome.bytes.toLocaleString('en-US')} bytes (the error echoes the input)`,
    );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push(`answered ${outcome.status} with a body that is not JSON: ${snippet}`);
    return problems;
  }
  const envelope = body as { error?: { code?: unknown; message?: unknown }; detail?: unknown };
  const inEnvelope = typeof envelope.error?.code === 'string' && typeof envelope.error.message === 'string';
  const inDetail =
    Array.isArray(envelope.detail) &&
    envelope.detail.every(
      (detail: { loc?: unknown; msg?: unknown }) =>
        Array.isArray(detail.loc) && typeof detail.msg === 'string',
    );
  if (!inEnvelope && !inDetail && outcome.bytes < MAX_ERROR_BYTES)
    problems.push(`answered ${outcome.status} outside the error shape: ${snippet}`);
  return problems;
}

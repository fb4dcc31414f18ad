import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** What an API answered to one request. */
export interface Answer {
  status: number;
  /** The media type of the answer, without its parameters (`application/json`); empty without a body. */
  mediaType: string;
  /** The parsed JSON, or the text; `undefined` when the body was not read (an event stream). */
  body: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  [key: string]: unknown;
}

export interface OperationObject {
  operationId?: string;
  parameters?: ParameterObject[];
  security?: Record<string, string[]>[];
  responses: Record<string, { description: string; content?: Record<string, { schema?: object }> }>;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  [key: string]: unknown;
}

/** An escaped JSON pointer token. */
const token = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A 3.0 schema as JSON Schema draft-07 reads it: `exclusiveMinimum: true` beside `minimum` becomes
 * `exclusiveMinimum: <minimum>` (and so for the maximum). `nullable` stays: Ajv implements it.
 */
function draft07Of(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(draft07Of);
  if (typeof value !== 'object' || value === null) return value;
  const schema = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, draft07Of(inner)]));
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (schema[exclusive] === true) schema[exclusive] = schema[bound];
    else if (schema[exclusive] === false) delete schema[exclusive];
  }
  return schema;
}

/**
 * Checks answers against one OpenAPI description with Ajv: a 3.1 description with the 2020-12
 * dialect, a 3.0 one with draft-07 and OpenAPI's `nullable`. Formats are checked too.
 */
export function answerChecker(document: OpenApiDocument) {
  const modern = document.openapi.startsWith('3.1');
  const ajv = modern
    ? new Ajv2020({ strict: false, allErrors: true, validateSchema: false, inlineRefs: false })
    : new Ajv({ strict: false, allErrors: true, validateSchema: false, inlineRefs: false });
  addFormats(ajv);
  ajv.addSchema((modern ? document : draft07Of(document)) as object, 'description');
  const compiled = new Map<string, ValidateFunction>();
  const validator = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `description#${pointer}` })));
    return validate;
  };

  /** What is wrong with an answer to `method path` (empty when it is as described). */
  return (path: string, method: string, answer: Answer): string[] => {
    const { responses } = document.paths[path]?.[method] ?? { responses: {} };
    const status = String(answer.status);
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => responses[candidate]);
    if (!key) return [`${answer.status} is not described`];
    const content = responses[key]?.content ?? {};
    if (answer.mediaType === '') {
      return Object.keys(content).length === 0 ? [] : [`${answer.status} has no body; described: content`];
    }
    const mediaType = Object.keys(content).find(
      (described) => described === answer.mediaType || described === '*/*',
    );
    if (!mediaType) return [`${answer.status} ${answer.mediaType} is not described`];
    if (answer.body === undefined || !content[mediaType]?.schema) return [];
    let validate: ValidateFunction;
    try {
      validate = validator(
        `/paths/${token(path)}/${method}/responses/${key}/content/${token(mediaType)}/schema`,
      );
    } catch (error) {
      return [`${answer.status} ${mediaType}: its schema is not valid: ${(error as Error).message}`];
    }
    if (validate(answer.body)) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (error) =>
          `${answer.status} body${error.instancePath} ${error.message}` +
          (error.params && 'allowedValues' in error.params
            ? ` (${JSON.stringify(error.params.allowedValues)})`
            : ''),
      );
  };
}

type Node = Record<string, unknown>;

const COMPOSITION = ['$ref', 'allOf', 'anyOf', 'oneOf'];

/** A schema of a 3.1 description: null allowed by `type` is allowed by its `enum` too. */
function nullInEnum31(schema: Node): void {
  const { type, enum: values } = schema;
  if (Array.isArray(type) && type.includes('null') && Array.isArray(values) && !values.includes(null)) {
    values.push(null);
  }
}

/**
 * A schema of a 3.0 description: `nullable` counts only beside a `type` (3.0.3), and then its `enum`
 * must list null too. A schema of no type (any value, null included) needs no `nullable`.
 */
function nullInEnum30(schema: Node): void {
  if (schema.nullable !== true) return;
  if (schema.type === undefined && !COMPOSITION.some((key) => key in schema)) delete schema.nullable;
  const values = schema.enum;
  if (Array.isArray(values) && !values.includes(null)) values.push(null);
}

function visit(value: unknown, fix: (schema: Node) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item, fix);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  fix(value as Node);
  for (const inner of Object.values(value)) visit(inner, fix);
}

/**
 * Makes what zod-to-openapi generates for a nullable enum (`z.enum([...]).nullable()`) say what the
 * answers hold: its enum lists null, in both forms of a description. Changes the document in place.
 */
export function describeNulls<Document extends { openapi: string }>(document: Document): Document {
  visit(document, document.openapi.startsWith('3.0') ? nullInEnum30 : nullInEnum31);
  return document;
}

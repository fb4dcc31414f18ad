import { z } from 'zod';

/** A person's words in a write (a reason, a note, a message): trimmed, not empty, at most 2,000 chars. */
export const freeText = () => z.string().trim().min(1).max(2000);

/** One entry of the `{"detail": [...]}` validation error of the service desk's read endpoints. */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export type Location = 'query' | 'path' | 'body';

/** A single query or path value: repeated query parameters count by their last value. */
export function single(raw: unknown): string | undefined {
  if (Array.isArray(raw)) return single(raw[raw.length - 1]);
  return typeof raw === 'string' ? raw : undefined;
}

export interface IntegerBounds {
  min?: number;
  max?: number;
}

/** Parses an integer parameter; returns the number or the detail that explains why not. */
export function parseInteger(
  raw: string,
  loc: (string | number)[],
  bounds: IntegerBounds = {},
): number | ValidationDetail {
  const text = raw.trim();
  const value = Number(text);
  if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(value)) {
    return {
      loc,
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      type: 'int_parsing',
      input: raw,
    };
  }
  if (bounds.min !== undefined && value < bounds.min) {
    return {
      loc,
      msg: `Input should be greater than or equal to ${bounds.min}`,
      type: 'greater_than_equal',
      input: raw,
      ctx: { ge: bounds.min },
    };
  }
  if (bounds.max !== undefined && value > bounds.max) {
    return {
      loc,
      msg: `Input should be less than or equal to ${bounds.max}`,
      type: 'less_than_equal',
      input: raw,
      ctx: { le: bounds.max },
    };
  }
  return value;
}

/** A query parameter holding an integer (within bounds, when given), described as `integer` in OpenAPI. */
export function integerParameter(bounds: { min?: number; max?: number } = {}) {
  const { min, max } = bounds;
  return z
    .string()
    .transform((raw, context) => {
      const parsed = parseInteger(raw, [], bounds);
      if (typeof parsed === 'number') return parsed;
      context.addIssue({ code: 'custom', message: parsed.msg, params: { type: parsed.type }, input: raw });
      return z.NEVER;
    })
    .meta({
      type: 'integer',
      ...(min !== undefined && { minimum: min }),
      ...(max !== undefined && { maximum: max }),
    });
}

/** Pydantic's names for the expected types, so both validation shapes speak one vocabulary. */
const TYPE_NAMES: Record<string, [noun: string, type: string]> = {
  int: ['a valid integer', 'int_type'],
  number: ['a valid number', 'number_type'],
  string: ['a valid string', 'string_type'],
  boolean: ['a valid boolean', 'bool_type'],
  object: ['a valid object', 'model_type'],
  array: ['a valid list', 'list_type'],
};

function typeMismatch(expected: string): Pick<ValidationDetail, 'msg' | 'type'> {
  const [noun, type] = TYPE_NAMES[expected] ?? [`of type ${expected}`, `${expected}_type`];
  return { msg: `Input should be ${noun}`, type };
}

function describeIssue(issue: z.core.$ZodIssue): Pick<ValidationDetail, 'msg' | 'type' | 'ctx'> {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? { msg: 'Field required', type: 'missing' }
        : typeMismatch(issue.expected);
    case 'unrecognized_keys':
      return { msg: 'Extra inputs are not permitted', type: 'extra_forbidden' };
    case 'invalid_value':
      return {
        msg: `Input should be ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`,
        type: 'enum',
        ctx: { expected: issue.values },
      };
    case 'too_small':
      return {
        msg:
          issue.origin === 'string'
            ? `String should have at least ${issue.minimum} character(s)`
            : issue.message,
        type: issue.origin === 'string' ? 'string_too_short' : 'greater_than_equal',
        ctx: { min: issue.minimum },
      };
    case 'too_big':
      return {
        msg:
          issue.origin === 'string'
            ? `String should have at most ${issue.maximum} character(s)`
            : issue.message,
        type: issue.origin === 'string' ? 'string_too_long' : 'less_than_equal',
        ctx: { max: issue.maximum },
      };
    case 'custom':
      return { msg: issue.message, type: String(issue.params?.type ?? 'value_error') };
    default:
      return { msg: issue.message, type: issue.code };
  }
}

/**
 * Longer keys and values are shortened in a detail's location and message (`shortened`), and never
 * echoed as its input.
 */
const ECHOED_LENGTH = 200;

/** The longest message a detail answers: one that quotes a caller's text quotes it shortened. */
const MESSAGE_LENGTH = 1_000;

/** A caller's text as an answer may quote it: cut to `length` characters. */
export function shortened<Segment extends string | number>(
  segment: Segment,
  length = ECHOED_LENGTH,
): Segment {
  return typeof segment === 'string' && segment.length > length
    ? (`${segment.slice(0, length)}…` as Segment)
    : segment;
}

/** Inputs echoed back: small scalars only, never a long, large or nested value the caller sent. */
function echoable(input: unknown): boolean {
  if (typeof input === 'string') return input.length <= ECHOED_LENGTH;
  return input === null || typeof input === 'number' || typeof input === 'boolean';
}

/** Turns zod issues into validation details; an unknown key becomes one entry per key. */
export function zodDetails(error: z.ZodError, location: Location): ValidationDetail[] {
  return error.issues.flatMap((issue) => {
    const described = describeIssue(issue);
    const path = issue.path.map((segment) => shortened(segment as string | number));
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ loc: [location, ...path, shortened(key)], ...described }));
    }
    const detail: ValidationDetail = {
      loc: [location, ...path],
      ...described,
      msg: shortened(described.msg, MESSAGE_LENGTH),
    };
    if (issue.input !== undefined && echoable(issue.input)) detail.input = issue.input;
    return [detail];
  });
}

/** Details answered for one request at most: a huge invalid array must not make a huge answer. */
export const MAX_DETAILS = 20;

/** The first `MAX_DETAILS` details. */
export function firstDetails<Detail>(details: readonly Detail[]): Detail[] {
  return details.slice(0, MAX_DETAILS);
}

/** `title: Field required; extra: Extra inputs are not permitted` (the first `MAX_DETAILS` of them) */
export function summarise(details: readonly ValidationDetail[]): string {
  const more = details.length - MAX_DETAILS;
  return firstDetails(details)
    .map((detail) => `${detail.loc.slice(1).join('.') || detail.loc[0]}: ${detail.msg}`)
    .join('; ')
    .concat(more > 0 ? `; and ${more} more` : '');
}

import { z } from 'zod';
import { ApiError } from './errors';
import type { Filter, FilterOperator } from '../../projections/read-store';
import type { FilterDefinition } from './module';
import { integerParameter, parseInteger } from './validation';

/** Parameter and filter helpers every module's declaration uses. */

/** Accepts an enum value in any letter case and answers with its canonical spelling. */
export function caseInsensitiveEnum<const Values extends readonly [string, ...string[]]>(values: Values) {
  const byLowerCase = new Map(values.map((value) => [value.toLowerCase(), value]));
  return z
    .string()
    .transform((value, context) => {
      const canonical = byLowerCase.get(value.toLowerCase());
      if (canonical) return canonical as Values[number];
      context.addIssue({ code: 'invalid_value', values: [...values], input: value });
      return z.NEVER;
    })
    .meta({ type: 'string', enum: [...values] });
}

const BOOLEANS = new Map([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
]);

/** A query parameter holding `true`/`false` (or `1`/`0`), described as `boolean` in OpenAPI. */
export function booleanParameter() {
  return z
    .string()
    .transform((raw, context) => {
      const value = BOOLEANS.get(raw.trim().toLowerCase());
      if (value !== undefined) return value;
      context.addIssue({
        code: 'custom',
        message: 'Input should be a valid boolean: true or false',
        params: { type: 'bool_parsing' },
        input: raw,
      });
      return z.NEVER;
    })
    .meta({ type: 'boolean' });
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function isRealDate(text: string): boolean {
  const date = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text.slice(0, 10);
}

/** A calendar date `YYYY-MM-DD`, as a query parameter or a body field. */
export function dateString() {
  return z
    .string()
    .refine((text) => DATE.test(text) && isRealDate(text), {
      message: 'Input should be a valid date in the format YYYY-MM-DD',
      params: { type: 'date_parsing' },
    })
    .meta({ type: 'string', format: 'date' });
}

/** A date `YYYY-MM-DD` or a UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` (compared with stored timestamps). */
export function dateOrTimestamp() {
  return z
    .string()
    .refine((text) => (DATE.test(text) || TIMESTAMP.test(text)) && isRealDate(text), {
      message: 'Input should be a date (YYYY-MM-DD) or a UTC timestamp (YYYY-MM-DDTHH:MM:SSZ)',
      params: { type: 'datetime_parsing' },
    })
    .meta({ type: 'string', description: 'YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ' });
}

/** An exact-match filter on a field holding one of `values`, in any letter case. */
export function enumFilter(
  field: string,
  values: readonly [string, ...string[]],
  description = `Exact ${field.replace(/_/g, ' ')}`,
): FilterDefinition {
  return { field, schema: caseInsensitiveEnum(values), description: `${description}: ${values.join(', ')}` };
}

/** An exact-match filter on an integer field, usually the id of a parent record. */
export function idFilter(field: string, description: string): FilterDefinition {
  return { field, schema: integerParameter(), description };
}

export function booleanFilter(field: string, description: string): FilterDefinition {
  return { field, schema: booleanParameter(), description };
}

/** The integer id in a write's path (`/api/v1/milestones/:id`), or a 422 naming the parameter. */
export function pathId(params: Record<string, string>, name = 'id'): number {
  const id = parseInteger(params[name] ?? '', ['path', name]);
  if (typeof id !== 'number') throw new ApiError('validation_error', `${name}: ${id.msg}`, { issues: [id] });
  return id;
}

/**
 * The read-store filters of a module route's parsed query: one per parameter that is set, on the
 * document field it names (`{ competitor: 'competitor_id' }`), equal unless an operator is given.
 */
export function queryFilters<Query extends object>(
  query: Query,
  fields: Partial<Record<keyof Query, string | { field: string; op: FilterOperator }>>,
): Filter[] {
  const filters: Filter[] = [];
  for (const [param, target] of Object.entries(fields) as [
    keyof Query,
    string | { field: string; op: FilterOperator },
  ][]) {
    const value = query[param];
    if (value === undefined || value === null) continue;
    const { field, op } = typeof target === 'string' ? { field: target, op: 'eq' as const } : target;
    filters.push({ field, op, value: value as Filter['value'] });
  }
  return filters;
}

/**
 * A query parameter taking several values, of which any matches: repeated (`module=esm&module=crm`),
 * comma-separated (`module=esm,crm`) or both. The router hands its schema the list.
 */
export function listParameter(description: string) {
  return z
    .array(z.string())
    .optional()
    .meta({ description: `${description}; several: repeated, or separated by commas (any matches)` });
}

/** `limit` and `offset` of a module route's list, bounded and described like the kit's own lists. */
export function pageParameters({ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number }) {
  return {
    limit: integerParameter({ min: 1, max: maxLimit })
      .optional()
      .meta({ description: `Page size, 1 to ${maxLimit} (default ${defaultLimit})` }),
    offset: integerParameter({ min: 0 }).optional().meta({ description: 'Records to skip (default 0)' }),
  };
}

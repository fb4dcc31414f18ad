import { z } from 'zod';
import { ApiError, errorEnvelope } from './errors';
import { shortened, type ValidationDetail } from './validation';

/**
 * Query parameters are never ignored: a route answers a parameter it does not declare, or a single
 * one given twice, with an error naming it, rather than answering as if it had not been sent.
 */

/** How a declared parameter is given: once, or as a list (repeated, comma-separated, or both). */
export type Arity = 'single' | 'list';

/** The query parameters a route takes, by name. */
export type DeclaredParameters = ReadonlyMap<string, Arity>;

/** What a route declaring no query parameter takes: none. */
export const NO_PARAMETERS: DeclaredParameters = new Map();

function withoutWrappers(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable) {
    inner = inner.unwrap() as z.ZodType;
  }
  return inner;
}

/** The parameters a query schema declares; one whose value is an array is a list. */
export function declaredParameters(query?: Pick<z.ZodObject, 'shape'>): DeclaredParameters {
  return new Map(
    Object.entries(query?.shape ?? {}).map(([name, schema]) => [
      name,
      withoutWrappers(schema as z.ZodType) instanceof z.ZodArray ? 'list' : 'single',
    ]),
  );
}

export interface ParameterProblem {
  code: 'unknown_parameter' | 'repeated_parameter';
  parameter: string;
}

/** The first parameter of the query that the route does not take as given, if any. */
export function parameterProblem(
  query: URLSearchParams,
  declared: DeclaredParameters,
): ParameterProblem | undefined {
  let seen: Set<string> | undefined;
  for (const name of query.keys()) {
    const arity = declared.get(name);
    if (arity === undefined) return { code: 'unknown_parameter', parameter: name };
    if (arity === 'list') continue;
    seen ??= new Set();
    if (seen.has(name)) return { code: 'repeated_parameter', parameter: name };
    seen.add(name);
  }
  return undefined;
}

/** The query of a URL (`/path?a=1`), or none: a URL without one costs nothing to look at. */
export function queryOf(url: string): URLSearchParams | undefined {
  const start = url.indexOf('?');
  return start === -1 ? undefined : new URLSearchParams(url.slice(start + 1));
}

/** The problem with a URL's query parameters, if it has any. */
export function urlParameterProblem(url: string, declared: DeclaredParameters): ParameterProblem | undefined {
  const query = queryOf(url);
  return query && parameterProblem(query, declared);
}

/** 400 `unknown_parameter` or `repeated_parameter` in the error envelope, naming it and what is allowed. */
export function parameterError(
  { code, parameter }: ParameterProblem,
  declared: DeclaredParameters,
): ApiError {
  const name = shortened(parameter);
  const message =
    code === 'unknown_parameter'
      ? `Unknown query parameter: ${name}`
      : `Query parameter given more than once: ${name} takes one value`;
  return new ApiError(code, message, { parameter: name, allowed: [...declared.keys()] });
}

/** The same problem as an entry of the `{"detail": [...]}` validation error. */
export function parameterDetail({ code, parameter }: ParameterProblem): ValidationDetail {
  const loc = ['query', shortened(parameter)];
  return code === 'unknown_parameter'
    ? { loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }
    : { loc, msg: 'Input should be given once: this parameter takes one value', type: 'repeated_parameter' };
}

/**
 * What a refused parameter answers: 422 `{"detail": [...]}` on the reads of an API whose read errors
 * take that shape (the service desk's, as its interface specifies), else 400 with the error envelope.
 */
export function parameterRefusal(
  problem: ParameterProblem,
  declared: DeclaredParameters,
  shape: 'detail' | 'envelope',
): { status: number; body: object } {
  if (shape === 'detail') return { status: 422, body: { detail: [parameterDetail(problem)] } };
  return { status: 400, body: errorEnvelope(parameterError(problem, declared)) };
}

/**
 * The query as a route's schema takes it: each single parameter's value, and each list's values,
 * whether repeated (`module=esm&module=crm`) or comma-separated (`module=esm,crm`); empty items are
 * dropped, and a list left empty is absent.
 */
export function queryValues(
  query: URLSearchParams | undefined,
  declared: DeclaredParameters,
): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  if (!query) return values;
  for (const [name, arity] of declared) {
    if (arity === 'single') {
      const value = query.get(name);
      if (value !== null) values[name] = value;
      continue;
    }
    const items = query
      .getAll(name)
      .flatMap((value) => value.split(','))
      .map((item) => item.trim())
      .filter((item) => item !== '');
    if (items.length > 0) values[name] = items;
  }
  return values;
}

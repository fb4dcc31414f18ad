import { whenReady, type Awaitable } from '../../awaitable';
import type { Document, DocumentId, Filter, FindQuery, ReadStore } from '../../projections/read-store';
import { listOrder } from './list-order';
import { ApiError, ERROR_STATUS, errorEnvelope, validationError } from './errors';
import type { Caller, ModuleDefinition, ResourceDefinition } from './module';
import { encodePage } from '../../projections/page-json';
import { namesOf, withNames, type NameReferences } from './record-names';
import { firstDetails, parseInteger, shortened, zodDetails, type ValidationDetail } from './validation';

/** A read's answer: its status and its JSON, encoded. */
export interface ReadAnswer {
  status: number;
  body: Buffer;
}

const json = (status: number, value: unknown): ReadAnswer => ({
  status,
  body: Buffer.from(JSON.stringify(value)),
});

const ok = (body: Buffer): ReadAnswer => ({ status: 200, body });

/** Query parameters as parsed from the URL, each given once (the read router refuses a repeated one). */
export type QueryParameters = Pick<URLSearchParams, 'get'>;

/** A read's error answer: its status and the error envelope. */
export function errorAnswer(apiError: ApiError): ReadAnswer {
  return json(ERROR_STATUS[apiError.code], errorEnvelope(apiError));
}

export function invalidParameters(module: ModuleDefinition, details: ValidationDetail[]): ReadAnswer {
  if (module.readErrors === 'detail') return json(422, { detail: firstDetails(details) });
  return errorAnswer(validationError(details));
}

/** Parses an id path parameter by the resource's id kind. */
export function parseItemId(
  module: ModuleDefinition,
  resource: Pick<ResourceDefinition, 'collection'>,
  raw: string,
): DocumentId | ValidationDetail {
  if (resource.collection.idKind === 'string') return raw;
  return parseInteger(raw, ['path', module.itemParam]);
}

/** `GET /api/v1/<resource>`: a page of documents with the exact total. */
export function readList(
  module: ModuleDefinition,
  resource: ResourceDefinition,
  readStore: ReadStore,
  query: QueryParameters,
  scope?: Filter,
): Awaitable<ReadAnswer> {
  const details: ValidationDetail[] = [];
  const integer = (name: string, fallback: number, min: number, max?: number): number => {
    const raw = query.get(name) ?? undefined;
    if (raw === undefined) return fallback;
    const parsed = parseInteger(raw, ['query', name], { min, max });
    if (typeof parsed === 'number') return parsed;
    details.push(parsed);
    return fallback;
  };
  const limit = integer('limit', module.list.defaultLimit, 1, module.list.maxLimit);
  const offset = integer('offset', 0, 0);
  const { sort, after } = listOrder(
    resource.collection,
    {
      sort: query.get('sort') ?? undefined,
      after: query.get('after') ?? undefined,
      offset: query.get('offset'),
    },
    details,
  );
  const filters: Filter[] = scope ? [scope] : [];
  for (const [param, filter] of Object.entries(resource.filters ?? {})) {
    const raw = query.get(param) ?? undefined;
    if (raw === undefined || raw === '') continue;
    const parsed = filter.schema.safeParse(raw, { reportInput: true });
    if (parsed.success)
      filters.push(
        filter.where?.(parsed.data) ?? { field: filter.field, op: filter.op ?? 'eq', value: parsed.data },
      );
    else
      details.push(
        ...zodDetails(parsed.error, 'query').map((detail) => ({ ...detail, loc: ['query', param] })),
      );
  }
  if (details.length > 0) return invalidParameters(module, details);

  const q = query.get('q')?.trim() || undefined;
  const find = { filters, q, limit, offset, sort, after };
  if (resource.names) return namedList(resource.collection.name, resource.names, readStore, find);
  return whenReady(readStore.findJson(resource.collection.name, find), ok);
}

/**
 * A page of a resource whose records carry names they point to: each record's JSON as stored, with
 * its names written after its own fields (as `withNames` adds them).
 */
async function namedList(
  collection: string,
  references: NameReferences,
  readStore: ReadStore,
  find: FindQuery,
): Promise<ReadAnswer> {
  const page = await readStore.find(collection, find);
  const records = page.items.map((item) => JSON.parse(item) as Document);
  const names = await namesOf(readStore, references, records);
  const items = page.items.map(
    (item, index) => `${item.slice(0, -1)},${JSON.stringify(names[index]).slice(1)}`,
  );
  return ok(encodePage({ ...page, items }, find).body);
}

/** The filter confining a caller's reads of a resource to their scope, if the resource is scoped. */
export function scopeFilter(resource: ResourceDefinition, caller: Caller): Filter | undefined {
  if (!resource.scopeField) return undefined;
  return { field: resource.scopeField, op: 'eq', value: caller.scope ?? null };
}

/** `GET /api/v1/<resource>/{id}`: one document, or 404. */
export function readItem(
  module: ModuleDefinition,
  resource: ResourceDefinition,
  readStore: ReadStore,
  rawId: string,
  scope?: Filter,
): Awaitable<ReadAnswer> {
  const id = parseItemId(module, resource, rawId);
  if (typeof id === 'object') return invalidParameters(module, [id]);
  return whenReady(readStore.get(resource.collection.name, id), (doc) => {
    // A record of another scope is as absent as one that does not exist.
    if (doc === null || (scope && (JSON.parse(doc) as Document)[scope.field] !== scope.value)) {
      return errorAnswer(new ApiError('not_found', `${resource.name} ${shortened(rawId)} not found`));
    }
    if (!resource.names) return { status: 200, body: Buffer.from(doc) };
    return withNames(readStore, resource.names, [JSON.parse(doc) as Document]).then(([named]) =>
      json(200, named),
    );
  });
}

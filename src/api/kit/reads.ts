import type { RequestHandler, Response } from 'express';
import type { DocumentId, Filter, ReadStore } from '../../projections/read-store';
import { ApiError } from './errors';
import type { ModuleDefinition, ResourceDefinition } from './module';
import { parseInteger, single, summarise, zodDetails, type ValidationDetail } from './validation';

function rejectParameters(module: ModuleDefinition, res: Response, details: ValidationDetail[]): void {
  if (module.readErrors === 'detail') {
    res.status(422).json({ detail: details });
    return;
  }
  throw new ApiError('validation_error', summarise(details), { issues: details });
}

/** Parses an id path parameter by the resource's id kind. */
export function parseItemId(
  module: ModuleDefinition,
  resource: ResourceDefinition,
  raw: string,
): DocumentId | ValidationDetail {
  if (resource.collection.idKind === 'string') return raw;
  return parseInteger(raw, ['path', module.itemParam]);
}

export function listHandler(
  module: ModuleDefinition,
  resource: ResourceDefinition,
  readStore: ReadStore,
): RequestHandler {
  const { defaultLimit, maxLimit } = module.list;
  const filterEntries = Object.entries(resource.filters ?? {});
  return async (req, res) => {
    const details: ValidationDetail[] = [];
    const integer = (name: string, fallback: number, min: number, max?: number): number => {
      const raw = single(req.query[name]);
      if (raw === undefined) return fallback;
      const parsed = parseInteger(raw, ['query', name], { min, max });
      if (typeof parsed === 'number') return parsed;
      details.push(parsed);
      return fallback;
    };
    const limit = integer('limit', defaultLimit, 1, maxLimit);
    const offset = integer('offset', 0, 0);
    const filters: Filter[] = [];
    for (const [param, filter] of filterEntries) {
      const raw = single(req.query[param]);
      if (raw === undefined || raw === '') continue;
      const parsed = filter.schema.safeParse(raw, { reportInput: true });
      if (parsed.success) filters.push({ field: filter.field, op: filter.op ?? 'eq', value: parsed.data });
      else
        details.push(
          ...zodDetails(parsed.error, 'query').map((detail) => ({ ...detail, loc: ['query', param] })),
        );
    }
    if (details.length > 0) return rejectParameters(module, res, details);

    const q = single(req.query.q)?.trim() || undefined;
    const { total, items } = await readStore.find(resource.collection.name, { filters, q, limit, offset });
    res
      .type('application/json')
      .send(`{"data":[${items.join(',')}],"meta":{"total":${total},"limit":${limit},"offset":${offset}}}`);
  };
}

export function getHandler(
  module: ModuleDefinition,
  resource: ResourceDefinition,
  readStore: ReadStore,
): RequestHandler {
  return async (req, res) => {
    const raw = req.params[module.itemParam] as string;
    const id = parseItemId(module, resource, raw);
    if (typeof id === 'object') return rejectParameters(module, res, [id]);
    const doc = await readStore.get(resource.collection.name, id);
    if (doc === null) throw new ApiError('not_found', `${resource.name} ${raw} not found`);
    res.type('application/json').send(doc);
  };
}

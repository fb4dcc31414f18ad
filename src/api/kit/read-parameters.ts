import { z } from 'zod';
import type { CollectionDefinition } from '../../projections/read-store';
import { orderParameters } from './list-order';
import type { ModuleDefinition, ResourceDefinition } from './module';
import { TimeTravelQuery } from './time-travel';

/**
 * The query parameters of the kit's reads, declared once: the read router takes these and no others,
 * and the descriptions describe them.
 */

/** `ref, title, form_data (its values)`. */
function searchedFields({ searchFields, jsonSearchFields }: CollectionDefinition): string {
  return searchFields
    .map((field) => (jsonSearchFields?.includes(field) ? `${field} (its values)` : field))
    .join(', ');
}

/** What `GET /api/v1/<resource>` takes: paging, order, `q` and the resource's filters. */
export function listQuery(module: ModuleDefinition, resource: ResourceDefinition) {
  const { defaultLimit, maxLimit } = module.list;
  const filters = Object.fromEntries(
    Object.entries(resource.filters ?? {}).map(([param, filter]) => [
      param,
      filter.schema.optional().meta({ description: filter.description }),
    ]),
  );
  return z.object({
    limit: z.number().int().min(1).max(maxLimit).default(defaultLimit).optional(),
    offset: z.number().int().min(0).default(0).optional(),
    q: z
      .string()
      .optional()
      .meta({
        description: `Case-insensitive substring search in: ${searchedFields(resource.collection)}`,
      }),
    ...orderParameters(resource.collection),
    ...filters,
  });
}

/**
 * What `GET /api/v1/<resource>/{id}` takes: the points in time to read the record as of. A parameter
 * declared here is taken by the read router (anything else is refused) and described on every by-id read.
 */
export const ItemQuery = TimeTravelQuery;

import { decodeCursor, pageOrder, sortableFields, sortedField, sortName } from '../../projections/page-order';
import { z } from 'zod';
import type { CollectionDefinition, FindQuery, PagePosition, SortKey } from '../../projections/read-store';
import { validationError } from './errors';
import type { ValidationDetail } from './validation';

/**
 * A list's `sort` and `after` parameters: `sort=field,-field` over the fields the collection indexes
 * (and the id), and the cursor a page gave as `meta.next`.
 */

/** `sort`: its keys, or the detail naming the fields a list of the collection sorts on. */
export function parseSort(raw: string, collection: CollectionDefinition): SortKey[] | ValidationDetail {
  const allowed = sortableFields(collection);
  const keys = raw.split(',').map((part) => {
    const text = part.trim();
    const descending = text.startsWith('-');
    return { field: descending ? text.slice(1) : text, descending };
  });
  const unknown = keys.find((key) => !allowed.includes(key.field));
  const repeated = keys.find((key, index) => keys.findIndex((other) => other.field === key.field) < index);
  if (unknown || repeated) {
    return {
      loc: ['query', 'sort'],
      msg: unknown
        ? `Cannot sort on '${unknown.field}': sort on ${allowed.join(', ')} (a leading - for descending, comma-separated)`
        : `'${repeated?.field}' is named twice`,
      type: 'sort_field',
      input: raw,
      ctx: { allowed },
    };
  }
  return keys.map((key) => ({ ...key, field: sortedField(collection, key.field) }));
}

/** A list's `sort` and `after` as given, and whether `offset` was. */
export interface OrderParameters {
  sort?: string;
  after?: string;
  offset?: unknown;
}

/** A list's `sort` and `after` as the read store takes them; what is wrong with them is added to `details`. */
export function listOrder(
  collection: CollectionDefinition,
  given: OrderParameters,
  details: ValidationDetail[],
): Pick<FindQuery, 'sort' | 'after'> {
  const sort = given.sort === undefined ? undefined : parseSort(given.sort, collection);
  if (sort !== undefined && !Array.isArray(sort)) {
    details.push(sort);
    return {};
  }
  if (given.after === undefined) return { sort };
  const after = parseAfter(
    given.after,
    sort,
    collection,
    given.offset !== undefined && given.offset !== null,
  );
  if ('loc' in after) {
    details.push(after);
    return {};
  }
  return { sort, after };
}

/** `listOrder` for a route's parsed query: 422 naming what is wrong. */
export function routeOrder(
  collection: CollectionDefinition,
  given: OrderParameters,
): Pick<FindQuery, 'sort' | 'after'> {
  const details: ValidationDetail[] = [];
  const order = listOrder(collection, given, details);
  if (details.length > 0) throw validationError(details);
  return order;
}

/** `after`: the position the cursor names in the list's order, or why it cannot be used here. */
export function parseAfter(
  raw: string,
  sort: readonly SortKey[] | undefined,
  collection: CollectionDefinition,
  offsetGiven: boolean,
): PagePosition | ValidationDetail {
  const invalid = (msg: string): ValidationDetail => ({
    loc: ['query', 'after'],
    msg,
    type: 'cursor',
    input: raw,
  });
  if (offsetGiven) return invalid('Give either after (a cursor) or offset, not both');
  const decoded = decodeCursor(raw, pageOrder(sort), collection.idKind, (field) =>
    sortName(collection, field),
  );
  return 'error' in decoded ? invalid(decoded.error) : decoded;
}

/** What a list's description says of its `sort`. */
const sortDescription = (collection: CollectionDefinition) =>
  `Comma-separated fields to order by, a leading - for descending: ${sortableFields(collection).join(', ')}. ` +
  'Ties are broken by id, in the direction of the last field; default: id.';

const AFTER_DESCRIPTION =
  "The cursor of the page before (its meta.next): the page of the results after that one's last, in the " +
  'same sort. A walk by cursor never skips or repeats a record that matched throughout. Not with offset.';

/** The `sort` and `after` query parameters of a list of the collection, described. */
export const orderParameters = (collection: CollectionDefinition) => ({
  sort: z
    .string()
    .optional()
    .meta({ description: sortDescription(collection) }),
  after: z.string().optional().meta({ description: AFTER_DESCRIPTION }),
});

/** A list answer's `meta`. */
export const PageMeta = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  next: z
    .string()
    .nullable()
    .meta({ description: 'The cursor of the next page (pass it as after), or null on the last page' }),
});

import { z } from 'zod';
import { MARKET_CODES, marketCode } from '../../market/markets';
import { marketCollections } from '../../projections/market';
import type { CollectionDefinition, FindQuery } from '../../projections/read-store';
import { orderParameters, PageMeta, routeOrder, type OrderParameters } from '../kit/list-order';
import { withRecordTimes } from '../kit/record-times';
import { integerParameter, shortened } from '../kit/validation';

/** A market code, one of the 30 EEA markets, in any letter case; anything else is a 422. */
export const countryParameter = () =>
  z
    .string()
    .transform((raw, context) => {
      const code = marketCode(raw);
      if (code) return code;
      context.addIssue({
        code: 'custom',
        message: `Unknown market ${JSON.stringify(shortened(raw))}: use one of the 30 EEA market codes (${MARKET_CODES.join(', ')})`,
        params: { type: 'enum' },
        input: raw,
      });
      return z.NEVER;
    })
    .meta({ type: 'string', enum: [...MARKET_CODES], description: 'Market code (ISO 3166-1 alpha-2)' });

const bounded = (min: number, max?: number) =>
  integerParameter().pipe(max === undefined ? z.number().min(min) : z.number().min(min).max(max));

/** `limit` (1..max, default 50) and `offset` (>= 0, default 0). */
export const paging = (maxLimit = 200) => ({
  limit: bounded(1, maxLimit)
    .optional()
    .meta({ type: 'integer', description: `Page size, 1 to ${maxLimit} (default 50)` }),
  offset: bounded(0).optional().meta({ type: 'integer', description: 'Records to skip (default 0)' }),
});

export const pageOf = (query: { limit?: number; offset?: number }) => ({
  limit: query.limit ?? 50,
  offset: query.offset ?? 0,
});

const definitionOf = (collection: string) =>
  marketCollections.find((definition) => definition.name === collection) as CollectionDefinition;

/** `sort` and `after` of a list of the collection. */
export const ordering = (collection: string) => orderParameters(definitionOf(collection));

/** A list's page and order as the read store takes them; 422 for a bad `sort` or `after`. */
export const storedPage = (
  collection: string,
  query: OrderParameters & { limit?: number; offset?: number },
): Pick<FindQuery, 'limit' | 'offset' | 'sort' | 'after'> => ({
  ...pageOf(query),
  ...routeOrder(definitionOf(collection), query),
});

/** The suite's list shape: `{data, meta: {total, limit, offset, next}}`. */
export const listSchema = (record: z.ZodType, id: string) =>
  z
    .object({
      data: z.array(withRecordTimes(record)),
      meta: PageMeta,
    })
    .meta({ id });

export const listBody = <T>(
  data: readonly T[],
  total: number,
  { limit, offset }: { limit: number; offset: number },
  next: string | null = null,
) => ({
  data,
  meta: { total, limit, offset, next },
});

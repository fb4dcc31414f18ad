import type { Document, Filter } from './read-store';

const NON_ASCII = /[\u0080-\uffff]/;
export const isAscii = (text: string) => !NON_ASCII.test(text);

type SqlValue = string | number | null;

/** A field's value as SQLite's `json_extract` gives it, or undefined for a list or an object (JSON text). */
function extracted(doc: Document, field: string): SqlValue | undefined {
  const value = doc[field];
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return Number(value);
  if (typeof value === 'string' || typeof value === 'number') return value;
  return undefined;
}

/**
 * Whether the embedded read store's SQL (`sqlite-query-plan.ts`, `planFind`) keeps `doc` under the filter,
 * or undefined where JavaScript cannot be sure to judge alike: a list or object value, values of two
 * types compared for order, or strings outside ASCII (SQLite orders UTF-8 bytes, JavaScript UTF-16 units).
 */
export function passesFilter(doc: Document, filter: Filter): boolean | undefined {
  const stored = extracted(doc, filter.field);
  if (stored === undefined) return undefined;
  // `IS NULL` for eq, and no other comparison with NULL holds.
  if (filter.value === null) return filter.op === 'eq' && stored === null;
  if (stored === null) return false;
  const wanted = typeof filter.value === 'boolean' ? Number(filter.value) : filter.value;
  if (filter.op === 'eq') return stored === wanted;
  if (typeof stored !== typeof wanted) return undefined;
  if (typeof stored === 'string' && !(isAscii(stored) && isAscii(wanted as string))) return undefined;
  switch (filter.op) {
    case 'lt':
      return stored < wanted;
    case 'lte':
      return stored <= wanted;
    case 'gt':
      return stored > wanted;
    case 'gte':
      return stored >= wanted;
  }
}

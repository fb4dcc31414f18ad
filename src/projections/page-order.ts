import type {
  CollectionDefinition,
  Document,
  DocumentId,
  PagePosition,
  SortKey,
  SortValue,
} from './read-store';

/** The document id, as a key of a list's order. */
export const ID_KEY = 'id';
/** The times every served record carries (see `stamped-evolve.ts`): lists sort on them too. */
export const STAMP_FIELDS = ['created_at', 'updated_at'] as const;

/** The fields each adapter indexes, so that a collection's lists can be filtered and sorted on them. */
export function indexedFields(definition: CollectionDefinition): string[] {
  const sorted = Object.values(definition.sortFields ?? {});
  return [...new Set([...definition.filterFields, ...sorted, ...STAMP_FIELDS])];
}

/** The names a list of the collection may sort on: its filter fields, its sort fields, the times and the id. */
export function sortableFields(definition: CollectionDefinition): string[] {
  const named = Object.keys(definition.sortFields ?? {});
  return [...new Set([...definition.filterFields, ...named, ...STAMP_FIELDS, ID_KEY])];
}

/** The field a sort name orders by: a sort field's own, else the field of that name. */
export const sortedField = (definition: CollectionDefinition, name: string): string =>
  definition.sortFields?.[name] ?? name;

/** The sort name of the field a sort orders by, as a list's `sort` gives it (`priority` for `priority_rank`). */
export const sortName = (definition: CollectionDefinition, field: string): string =>
  Object.entries(definition.sortFields ?? {}).find(([, sorted]) => sorted === field)?.[0] ?? field;

/**
 * The order a list's results are in: the keys asked for, then the id, in the direction of the last key
 * (so that one index of a field and the id serves a sort on that field either way). Nothing asked: by id.
 */
export function pageOrder(sort: readonly SortKey[] = []): SortKey[] {
  const end = sort.findIndex((key) => key.field === ID_KEY);
  if (end >= 0) return sort.slice(0, end + 1);
  return [...sort, { field: ID_KEY, descending: sort.at(-1)?.descending ?? false }];
}

/** Whether the order is the default one, by id ascending. */
export const inIdOrder = (order: readonly SortKey[]) =>
  order.length === 1 && order[0]?.field === ID_KEY && !order[0].descending;

/** `status,-id`: the order as the `sort` parameter writes it. */
export const orderText = (order: readonly SortKey[]) =>
  order.map((key) => `${key.descending ? '-' : ''}${key.field}`).join(',');

/** A document's value of a key other than the id, as a cursor keeps it: anything not a scalar is null. */
function sortValue(doc: Document, field: string): SortValue {
  const value = doc[field];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
}

/** Where the document stands in the order, for the page after it. */
export function positionOf(order: readonly SortKey[], id: DocumentId, docJson: string): PagePosition {
  const doc = JSON.parse(docJson) as Document;
  return { values: order.slice(0, -1).map((key) => sortValue(doc, key.field)), id };
}

/** The opaque `after` cursor: base64url of the order it belongs to, the position's values and id. */
export function encodeCursor(order: readonly SortKey[], { values, id }: PagePosition): string {
  return Buffer.from(JSON.stringify([orderText(order), values, id])).toString('base64url');
}

const isSortValue = (value: unknown): value is SortValue =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * The position a cursor names, or why it cannot be used with this order: it was made under another
 * `sort` (named as the list's `sort` names its fields: `named`), or it is not a cursor of this
 * collection's lists.
 */
export function decodeCursor(
  cursor: string,
  order: readonly SortKey[],
  idKind: CollectionDefinition['idKind'],
  named: (field: string) => string = (field) => field,
): PagePosition | { error: string } {
  const malformed = { error: 'Not a cursor this list gave (meta.next of a page)' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return malformed;
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) return malformed;
  const [sort, values, id] = decoded as unknown[];
  if (typeof sort !== 'string' || !Array.isArray(values) || !values.every(isSortValue)) return malformed;
  if (typeof id !== (idKind === 'integer' ? 'number' : 'string')) return malformed;
  const expected = orderText(order);
  if (sort !== expected) {
    const inNames = (text: string) =>
      text
        .split(',')
        .map((key) => key.replace(/^(-?)(.*)$/, (_whole, sign: string, field: string) => sign + named(field)))
        .join(',');
    return {
      error: `The cursor belongs to sort=${inNames(sort)}, not to this list's sort=${inNames(expected)}`,
    };
  }
  if (values.length !== order.length - 1) return malformed;
  return { values, id: id as DocumentId };
}

/** How an adapter writes the conditions of a keyset page in its query language. */
export interface KeysetTerms<T> {
  compare(key: SortKey, op: '=' | '<' | '>' | '>=', value: string | number | boolean | DocumentId): T;
  isNull(key: SortKey, isNull: boolean): T;
  all(terms: T[]): T;
  any(terms: T[]): T;
  nothing: T;
}

/**
 * The documents after `position` in `order`: `(k1, k2, .., id) > (v1, v2, .., id)`, each key in its
 * direction, NULL before every value ascending and after every value descending (as SQLite and MongoDB
 * both order them).
 */
export function afterPosition<T>(
  order: readonly SortKey[],
  { values, id }: PagePosition,
  terms: KeysetTerms<T>,
): T {
  const valueOf = (index: number): SortValue | DocumentId =>
    index < values.length ? (values[index] as SortValue) : id;
  const equal = (key: SortKey, value: SortValue | DocumentId) =>
    value === null ? terms.isNull(key, true) : terms.compare(key, '=', value);
  const beyond = (key: SortKey, value: SortValue | DocumentId): T | undefined => {
    if (value === null) return key.descending ? undefined : terms.isNull(key, false);
    const past = terms.compare(key, key.descending ? '<' : '>', value);
    return key.descending && key.field !== ID_KEY ? terms.any([past, terms.isNull(key, true)]) : past;
  };
  const branches: T[] = [];
  order.forEach((key, index) => {
    const past = beyond(key, valueOf(index));
    if (past === undefined) return;
    const before = order.slice(0, index).map((earlier, at) => equal(earlier, valueOf(at)));
    branches.push(before.length ? terms.all([...before, past]) : past);
  });
  if (branches.length === 0) return terms.nothing;
  return branches.length === 1 ? (branches[0] as T) : terms.any(branches);
}

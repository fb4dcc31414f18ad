import type { Filter as MongoFilter, Sort } from 'mongodb';
import { ID_KEY, type KeysetTerms } from './page-order';
import { jsonNestsDeeperThan } from '../json-nesting';
import {
  searchText,
  serialisedOrUnstorable,
  type CollectionDefinition,
  type Document,
  type DocumentId,
  type FindQuery,
  type PagePosition,
  type ScanQuery,
  type SortKey,
} from './read-store';

/**
 * A read-model document as MongoDB keeps it: the projector's document, and its lower-cased search
 * text, which `q` matches as the SQLite store matches its own.
 */
export interface StoredDocument {
  _id: DocumentId;
  doc: Document;
  text: string;
}

/** Matches no document: a comparison with null is never true, as in SQL. */
const NOTHING: MongoFilter<StoredDocument> = { _id: { $in: [] } };

export function collectionName(collection: string): string {
  return `rm.${collection}`;
}

/** The id as the store keys it: numeric text names an integer id, as SQLite's INTEGER key takes it. */
export function documentKey(definition: CollectionDefinition, id: DocumentId): DocumentId {
  if (definition.idKind === 'string') return String(id);
  return typeof id === 'string' && /^-?\d+$/.test(id) ? Number(id) : id;
}

/** MongoDB refuses documents nested deeper than this; a stored document wraps the projector's in one level. */
const BSON_MAX_NESTING = 100;

/** The document as its JSON text reads back: no `undefined`, no Date or other class instance. */
export function storedDocument(definition: CollectionDefinition, doc: Document): Omit<StoredDocument, '_id'> {
  const json = JSON.stringify(doc);
  if (jsonNestsDeeperThan(json, BSON_MAX_NESTING - 1)) {
    throw new Error(`nested deeper than MongoDB stores (${BSON_MAX_NESTING} levels)`);
  }
  const plain = JSON.parse(json) as Document;
  return { doc: plain, text: searchText(definition, plain) };
}

/** `storedDocument`, or `UnstorableDocument` when the document cannot be stored. */
export const storable = (definition: CollectionDefinition, id: DocumentId, doc: Document) =>
  serialisedOrUnstorable(definition.name, id, () => storedDocument(definition, doc));

/** The user's text as a regular expression that matches exactly that text (NUL included). */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\0/g, '\\x00');
}

export function findFilter(
  definition: CollectionDefinition,
  query: FindQuery | ScanQuery,
): MongoFilter<StoredDocument> {
  const clauses: MongoFilter<StoredDocument>[] = [];
  for (const filter of query.filters ?? []) {
    if (!definition.filterFields.includes(filter.field)) {
      throw new Error(`${definition.name} cannot filter on ${filter.field}`);
    }
    const path = `doc.${filter.field}`;
    if (filter.value === null) clauses.push(filter.op === 'eq' ? { [path]: null } : NOTHING);
    else clauses.push({ [path]: { [`$${filter.op}`]: filter.value } });
  }
  const q = query.q?.toLowerCase();
  if (q) clauses.push({ text: { $regex: escapeRegex(q) } });
  if (clauses.length === 0) return {};
  return clauses.length === 1 ? (clauses[0] as MongoFilter<StoredDocument>) : { $and: clauses };
}

const keyPath = (key: SortKey) => (key.field === ID_KEY ? '_id' : `doc.${key.field}`);

/** A list's order as MongoDB sorts: each key's path, then the id (see `pageOrder`). */
export const mongoSort = (order: readonly SortKey[]): Sort =>
  Object.fromEntries(order.map((key) => [keyPath(key), key.descending ? -1 : 1]));

/** A keyset position with its id as the store keys it. */
export const keyedPosition = (definition: CollectionDefinition, position: PagePosition): PagePosition => ({
  ...position,
  id: documentKey(definition, position.id),
});

type Clause = MongoFilter<StoredDocument>;
const OPERATORS = { '=': '$eq', '<': '$lt', '>': '$gt', '>=': '$gte' } as const;

/**
 * The conditions of a keyset page as MongoDB filters. `{ field: null }` matches a missing field too,
 * which SQLite's `json_extract` reads as NULL.
 */
export const MONGO_KEYSET: KeysetTerms<Clause> = {
  compare: (key, op, value) => ({ [keyPath(key)]: { [OPERATORS[op]]: value } }),
  isNull: (key, isNull) => ({ [keyPath(key)]: isNull ? null : { $ne: null } }),
  all: (terms) => ({ $and: terms }),
  any: (terms) => ({ $or: terms }),
  nothing: NOTHING,
};

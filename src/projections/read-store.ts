import type { Awaitable } from '../awaitable';
export type DocumentId = string | number;
export type Document = Record<string, unknown>;

export interface CollectionDefinition {
  /** Unique across the suite, e.g. `esm.requests`. */
  name: string;
  idKind: 'integer' | 'string';
  /** Fields whose text the case-insensitive substring search `q` looks in. */
  searchFields: readonly string[];
  /** Fields that `find` may filter on; each gets an index. */
  filterFields: readonly string[];
}

export type FilterOperator = 'eq' | 'lt' | 'lte' | 'gt' | 'gte';

export interface Filter {
  field: string;
  op: FilterOperator;
  value: string | number | boolean | null;
}

export interface FindQuery {
  filters?: readonly Filter[];
  q?: string;
  limit: number;
  offset: number;
}

/** Documents travel as their JSON text, so a read is served without parsing and re-serialising. */
export interface FindResult {
  total: number;
  items: string[];
}

export interface DocumentChange {
  collection: string;
  id: DocumentId;
  /** `null` deletes the document. */
  doc: Document | null;
}

/** The ReadStore port: disposable read models that projectors build from the log. */
export interface ReadStore {
  defineCollections(definitions: readonly CollectionDefinition[]): Promise<void>;
  /** Adapters that answer synchronously may return the value itself (see `Awaitable`). */
  get(collection: string, id: DocumentId): Awaitable<string | null>;
  find(collection: string, query: FindQuery): Awaitable<FindResult>;
  /** Loads documents for a projector to evolve; missing ids are absent from the map. */
  load(collection: string, ids: readonly DocumentId[]): Promise<Map<DocumentId, Document>>;
  checkpoints(): Promise<Map<string, number>>;
  /** Writes the changes and the projectors' new checkpoints atomically. */
  commit(changes: readonly DocumentChange[], checkpoints: ReadonlyMap<string, number>): Promise<void>;
  /**
   * Drops every document and the named projectors' checkpoints (for `suite rebuild`); other
   * checkpoints kept here (the job triggers') stay.
   */
  reset(projectors: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** The lower-cased text of a document's search fields, one per line: what `q` looks in, in every adapter. */
export function searchText(definition: CollectionDefinition, doc: Document): string {
  return definition.searchFields
    .map((field) => doc[field])
    .filter((value) => value !== null && value !== undefined)
    .join('\n')
    .toLowerCase();
}

import type { Awaitable } from '../awaitable';
import { MAX_JSON_NESTING, jsonNestsDeeperThan } from '../json-nesting';
export type DocumentId = string | number;
export type Document = Record<string, unknown>;

export interface CollectionDefinition {
  /** Unique across the suite, e.g. `esm.requests`. */
  name: string;
  idKind: 'integer' | 'string';
  /** Fields whose text the case-insensitive substring search `q` looks in. */
  searchFields: readonly string[];
  /**
   * Those of `searchFields` that hold a JSON document as text (a form's answers): `q` looks in its
   * values, not in its keys and punctuation, which every answer to the same form shares.
   */
  jsonSearchFields?: readonly string[];
  /** Fields that `find` may filter on; each gets an index. */
  filterFields: readonly string[];
  /**
   * What a list's `sort` takes beyond the filter fields: each name, and the field it orders by (each
   * gets an index). A field ordered other than by its text is sorted by one the projection stores for
   * it: `priority` by `priority_rank`, so that Urgent comes after High, not before Low.
   */
  sortFields?: Readonly<Record<string, string>>;
}

export type FilterOperator = 'eq' | 'lt' | 'lte' | 'gt' | 'gte';

export interface Filter {
  field: string;
  op: FilterOperator;
  value: string | number | boolean | null;
}

/** One key of a list's order: a field of the documents (`id`: the document id), ascending or descending. */
export interface SortKey {
  field: string;
  descending: boolean;
}

export type SortValue = string | number | boolean | null;

/** Where a keyset page starts: after the document with these values of the order's keys and this id. */
export interface PagePosition {
  /** One per key of the order before the id. */
  values: readonly SortValue[];
  id: DocumentId;
}

export interface FindQuery {
  filters?: readonly Filter[];
  q?: string;
  limit: number;
  offset: number;
  /**
   * The order of the results, on the fields the collection indexes (`sortableFields`); absent: by id.
   * The id ends every order (see `pageOrder`).
   */
  sort?: readonly SortKey[];
  /** Only the results after this position of the order (a keyset page, see `afterPosition`). */
  after?: PagePosition;
}

/** A page of a keyset read: the documents after the id `after` (absent: from the first), in id order. */
export interface ScanQuery {
  filters?: readonly Filter[];
  q?: string;
  after?: DocumentId;
  limit: number;
}

export interface ScannedDocument {
  id: DocumentId;
  /** Its JSON text. */
  doc: string;
}

/** Documents travel as their JSON text, so a read is served without parsing and re-serialising. */
export interface FindResult {
  total: number;
  items: string[];
  /** The cursor of the page after this one (`encodeCursor`), or null when no result follows. */
  next: string | null;
}

/**
 * A checkpoint a commit moves: from where its batch started (absent: 0) to where it ends. The commit is
 * a compare-and-set: another process that moved the checkpoint meanwhile makes it fail, writing nothing.
 */
export interface CheckpointMove {
  from: number;
  to: number;
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
  /** The same page as the encoded body of a list answer (see `encodePage`), sent as it is. */
  findJson(collection: string, query: FindQuery): Awaitable<Buffer>;
  /**
   * A page of the documents a find gives, after an id, without their total: reading them all page by
   * page costs what one read of them all does (an offset would read every page before it again).
   */
  scan(collection: string, query: ScanQuery): Promise<ScannedDocument[]>;
  /** Loads documents for a projector to evolve; missing ids are absent from the map. */
  load(collection: string, ids: readonly DocumentId[]): Promise<Map<DocumentId, Document>>;
  /**
   * The text one top-level field holds in each of the documents (null where it holds none, or no
   * text): what a read joins another record's name from, without reading that whole record. Missing
   * ids are absent from the map.
   */
  loadTexts(
    collection: string,
    ids: readonly DocumentId[],
    field: string,
  ): Promise<Map<DocumentId, string | null>>;
  checkpoints(): Promise<Map<string, number>>;
  /**
   * The most document changes one commit should carry, when the store bounds its transactions (MongoDB
   * aborts one after 60 s): the projection runtime ends its batches there. Absent: no bound.
   */
  readonly maxCommitChanges?: number;
  /**
   * Writes the changes and moves the checkpoints atomically, or throws `CheckpointConflict` and writes
   * nothing when a checkpoint is no longer where the move starts (another process projected the same
   * events). Given `after` (the commit before, still under way), it prepares its writes at once but
   * writes them only once `after` has succeeded, and nothing if `after` failed: the projection runtime
   * hands a batch over while the one before it is being written.
   */
  commit(
    changes: readonly DocumentChange[],
    checkpoints: ReadonlyMap<string, CheckpointMove>,
    after?: Promise<void>,
  ): Promise<void>;
  /**
   * Holds the lease `name` for `holder` until `until` (milliseconds since the epoch) when it is free,
   * expired at `now`, or held by `holder` already; answers whether `holder` holds it now. An `until` at
   * or before `now` lets it go. What one process of several must do alone (queue the jobs) takes one.
   */
  lease(name: string, holder: string, now: number, until: number): Promise<boolean>;
  /**
   * Throws `UnstorableDocument` when a commit could not store the document (it cannot be serialised):
   * the projection runtime asks, after each event, about a document a commit has failed on.
   */
  checkStorable(collection: string, id: DocumentId, doc: Document): void;
  /**
   * Leaves no copy in the store's files of what commits replaced or deleted (after an erasure): the
   * write-ahead log emptied into the file, whose freed space was overwritten; the search indexes and
   * their vocabularies took out the words of a replaced or deleted text as it was written.
   */
  purge(): Promise<void>;
  /**
   * Drops every document and the named projectors' checkpoints (for `suite rebuild`); other
   * checkpoints kept here (the job triggers') and the leases stay.
   */
  reset(projectors: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** A commit's checkpoint moved by another process since its batch started: the commit wrote nothing. */
export class CheckpointConflict extends Error {
  constructor(readonly checkpoint: string) {
    super(
      `The checkpoint ${checkpoint} moved since this batch started: another process projects into this store`,
    );
    this.name = 'CheckpointConflict';
  }
}

/** Throws `CheckpointConflict` for the first checkpoint that is not, in `stored` (absent: 0), where its move starts. */
export function checkMoves(
  stored: (name: string) => number | undefined,
  moves: ReadonlyMap<string, CheckpointMove>,
): void {
  for (const [name, { from }] of moves) if ((stored(name) ?? 0) !== from) throw new CheckpointConflict(name);
}

/** A document a commit cannot store: nested too deep to serialise, say. The commit stores nothing. */
export class UnstorableDocument extends Error {
  constructor(
    readonly collection: string,
    readonly id: DocumentId,
    cause: unknown,
  ) {
    super(`${collection} ${id} cannot be stored: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'UnstorableDocument';
  }
}

/** What `serialise` makes of a document, or `UnstorableDocument` when it fails. */
export function serialisedOrUnstorable<T>(collection: string, id: DocumentId, serialise: () => T): T {
  try {
    return serialise();
  } catch (error) {
    throw new UnstorableDocument(collection, id, error);
  }
}

/**
 * The lower-cased text of a document's search fields, one value per line (the items of a list too):
 * what `q` looks in, in every adapter.
 */
export function searchText(definition: CollectionDefinition, doc: Document): string {
  const lines: string[] = [];
  for (const field of definition.searchFields) {
    const value = doc[field];
    const json = typeof value === 'string' && definition.jsonSearchFields?.includes(field);
    collectValues(json ? parsedOrText(value) : value, lines);
  }
  return lines.join('\n').toLowerCase();
}

/** The strings and numbers within a value, in lists and objects up to `MAX_JSON_NESTING` deep. */
function collectValues(value: unknown, lines: string[], depth = 0): void {
  if (typeof value === 'string' || typeof value === 'number') lines.push(String(value));
  else if (depth >= MAX_JSON_NESTING || value === null || typeof value !== 'object') return;
  else if (Array.isArray(value)) for (const item of value) collectValues(item, lines, depth + 1);
  else for (const item of Object.values(value)) collectValues(item, lines, depth + 1);
}

/** A field's JSON text as its values, or as plain text when it is not JSON or nests too deep. */
function parsedOrText(text: string): unknown {
  if (jsonNestsDeeperThan(text)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

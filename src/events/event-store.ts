import type { EventMetadata, NewEvent, StoredEvent } from './envelope';

/** `no_stream`: the stream must not exist yet; a number: the revision of the stream's last event. */
export type ExpectedRevision = number | 'no_stream' | 'any';

export interface IdempotencyClaim {
  /** Scoped key, e.g. `esm:POST /api/v1/requests:<client key>`. */
  key: string;
  /** Hash of the request the key was first used with. */
  fingerprint: string;
}

export interface IdempotencyRecord extends IdempotencyClaim {
  stream: string;
  revision: number;
  position: number;
}

/** An event ready to be stored: its type's current schema version is stamped on it. */
export interface PendingEvent extends NewEvent {
  schema_version: number;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
  metadata: EventMetadata;
  /**
   * Event ids, one per event; generated when absent. Appending the same ids again to the same stream,
   * at the place they were appended, is a no-op that answers the stored events. Whether ids are also
   * recognised elsewhere is the store's: SQLite keeps every id once in the whole log; EventStoreDB
   * recognises them only where they were appended.
   */
  eventIds?: string[];
  idempotency?: IdempotencyClaim;
  /**
   * The events are a copy of another log's (`suite replay`): their metadata is stored as it is, the
   * recording time included, or left without one where the original has none.
   */
  copy?: true;
}

/** One stream's part of an `appendAll`. */
export interface StreamAppend {
  stream: string;
  events: PendingEvent[];
  options: AppendOptions;
}

export interface AppendResult {
  events: StoredEvent[];
  /** Set when the idempotency key was already used: nothing was appended. */
  duplicateOf?: IdempotencyRecord;
}

export interface ReadStreamOptions {
  toRevision?: number;
}

export interface ReadAllOptions {
  /**
   * Events strictly after this global position (0 = from the start). Positions increase in commit
   * order but need not be dense (EventStoreDB's are offsets in its log): compare them, never count.
   * It must be 0 or the position of an event, else the read fails with UnknownPositionError.
   */
  after: number;
  limit: number;
}

/** A filtered page of the log, for audit: every field narrows, `after` and `limit` page by position. */
/** A filter's value: one, or a list of which any matches. */
export type OneOrMore = string | readonly string[];

/** The values of a filter as a list. */
export const listOf = (value: OneOrMore): readonly string[] => (typeof value === 'string' ? [value] : value);

export interface LogQuery extends ReadAllOptions {
  /** Up to and including this position. */
  until?: number;
  /** Streams of this module (`esm` matches `esm.request-1`), or of any of these; none for an empty list. */
  module?: OneOrMore;
  /** This stream, or any of these. */
  stream?: OneOrMore;
  /** Events of this type, or of any of these. */
  type?: OneOrMore;
  actor?: string;
  organisation?: string;
  /** `occurred_at` at or after this ISO time. */
  from?: string;
  /** `occurred_at` at or before this ISO time. */
  to?: string;
}

export interface StreamHead {
  stream: string;
  revision: number;
  hash: string;
}

/** An event's place in the log and its hash (hex). */
export interface EventHash {
  position: number;
  hash: string;
}

/** The EventStore port. Module code depends on this interface only, never on an adapter. */
export interface EventStore {
  append(stream: string, events: PendingEvent[], options: AppendOptions): Promise<AppendResult>;
  /**
   * Appends to several streams in order, each at its expected revision, and answers each one's result.
   * The embedded store commits them all or none; EventStoreDB appends them one after the other, so a
   * crash or a conflict there can leave the first ones appended. When an idempotency key among them
   * was used before, nothing is appended and that append's result says so.
   */
  appendAll(appends: StreamAppend[]): Promise<AppendResult[]>;
  readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  readAll(options: ReadAllOptions): Promise<StoredEvent[]>;
  /**
   * The positions and hashes of the events `readAll` would answer, without their data: what the log's
   * Merkle tree is made of. The embedded store reads two columns; EventStoreDB reads the events.
   */
  readHashes(options: ReadAllOptions): Promise<EventHash[]>;
  queryLog(query: LogQuery): Promise<StoredEvent[]>;
  /** The event at this global position; null when no event is there. */
  eventAt(position: number): Promise<StoredEvent | null>;
  /**
   * The positions, in log order, of the events up to `until` (default: the head) whose data holds a
   * value sealed for `subject` (`privacy/sealed-value.ts`): what an erasure folds again. The embedded
   * store keeps them in an index written with each append, so the answer costs the subject's events;
   * EventStoreDB has no such index, and reads the log.
   */
  subjectPositions(subject: string, until?: number): Promise<number[]>;
  /** The last revision and hash the store recorded for each stream (to notice a removed last event). */
  streamHeads(): Promise<StreamHead[]>;
  headPosition(): Promise<number>;
  /** Highest number among the streams `<category>-<n>`; 0 when there is none. */
  lastStreamNumber(category: string): Promise<number>;
  findIdempotency(key: string): Promise<IdempotencyRecord | null>;
  /**
   * Calls the listener with the new head position after every commit past `after` (by default the
   * head when it is called), also those of other processes where the store can see them and those
   * committed before the call: a reader that caught up to `after` passes it, and misses nothing.
   * Returns an unsubscribe.
   */
  onAppended(listener: (headPosition: number) => void, after?: number): () => void;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${stream}: expected revision ${expected}, found ${actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** The error of a read from a position that is not 0 or the position of an event. */
export class UnknownPositionError extends Error {
  constructor(readonly position: number) {
    super(`No event is at position ${position}: read from 0 or from an event's position`);
    this.name = 'UnknownPositionError';
  }
}

/** The error of an append under an idempotency key that another append is still using. */
export class IdempotencyKeyInUseError extends Error {
  constructor(readonly key: string) {
    super(`Idempotency key ${key} is in use by a write not finished yet`);
    this.name = 'IdempotencyKeyInUseError';
  }
}

/** The results of an `appendAll` that appended nothing because its part `index` reused the key of `previous`. */
export function nothingAppended(parts: number, index: number, previous: IdempotencyRecord): AppendResult[] {
  return Array.from({ length: parts }, (_, part) =>
    part === index ? { events: [], duplicateOf: previous } : { events: [] },
  );
}

/**
 * A page of the global feed after `after`, without events past `until`. Positions may have gaps
 * (EventStoreDB's are commit positions), so `until - after` is no count of events.
 */
export async function readAllUntil(
  store: Pick<EventStore, 'readAll'>,
  after: number,
  limit: number,
  until = Infinity,
): Promise<StoredEvent[]> {
  const page = await store.readAll({ after, limit });
  return until === Infinity ? page : page.filter((event) => event.position <= until);
}

import { BSON, MongoServerError, type Document, type MongoClient } from 'mongodb';
import { Query, find } from 'mingo';
import { update as applyUpdate } from 'mingo/updater';
import type { MongoConnect } from '../../src/projections/mongo-read-store';

/**
 * An in-process model of a MongoDB replica set, behind the part of the Node.js driver's surface that
 * the suite's adapters use (`src/projections/mongo-read-store.ts`, `src/privacy/mongo-key-store.ts`):
 * `MongoClient.db()`, `Db.createCollection/collection/listCollections/dropCollection/dropDatabase/command`,
 * `Collection.createIndex/findOne/find().sort().skip().limit().toArray()/countDocuments/bulkWrite/
 * updateOne/deleteOne/deleteMany`, and sessions. Queries, projections and update operators are evaluated by
 * mingo; documents go in and out as BSON, as on the wire. It reproduces, as the MongoDB manual
 * documents them:
 *
 * - Multi-document transactions with snapshot isolation ("Transactions", "Read Concern "snapshot""):
 *   a transaction reads the data as of its first operation, plus its own writes; nothing it writes is
 *   seen by others before it commits, and all of it is then.
 * - Write conflicts ("Transactions and Operations" / "In-progress Transactions and Write Conflicts"):
 *   a transaction that writes a document another transaction has written since its snapshot, or is
 *   writing (uncommitted), fails with `WriteConflict` (code 112) labelled `TransientTransactionError`,
 *   and is aborted; a write outside a transaction to a document a transaction is writing waits until
 *   that transaction ends.
 * - The driver's `ClientSession.withTransaction` ("Convenient Transaction API" specification): the
 *   callback runs again after an error labelled `TransientTransactionError`, for up to 120 s (of the
 *   model's time, below); any other error aborts the transaction and is thrown as it is.
 * - `transactionLifetimeLimitSeconds` (default 60): a transaction older than that is aborted, and its
 *   next operation or commit fails with `NoSuchTransaction` (251), labelled `TransientTransactionError`.
 *   Time is the model's: the clock `now`, plus `writeMs` for every document written (the server's work,
 *   none by default), so that a test can give a large transaction the time it takes on a busy server.
 * - Unique `_id` (and `unique: true` indexes): an insert, or an upsert whose filter matches nothing,
 *   of a key that exists fails with `E11000 duplicate key error` (code 11000). The driver reports it
 *   from `bulkWrite` as a `MongoBulkWriteError`, a `MongoServerError` of that code: this model throws a
 *   `MongoServerError` of that code.
 * - Snapshot sessions (`startSession({ snapshot: true })`, "Snapshot reads"): every read of the session
 *   reads the data as of its first read.
 * - `createCollection` of an existing collection fails with `NamespaceExists` (48).
 * - The 16 MiB BSON document limit ("MongoDB Limits and Thresholds"): a larger document fails with
 *   `BSONObjectTooLarge` (10334).
 * - What a read examines ("Explain Results": `keysExamined`, `docsExamined`), with the `_id` index as
 *   the only index it reads through (indexes created on other fields are not used: a read filtered on
 *   them examines what the `_id` index or a collection scan gives, at least what the server would): an
 *   `_id` equality or `$in` examines those documents; `_id` range bounds (`$gt`, `$gte`, `$lt`, `$lte`,
 *   in the filter or a part of its top-level `$and`) or a sort on `_id` walk the index between its
 *   bounds, one key and one document per entry; anything else scans the collection (documents, no
 *   keys). A read in index or natural order stops once it has its skipped and limited matches, the
 *   skipped ones examined too; a read sorted otherwise examines every candidate first.
 * - The database profiler ("Database Profiler", `db.command({ profile })`, level 2 profiles every
 *   operation): each find (`op: 'query'`) and `countDocuments` (an aggregate, `op: 'command'`) of a
 *   profiled database adds its `ns`, `keysExamined` and `docsExamined` to `system.profile`. Writes are
 *   not profiled.
 * A single node: write concerns are acknowledged at once. Operations yield to the event loop, as a round
 * trip does, so that concurrent callers interleave.
 */

const WRITE_CONFLICT = 112;
const NO_SUCH_TRANSACTION = 251;
const DUPLICATE_KEY = 11000;
const NAMESPACE_EXISTS = 48;
const BSON_OBJECT_TOO_LARGE = 10334;
const TRANSIENT = 'TransientTransactionError';
const MAX_BSON_BYTES = 16 * 1024 * 1024;
const TRANSACTION_LIFETIME_MS = 60_000;
const WITH_TRANSACTION_TIMEOUT_MS = 120_000;
const PROFILE = 'system.profile';

type Stored = Document & { _id: unknown };

function serverError(
  code: number,
  codeName: string,
  message: string,
  labels: string[] = [],
): MongoServerError {
  return new MongoServerError({ code, codeName, errmsg: message, errorLabels: labels });
}

/** A document as the server keeps it: its BSON, read back (what a round trip gives). */
function throughBson(doc: Document): Stored {
  const bytes = BSON.calculateObjectSize(doc);
  if (bytes > MAX_BSON_BYTES) {
    throw serverError(
      BSON_OBJECT_TOO_LARGE,
      'BSONObjectTooLarge',
      `object to insert too large: ${bytes} bytes`,
    );
  }
  return BSON.deserialize(BSON.serialize(doc)) as Stored;
}

/** The key of an `_id`: its type and value (the number 1 and the string '1' are different ids). */
const keyOf = (id: unknown) => `${typeof id}:${typeof id === 'object' ? JSON.stringify(id) : String(id)}`;

interface Version {
  at: number;
  doc: Stored | null;
}

class Transaction {
  snapshot: number | null = null;
  readonly writes = new Map<string, { collection: CollectionState; key: string; doc: Stored | null }>();
  state: 'open' | 'committed' | 'aborted' = 'open';
  private end!: () => void;
  readonly ended = new Promise<void>((resolve) => (this.end = resolve));

  constructor(
    readonly number: number,
    readonly startedAt: number,
  ) {}

  finish(state: 'committed' | 'aborted'): void {
    this.state = state;
    this.end();
  }
}

class CollectionState {
  readonly versions = new Map<string, Version[]>();
  readonly uniqueIndexes: string[][] = [];
  /** The transaction writing each document, until it ends. */
  readonly writers = new Map<string, Transaction>();

  constructor(readonly name: string) {}

  at(key: string, time: number): Stored | null {
    const chain = this.versions.get(key) ?? [];
    for (let index = chain.length - 1; index >= 0; index--) {
      const version = chain[index] as Version;
      if (version.at <= time) return version.doc;
    }
    return null;
  }

  lastWrite(key: string): number {
    return this.versions.get(key)?.at(-1)?.at ?? 0;
  }
}

/** What a session's operation reads and writes through. */
interface View {
  docs(collection: CollectionState): Stored[];
  get(collection: CollectionState, key: string): Stored | null;
  /** Before any write: waits for what the write must wait for, or fails as the write would. */
  ready(collection: CollectionState): Promise<void>;
  /** Fails with a write conflict if the document may not be written. */
  claim(collection: CollectionState, key: string): void;
  write(collection: CollectionState, key: string, doc: Stored | null): void;
}

export class MongoModel {
  private clock = 0;
  private transactions = 0;
  private readonly databases = new Map<string, Map<string, CollectionState>>();
  private readonly now: () => number;
  private readonly writeMs: number;
  /** The server's time spent writing documents so far. */
  private written = 0;
  private readonly profilingLevels = new Map<string, number>();
  private profiled = 0;

  /** `now`: the clock of transactions' lifetimes; `writeMs`: the time each document written takes. */
  constructor({ now = Date.now, writeMs = 0 }: { now?: () => number; writeMs?: number } = {}) {
    this.now = now;
    this.writeMs = writeMs;
  }

  /** The model's time: the clock, plus the time the writes so far took. */
  time(): number {
    return this.now() + this.written;
  }

  /** Connects a client, as `MongoClient.connect` does: the database is the one the URL names. */
  readonly connect: MongoConnect = async (url) => {
    const name = /^mongodb(?:\+srv)?:\/\/[^/?]+\/([^?]+)/.exec(url)?.[1] ?? 'test';
    await tick();
    return new ModelClient(this, name) as unknown as MongoClient;
  };

  database(name: string): Map<string, CollectionState> {
    let found = this.databases.get(name);
    if (!found) this.databases.set(name, (found = new Map()));
    return found;
  }

  dropDatabase(name: string): void {
    this.databases.delete(name);
    this.profilingLevels.delete(name);
  }

  /** Sets a database's profiling level; answers the one it had. */
  setProfilingLevel(database: string, level: number): number {
    const was = this.profilingLevels.get(database) ?? 0;
    this.profilingLevels.set(database, level);
    return was;
  }

  /** Adds an operation's entry to its database's `system.profile` when the database profiles every one. */
  profile(database: string, entry: Document): void {
    if (this.profilingLevels.get(database) !== 2) return;
    const collections = this.database(database);
    let profile = collections.get(PROFILE);
    if (!profile) collections.set(PROFILE, (profile = new CollectionState(PROFILE)));
    const _id = ++this.profiled;
    profile.versions.set(keyOf(_id), [{ at: ++this.clock, doc: { _id, ...entry } }]);
  }

  begin(): Transaction {
    return new Transaction(++this.transactions, this.time());
  }

  /** Fails with NoSuchTransaction once the transaction has outlived its lifetime, or was aborted. */
  checkAlive(transaction: Transaction): void {
    if (transaction.state === 'open' && this.time() - transaction.startedAt > TRANSACTION_LIFETIME_MS) {
      this.abort(transaction);
    }
    if (transaction.state !== 'open') {
      throw serverError(
        NO_SUCH_TRANSACTION,
        'NoSuchTransaction',
        `Transaction with { txnNumber: ${transaction.number} } has been aborted.`,
        [TRANSIENT],
      );
    }
  }

  abort(transaction: Transaction): void {
    if (transaction.state !== 'open') return;
    for (const { collection, key } of transaction.writes.values()) collection.writers.delete(key);
    transaction.finish('aborted');
  }

  commit(transaction: Transaction): void {
    this.checkAlive(transaction);
    const at = ++this.clock;
    for (const { collection, key, doc } of transaction.writes.values()) {
      collection.versions.set(key, [...(collection.versions.get(key) ?? []), { at, doc }]);
      collection.writers.delete(key);
    }
    transaction.finish('committed');
  }

  /** Reads and writes of the latest data, each write committed at once. */
  latestView(): View {
    return {
      docs: (collection) => this.visible(collection, this.clock),
      get: (collection, key) => collection.at(key, this.clock),
      ready: async (collection) => {
        // A write outside a transaction waits for the transactions writing the collection's documents
        // (the server waits for the document's writer only: the outcome is the same, later).
        for (let writer = first(collection.writers); writer; writer = first(collection.writers)) {
          await writer.ended;
        }
      },
      claim: () => undefined,
      write: (collection, key, doc) => {
        this.written += this.writeMs;
        collection.versions.set(key, [...(collection.versions.get(key) ?? []), { at: ++this.clock, doc }]);
      },
    };
  }

  /** Reads as of one moment: the first read's. */
  snapshotView(): View {
    let at: number | null = null;
    const time = () => (at ??= this.clock);
    return {
      docs: (collection) => this.visible(collection, time()),
      get: (collection, key) => collection.at(key, time()),
      ready: () => Promise.reject(new Error('A snapshot session only reads')),
      claim: () => undefined,
      write: () => undefined,
    };
  }

  /** A transaction's view: its snapshot (taken at its first operation) and its own writes. */
  transactionView(transaction: Transaction): View {
    const snapshot = () => {
      this.checkAlive(transaction);
      return (transaction.snapshot ??= this.clock);
    };
    const own = (collection: CollectionState, key: string) =>
      transaction.writes.get(`${collection.name}\u0000${key}`);
    return {
      docs: (collection) => {
        const seen = new Map(this.visible(collection, snapshot()).map((doc) => [keyOf(doc._id), doc]));
        for (const write of transaction.writes.values()) {
          if (write.collection !== collection) continue;
          if (write.doc) seen.set(write.key, write.doc);
          else seen.delete(write.key);
        }
        return [...seen.values()];
      },
      get: (collection, key) => {
        const written = own(collection, key);
        return written ? written.doc : collection.at(key, snapshot());
      },
      ready: async () => {
        snapshot();
      },
      claim: (collection, key) => {
        const writer = collection.writers.get(key);
        if ((writer && writer !== transaction) || collection.lastWrite(key) > snapshot()) {
          this.abort(transaction);
          throw serverError(
            WRITE_CONFLICT,
            'WriteConflict',
            'Write conflict during plan execution and yielding is disabled.',
            [TRANSIENT],
          );
        }
      },
      write: (collection, key, doc) => {
        this.written += this.writeMs;
        collection.writers.set(key, transaction);
        transaction.writes.set(`${collection.name}\u0000${key}`, { collection, key, doc });
      },
    };
  }

  private visible(collection: CollectionState, time: number): Stored[] {
    return [...collection.versions.keys()].flatMap((key) => collection.at(key, time) ?? []);
  }
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

const first = <T>(map: Map<string, T>): T | undefined => map.values().next().value;

interface SessionOptions {
  session?: ModelSession;
}

class ModelClient {
  constructor(
    private readonly model: MongoModel,
    private readonly defaultDb: string,
  ) {}

  db(name = this.defaultDb): ModelDb {
    return new ModelDb(this.model, name);
  }

  startSession(options: { snapshot?: boolean } = {}): ModelSession {
    return new ModelSession(this.model, options.snapshot === true);
  }

  async close(): Promise<void> {
    await tick();
  }
}

class ModelSession {
  private transaction: Transaction | null = null;
  private readonly snapshot: View | null;

  constructor(
    private readonly model: MongoModel,
    snapshot: boolean,
  ) {
    this.snapshot = snapshot ? model.snapshotView() : null;
  }

  view(): View {
    if (this.transaction) return this.model.transactionView(this.transaction);
    return this.snapshot ?? this.model.latestView();
  }

  startTransaction(): void {
    this.transaction = this.model.begin();
  }

  async commitTransaction(): Promise<void> {
    await tick();
    const transaction = this.transaction as Transaction;
    this.transaction = null;
    this.model.commit(transaction);
  }

  async abortTransaction(): Promise<void> {
    if (this.transaction) this.model.abort(this.transaction);
    this.transaction = null;
    await tick();
  }

  async withTransaction<T>(callback: (session: ModelSession) => Promise<T>): Promise<T> {
    const deadline = this.model.time() + WITH_TRANSACTION_TIMEOUT_MS;
    for (;;) {
      this.startTransaction();
      let result: T;
      try {
        result = await callback(this);
        await this.commitTransaction();
        return result;
      } catch (error) {
        await this.abortTransaction();
        const transient = error instanceof MongoServerError && error.hasErrorLabel(TRANSIENT);
        if (!transient || this.model.time() >= deadline) throw error;
      }
    }
  }

  async endSession(): Promise<void> {
    await this.abortTransaction();
  }
}

class ModelDb {
  constructor(
    private readonly model: MongoModel,
    private readonly name: string,
  ) {}

  private get collections() {
    return this.model.database(this.name);
  }

  async createCollection(name: string): Promise<ModelCollection> {
    await tick();
    if (this.collections.has(name)) {
      throw serverError(
        NAMESPACE_EXISTS,
        'NamespaceExists',
        `Collection ${this.name}.${name} already exists.`,
      );
    }
    this.collections.set(name, new CollectionState(name));
    return this.collection(name);
  }

  get databaseName(): string {
    return this.name;
  }

  collection(name: string): ModelCollection {
    return new ModelCollection(
      this.model,
      () => {
        let found = this.collections.get(name);
        // Collections are created by their first write, as on the server.
        if (!found) this.collections.set(name, (found = new CollectionState(name)));
        return found;
      },
      (entry) => this.model.profile(this.name, { ns: `${this.name}.${name}`, ...entry }),
    );
  }

  /** The one command modelled: `{ profile: level }`, which answers the level the database had. */
  async command(command: Document): Promise<Document> {
    await tick();
    if (typeof command.profile !== 'number') {
      throw new Error(`The model runs only the profile command, not ${JSON.stringify(command)}`);
    }
    return { was: this.model.setProfilingLevel(this.name, command.profile), ok: 1 };
  }

  listCollections(filter: { name?: RegExp | string } = {}) {
    return {
      toArray: async () => {
        await tick();
        return [...this.collections.keys()]
          .filter((name) => new Query({ name: filter.name ?? { $exists: true } }).test({ name }))
          .map((name) => ({ name, type: 'collection' }));
      },
    };
  }

  async dropCollection(name: string): Promise<boolean> {
    await tick();
    return this.collections.delete(name);
  }

  async dropDatabase(): Promise<boolean> {
    await tick();
    this.model.dropDatabase(this.name);
    return true;
  }
}

interface WriteResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
  deletedCount: number;
}

const NO_WRITE: WriteResult = { matchedCount: 0, modifiedCount: 0, upsertedCount: 0, deletedCount: 0 };

function added(a: WriteResult, b: WriteResult): WriteResult {
  return {
    matchedCount: a.matchedCount + b.matchedCount,
    modifiedCount: a.modifiedCount + b.modifiedCount,
    upsertedCount: a.upsertedCount + b.upsertedCount,
    deletedCount: a.deletedCount + b.deletedCount,
  };
}

/** The fields an upsert's new document takes from its filter: its top-level equalities. */
function equalities(filter: Document): Document {
  return Object.fromEntries(
    Object.entries(filter).filter(
      ([field, value]) =>
        !field.startsWith('$') && (typeof value !== 'object' || value === null || !hasOperator(value)),
    ),
  );
}

const hasOperator = (value: object) => Object.keys(value).some((key) => key.startsWith('$'));

type BulkOperation =
  | { replaceOne: { filter: Document; replacement: Document; upsert?: boolean } }
  | { updateOne: { filter: Document; update: Document; upsert?: boolean } }
  | { deleteOne: { filter: Document } };

/** How a read goes through its matches: in which order, how many it skips, and how many it returns (0: all). */
interface Reading {
  order?: Document;
  skip?: number;
  limit?: number;
}

/** The matches a read found, and what it examined to find them. */
interface Read {
  matched: Stored[];
  keysExamined: number;
  docsExamined: number;
}

const RANGE_OPERATORS = ['$gt', '$gte', '$lt', '$lte'];

const isOperatorObject = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && hasOperator(value);

/** The conditions a filter puts on `_id`: its own, and those of the parts of its top-level `$and`. */
function idConditions(filter: Document): unknown[] {
  const parts = Array.isArray(filter.$and) ? (filter.$and as Document[]).flatMap(idConditions) : [];
  return '_id' in filter ? [filter._id, ...parts] : parts;
}

const inIdOrder = (order: Document | undefined) =>
  order !== undefined && Object.keys(order).length === 1 && order._id === 1;

const byId = (docs: Stored[]): Stored[] => find(docs, {}).sort({ _id: 1 }).all() as Stored[];

class ModelCollection {
  constructor(
    private readonly model: MongoModel,
    private readonly state: () => CollectionState,
    private readonly profile: (entry: Document) => void,
  ) {}

  private view(options?: SessionOptions): View {
    return options?.session ? options.session.view() : this.model.latestView();
  }

  /**
   * The documents a read examines, in the order it examines them, and whether it reads them through
   * the `_id` index (a key each) or scans the collection.
   */
  private candidates(view: View, filter: Document, order?: Document): { docs: Stored[]; indexed: boolean } {
    const collection = this.state();
    const conditions = idConditions(filter);
    const exact = conditions.find((condition) => !isOperatorObject(condition) || '$in' in condition);
    if (exact !== undefined) {
      const ids = isOperatorObject(exact) ? (exact.$in as unknown[]) : [exact];
      const keys = new Set(ids.map(keyOf));
      return { docs: byId([...keys].flatMap((key) => view.get(collection, key) ?? [])), indexed: true };
    }
    const bounds = conditions.flatMap((condition) => {
      const range = Object.entries(condition as Document).filter(([name]) => RANGE_OPERATORS.includes(name));
      return range.length > 0 ? [{ _id: Object.fromEntries(range) }] : [];
    });
    if (bounds.length === 0 && !inIdOrder(order)) return { docs: view.docs(collection), indexed: false };
    const between = new Query({ $and: [{}, ...bounds] });
    return { docs: byId(view.docs(collection)).filter((doc) => between.test(doc)), indexed: true };
  }

  private read(
    filter: Document,
    options: SessionOptions,
    { order, skip = 0, limit = 0 }: Reading = {},
  ): Read {
    const { docs, indexed } = this.candidates(this.view(options), filter, order);
    const query = new Query(filter);
    // In the order it reads them, a read has its page once it has the page's matches and those before it.
    const enough = limit > 0 && (order === undefined || inIdOrder(order)) ? skip + limit : Infinity;
    const matched: Stored[] = [];
    let examined = 0;
    for (const doc of docs) {
      if (matched.length >= enough) break;
      examined += 1;
      if (query.test(doc)) matched.push(doc);
    }
    return { matched, keysExamined: indexed ? examined : 0, docsExamined: examined };
  }

  private matching(filter: Document, options: SessionOptions, reading?: Reading): Stored[] {
    return this.read(filter, options, reading).matched;
  }

  async createIndex(spec: Record<string, 1 | -1>, options: { unique?: boolean } = {}): Promise<string> {
    await tick();
    const fields = Object.keys(spec);
    if (options.unique) this.state().uniqueIndexes.push(fields);
    return fields.map((field) => `${field}_${spec[field]}`).join('_');
  }

  async findOne(filter: Document, options: SessionOptions & { projection?: Document } = {}) {
    const [found] = await this.find(filter, options).limit(1).toArray();
    return found ?? null;
  }

  find(filter: Document = {}, options: SessionOptions & { projection?: Document } = {}) {
    let order: Document | undefined;
    let skipped = 0;
    let limited = 0;
    const cursor = {
      sort: (spec: Document) => ((order = spec), cursor),
      skip: (count: number) => ((skipped = count), cursor),
      limit: (count: number) => ((limited = count), cursor),
      toArray: async () => {
        await tick();
        const { matched, keysExamined, docsExamined } = this.read(filter, options, {
          order,
          skip: skipped,
          limit: limited,
        });
        this.profile({ op: 'query', keysExamined, docsExamined });
        let found = find(matched, {}, options.projection);
        if (order) found = found.sort(order);
        if (skipped) found = found.skip(skipped);
        if (limited) found = found.limit(limited);
        return found.all().map((doc) => throughBson(doc));
      },
    };
    return cursor;
  }

  async countDocuments(filter: Document = {}, options: SessionOptions = {}): Promise<number> {
    await tick();
    const { matched, keysExamined, docsExamined } = this.read(filter, options);
    this.profile({ op: 'command', keysExamined, docsExamined });
    return matched.length;
  }

  async updateOne(
    filter: Document,
    update: Document,
    options: SessionOptions & { upsert?: boolean } = {},
  ): Promise<WriteResult> {
    await tick();
    return this.write({ updateOne: { filter, update, upsert: options.upsert } }, options);
  }

  async deleteOne(filter: Document, options: SessionOptions = {}): Promise<WriteResult> {
    await tick();
    const [doc] = this.matching(filter, options, { limit: 1 });
    return doc ? this.write({ deleteOne: { filter: { _id: doc._id } } }, options) : NO_WRITE;
  }

  async deleteMany(filter: Document, options: SessionOptions = {}): Promise<WriteResult> {
    await tick();
    let result = NO_WRITE;
    for (const doc of this.matching(filter, options)) {
      result = added(result, await this.write({ deleteOne: { filter: { _id: doc._id } } }, options));
    }
    return result;
  }

  async bulkWrite(
    operations: readonly BulkOperation[],
    options: SessionOptions & { ordered?: boolean } = {},
  ) {
    await tick();
    let result = NO_WRITE;
    let failure: unknown = null;
    for (const operation of operations) {
      try {
        result = added(result, await this.write(operation, options));
      } catch (error) {
        // Unordered, the other operations are still done; the first error is reported.
        failure ??= error;
        if (options.ordered !== false || options.session) break;
      }
    }
    if (failure) throw failure;
    return result;
  }

  private async write(operation: BulkOperation, options: SessionOptions): Promise<WriteResult> {
    const view = this.view(options);
    const collection = this.state();
    await view.ready(collection);
    if ('deleteOne' in operation) {
      const [doc] = this.matching(operation.deleteOne.filter, options, { limit: 1 });
      if (!doc) return NO_WRITE;
      view.claim(collection, keyOf(doc._id));
      view.write(collection, keyOf(doc._id), null);
      return { ...NO_WRITE, deletedCount: 1 };
    }
    const { filter, upsert } = 'replaceOne' in operation ? operation.replaceOne : operation.updateOne;
    const [existing] = this.matching(filter, options, { limit: 1 });
    if (existing) {
      const next =
        'replaceOne' in operation
          ? { _id: existing._id, ...operation.replaceOne.replacement }
          : updated(existing, operation.updateOne.update, false);
      this.store(view, next, existing);
      return { ...NO_WRITE, matchedCount: 1, modifiedCount: 1 };
    }
    if (!upsert) return NO_WRITE;
    const base = equalities(filter);
    const inserted =
      'replaceOne' in operation
        ? { ...operation.replaceOne.replacement, _id: base._id }
        : updated(base as Stored, operation.updateOne.update, true);
    this.store(view, inserted, null);
    return { ...NO_WRITE, upsertedCount: 1 };
  }

  /**
   * Writes a document, keeping `_id` and the unique indexes unique. Within a transaction a document
   * written since its snapshot is a write conflict first, as the server finds it before the duplicate.
   */
  private store(view: View, doc: Document, replacing: Stored | null): void {
    const stored = throughBson(doc);
    const collection = this.state();
    const key = keyOf(stored._id);
    view.claim(collection, key);
    if (!replacing && view.get(collection, key)) duplicate(collection, { _id: stored._id });
    const others = () => view.docs(collection).filter((other) => keyOf(other._id) !== key);
    for (const fields of collection.uniqueIndexes) {
      const value = (candidate: Document) => JSON.stringify(fields.map((field) => candidate[field]));
      if (others().some((other) => value(other) === value(stored))) {
        duplicate(collection, Object.fromEntries(fields.map((field) => [field, stored[field]])));
      }
    }
    view.write(collection, key, stored);
  }
}

function duplicate(collection: CollectionState, value: Document): never {
  throw serverError(
    DUPLICATE_KEY,
    'DuplicateKey',
    `E11000 duplicate key error collection: ${collection.name} dup key: ${JSON.stringify(value)}`,
  );
}

/** A document with an update's operators applied (`$setOnInsert` only when it is inserted). */
function updated(doc: Stored, update: Document, inserting: boolean): Stored {
  const { $setOnInsert, ...operators } = update as { $setOnInsert?: Document } & Document;
  // A copy through BSON, and values set as they are: BSON values (Binary) stay what they are.
  const next = BSON.deserialize(BSON.serialize(doc)) as Stored;
  const modifier =
    inserting && $setOnInsert ? { ...operators, $set: { ...operators.$set, ...$setOnInsert } } : operators;
  applyUpdate(next, modifier, undefined, undefined, { cloneMode: 'none' });
  return next;
}

import {
  MongoClient,
  MongoServerError,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
} from 'mongodb';
import {
  collectionName,
  documentKey,
  findFilter,
  keyedPosition,
  MONGO_KEYSET,
  mongoSort,
  storable,
  type StoredDocument,
} from './mongo-query';
import { afterPosition, encodeCursor, indexedFields, pageOrder, positionOf } from './page-order';
import { encodePage } from './page-json';
import {
  CheckpointConflict,
  type CheckpointMove,
  type CollectionDefinition,
  type Document,
  type DocumentChange,
  type DocumentId,
  type ReadStore,
} from './read-store';

const CHECKPOINTS = 'checkpoints';
const LEASES = 'leases';
const NAMESPACE_EXISTS = 48;
const DUPLICATE_KEY = 11000;
/**
 * Document changes per transaction. MongoDB aborts a transaction 60 s after it started
 * (`transactionLifetimeLimitSeconds`), and a rebuild's batch of 50,000 events would be one: the
 * runtime's batches end at about this many changes instead.
 */
export const MONGO_COMMIT_CHANGES = 1_000;

interface Checkpoint {
  _id: string;
  position: number;
}

interface Lease {
  _id: string;
  holder: string;
  until: number;
}

/** How the store reaches its server: the driver's client by default, a model of the server in tests. */
export type MongoConnect = (url: string) => Promise<MongoClient>;

interface Target {
  definition: CollectionDefinition;
  collection: Collection<StoredDocument>;
}

/** Collections exist before the first transaction writes to them (creating one inside is restricted). */
async function ensureCollection(db: Db, name: string): Promise<void> {
  try {
    await db.createCollection(name);
  } catch (error) {
    if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
  }
}

/**
 * The ReadStore on MongoDB (a replica set: `mongodb://host:27017/suite?replicaSet=rs0`; the database is
 * the one the URL names). A collection `rm.<name>` per read-model collection holds `{_id, doc, text}`:
 * `_id` is the document id (a number for integer ids, so lists sort numerically, as in SQLite), `doc`
 * the document, `text` its lower-cased search text. Each filter field has an index on (field, _id),
 * which serves both the filter and the id order of the page.
 *
 * - `q` is a case-insensitive substring: the lower-cased query, escaped, as an unanchored `$regex` over
 *   `text`. An unanchored regular expression cannot use an index bound, so it is evaluated on every
 *   document the filters leave (the whole collection without filters): linear in that set.
 * - Totals are exact, and the total and the page are read from one snapshot. A page that ends before
 *   its limit tells its total; otherwise `countDocuments` counts. `scan` reads by id (keyset), no total.
 * - Exactly-once effect: `commit` writes the documents and moves the checkpoints in one transaction, so
 *   after any crash both are from the same commit. Each move is a compare-and-set on the checkpoint its
 *   batch started from: of two processes projecting the same batch (a second projector on the same
 *   store) one commits, and the other's transaction writes nothing (`CheckpointConflict`) and goes on
 *   from the checkpoint. Two such transactions meet on the checkpoint's document: the second to write it
 *   gets a write conflict, and `withTransaction` runs it again, now against the moved checkpoint.
 * - Transactions carry at most `MONGO_COMMIT_CHANGES` changes (`maxCommitChanges`).
 * Nothing is cached: other processes write to the same database.
 */
export async function openMongoReadStore(
  url: string,
  { connect = (address) => MongoClient.connect(address) }: { connect?: MongoConnect } = {},
): Promise<ReadStore> {
  const client = await connect(url);
  const db = client.db();
  await ensureCollection(db, CHECKPOINTS);
  const checkpoints = db.collection<Checkpoint>(CHECKPOINTS);
  const leases = db.collection<Lease>(LEASES);
  const targets = new Map<string, Target>();

  async function define(definition: CollectionDefinition): Promise<Target> {
    const name = collectionName(definition.name);
    await ensureCollection(db, name);
    const collection = db.collection<StoredDocument>(name);
    for (const field of indexedFields(definition))
      await collection.createIndex({ [`doc.${field}`]: 1, _id: 1 });
    return { definition, collection };
  }

  function target(name: string): Target {
    const found = targets.get(name);
    if (!found) throw new Error(`Unknown collection ${name}`);
    return found;
  }

  function writesByCollection(changes: readonly DocumentChange[]) {
    const writes = new Map<Target, AnyBulkWriteOperation<StoredDocument>[]>();
    for (const change of changes) {
      const into = target(change.collection);
      const _id = documentKey(into.definition, change.id);
      const operation: AnyBulkWriteOperation<StoredDocument> =
        change.doc === null
          ? { deleteOne: { filter: { _id } } }
          : {
              replaceOne: {
                filter: { _id },
                replacement: storable(into.definition, change.id, change.doc),
                upsert: true,
              },
            };
      const operations = writes.get(into);
      if (operations) operations.push(operation);
      else writes.set(into, [operation]);
    }
    return writes;
  }

  /**
   * Moves a checkpoint within the commit's transaction if it is where the move starts, else throws
   * `CheckpointConflict`. A checkpoint not stored yet (0) is inserted: another process's insert meanwhile
   * makes it a duplicate key.
   */
  async function moveCheckpoint(name: string, { from, to }: CheckpointMove, session: ClientSession) {
    try {
      const moved = await checkpoints.updateOne(
        { _id: name, position: from },
        { $set: { position: to } },
        { session, upsert: from === 0 },
      );
      if (moved.matchedCount + moved.upsertedCount === 0) throw new CheckpointConflict(name);
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY)
        throw new CheckpointConflict(name);
      throw error;
    }
  }

  const store: ReadStore = {
    async defineCollections(definitions) {
      for (const definition of definitions) targets.set(definition.name, await define(definition));
    },
    async get(name, id) {
      const from = target(name);
      const found = await from.collection.findOne(
        { _id: documentKey(from.definition, id) },
        { projection: { doc: 1 } },
      );
      return found ? JSON.stringify(found.doc) : null;
    },
    async find(name, query) {
      const from = target(name);
      const filter = findFilter(from.definition, query);
      const order = pageOrder(query.sort);
      const after = query.after
        ? afterPosition(order, keyedPosition(from.definition, query.after), MONGO_KEYSET)
        : {};
      const session = client.startSession({ snapshot: true });
      try {
        // One more than the page tells whether a page follows.
        const read =
          query.limit > 0
            ? await from.collection
                .find({ $and: [filter, after] }, { session, projection: { doc: 1 } })
                .sort(mongoSort(order))
                .skip(query.offset)
                .limit(query.limit + 1)
                .toArray()
            : [];
        const page = read.slice(0, query.limit);
        const ended =
          query.after === undefined &&
          read.length <= query.limit &&
          (page.length > 0 || (query.offset === 0 && query.limit > 0));
        const total = ended
          ? query.offset + page.length
          : await from.collection.countDocuments(filter, { session });
        const items = page.map((found) => JSON.stringify(found.doc));
        const last = page.at(-1);
        const next =
          read.length > query.limit && last
            ? encodeCursor(order, positionOf(order, last._id, items.at(-1) as string))
            : null;
        return { total, items, next };
      } finally {
        await session.endSession();
      }
    },
    async scan(name, query) {
      const from = target(name);
      const filter = findFilter(from.definition, query);
      const after =
        query.after === undefined ? {} : { _id: { $gt: documentKey(from.definition, query.after) } };
      const page = await from.collection
        .find({ $and: [filter, after] }, { projection: { doc: 1 } })
        .sort({ _id: 1 })
        .limit(query.limit)
        .toArray();
      return page.map((found) => ({ id: found._id, doc: JSON.stringify(found.doc) }));
    },
    findJson: async (name, query) => encodePage(await store.find(name, query), query).body,
    async load(name, ids) {
      const from = target(name);
      const keys = ids.map((id) => documentKey(from.definition, id));
      const stored = await from.collection.find({ _id: { $in: keys } }).toArray();
      const byKey = new Map(stored.map((document) => [document._id, document.doc]));
      const found = new Map<DocumentId, Document>();
      ids.forEach((id, index) => {
        const doc = byKey.get(keys[index] as DocumentId);
        if (doc) found.set(id, doc);
      });
      return found;
    },
    async loadTexts(name, ids, field) {
      const from = target(name);
      const keys = ids.map((id) => documentKey(from.definition, id));
      const stored = await from.collection
        .find({ _id: { $in: keys } }, { projection: { [`doc.${field}`]: 1 } })
        .toArray();
      const byKey = new Map(stored.map((document) => [document._id, document.doc?.[field]]));
      const found = new Map<DocumentId, string | null>();
      ids.forEach((id, index) => {
        const key = keys[index] as DocumentId;
        if (!byKey.has(key)) return;
        const value = byKey.get(key);
        found.set(id, typeof value === 'string' ? value : null);
      });
      return found;
    },
    async checkpoints() {
      const stored = await checkpoints.find().toArray();
      return new Map(stored.map((checkpoint) => [checkpoint._id, checkpoint.position]));
    },
    maxCommitChanges: MONGO_COMMIT_CHANGES,
    async commit(changes, moves, after) {
      const writes = writesByCollection(changes);
      await after;
      if (changes.length === 0 && moves.size === 0) return;
      const session = client.startSession();
      try {
        await session.withTransaction(
          async () => {
            for (const [name, move] of moves) await moveCheckpoint(name, move, session);
            for (const [into, operations] of writes) await into.collection.bulkWrite(operations, { session });
          },
          { writeConcern: { w: 'majority' } },
        );
      } finally {
        await session.endSession();
      }
    },
    async lease(name, holder, now, until) {
      try {
        await leases.updateOne(
          { _id: name, $or: [{ holder }, { until: { $lte: now } }] },
          { $set: { holder, until } },
          { upsert: true, writeConcern: { w: 'majority' } },
        );
        return true;
      } catch (error) {
        // The upsert met the lease held by another holder, unexpired.
        if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return false;
        throw error;
      }
    },
    checkStorable(name, id, doc) {
      storable(target(name).definition, id, doc);
    },
    // MongoDB rewrites a replaced document in place or frees it to its storage engine, which the suite cannot reach.
    async purge() {},
    async reset(projectors) {
      const stored = await db.listCollections({ name: /^rm\./ }, { nameOnly: true }).toArray();
      for (const { name } of stored) await db.dropCollection(name);
      await checkpoints.deleteMany({ _id: { $in: [...projectors] } });
      const definitions = [...targets.values()].map((known) => known.definition);
      targets.clear();
      for (const definition of definitions) targets.set(definition.name, await define(definition));
    },
    async close() {
      await client.close();
    },
  };
  return store;
}

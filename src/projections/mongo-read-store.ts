import { MongoClient, MongoServerError, type AnyBulkWriteOperation, type Collection, type Db } from 'mongodb';
import { collectionName, documentKey, findFilter, storable, type StoredDocument } from './mongo-query';
import { encodePage } from './page-json';
import type { CollectionDefinition, Document, DocumentChange, DocumentId, ReadStore } from './read-store';

const CHECKPOINTS = 'checkpoints';
const NAMESPACE_EXISTS = 48;
const DUPLICATE_KEY = 11000;

interface Checkpoint {
  _id: string;
  position: number;
}

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
 * - Totals are exact (`countDocuments`), and the total and the page are read from one snapshot.
 * - Exactly-once effect: `commit` writes the documents and the checkpoints in one transaction, so after
 *   any crash both are from the same commit. A checkpoint never moves back: a commit behind the stored
 *   checkpoint (a second projector process on the same store) fails instead of overwriting newer
 *   documents with older ones.
 * Nothing is cached: other processes write to the same database.
 */
export async function openMongoReadStore(url: string): Promise<ReadStore> {
  const client = await MongoClient.connect(url);
  const db = client.db();
  await ensureCollection(db, CHECKPOINTS);
  const checkpoints = db.collection<Checkpoint>(CHECKPOINTS);
  const targets = new Map<string, Target>();

  async function define(definition: CollectionDefinition): Promise<Target> {
    const name = collectionName(definition.name);
    await ensureCollection(db, name);
    const collection = db.collection<StoredDocument>(name);
    for (const field of definition.filterFields)
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
      const session = client.startSession({ snapshot: true });
      try {
        const total = await from.collection.countDocuments(filter, { session });
        const page =
          query.limit > 0
            ? await from.collection
                .find(filter, { session, projection: { doc: 1 } })
                .sort({ _id: 1 })
                .skip(query.offset)
                .limit(query.limit)
                .toArray()
            : [];
        return { total, items: page.map((found) => JSON.stringify(found.doc)) };
      } finally {
        await session.endSession();
      }
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
    async checkpoints() {
      const stored = await checkpoints.find().toArray();
      return new Map(stored.map((checkpoint) => [checkpoint._id, checkpoint.position]));
    },
    async commit(changes, positions, after) {
      const writes = writesByCollection(changes);
      await after;
      if (changes.length === 0 && positions.size === 0) return;
      const session = client.startSession();
      try {
        await session.withTransaction(
          async () => {
            for (const [into, operations] of writes) await into.collection.bulkWrite(operations, { session });
            if (positions.size === 0) return;
            await checkpoints.bulkWrite(
              [...positions].map(([projector, position]) => ({
                updateOne: {
                  filter: { _id: projector, position: { $lte: position } },
                  update: { $set: { position } },
                  upsert: true,
                },
              })),
              { session },
            );
          },
          { writeConcern: { w: 'majority' } },
        );
      } catch (error) {
        // The upsert meant for a checkpoint at or behind `position` met one ahead of it.
        if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) {
          throw new Error(
            `A checkpoint of ${[...positions.keys()].join(', ')} is ahead of this commit: another process projects into this store`,
            { cause: error },
          );
        }
        throw error;
      } finally {
        await session.endSession();
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

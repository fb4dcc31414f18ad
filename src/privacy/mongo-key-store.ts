import { Binary, MongoClient } from 'mongodb';
import type { MongoConnect } from '../projections/mongo-read-store';
import type { SubjectKey } from './sealed-value';
import { cachedKeyStore, type KeptKey, type RandomBytes, type SubjectKeyStore } from './subject-keys';

type KeyDocument = { _id: string; subject: string; key_id: string; key: Binary; created_at: string };
type SpareDocument = { _id: string; key: Binary; created_at: string };

// Acknowledged by a majority and journaled: a key a failover could take back would be data lost.
const DURABLE = { writeConcern: { w: 'majority' as const, j: true } };

/**
 * The key store of the distributed profile: the `subject_keys` and `spare_keys` collections of the
 * read store's database, shared by every role. Spares are written durably; handing one to a subject
 * is acknowledged by the primary alone (a failover that takes it back leaves the spare, found again by
 * its id). An erasure deletes the documents with a majority's acknowledgement; MongoDB's storage
 * engine reuses their space as it sees fit (what the suite cannot reach).
 */
export async function openMongoKeyStore(
  url: string,
  randomBytes: RandomBytes,
  { connect = (address) => MongoClient.connect(address) }: { connect?: MongoConnect } = {},
): Promise<SubjectKeyStore> {
  const client = await connect(url);
  const keys = client.db().collection<KeyDocument>('subject_keys');
  const spares = client.db().collection<SpareDocument>('spare_keys');
  const erased = client.db().collection<{ _id: string; erased_at: string }>('erased_subjects');
  const erasedAmong = async (subjects: readonly string[]) =>
    subjects.length === 0
      ? []
      : (await erased.find({ _id: { $in: [...subjects] } }).toArray()).map(({ _id }) => _id);
  await keys.createIndex({ subject: 1, created_at: 1 });
  const kept = ({ subject, key_id, key }: KeyDocument): KeptKey => ({
    subject,
    id: key_id,
    key: Buffer.from(key.buffer),
  });
  const spare = ({ _id, key }: SpareDocument) => ({ id: _id, key: Buffer.from(key.buffer) });
  const keyDocument = (subject: string, { id, key }: SubjectKey, createdAt: string) => ({
    updateOne: {
      filter: { _id: `${subject} ${id}` },
      update: { $setOnInsert: { subject, key_id: id, key: new Binary(key), created_at: createdAt } },
      upsert: true,
    },
  });
  return cachedKeyStore(
    {
      of: async (subjects) =>
        subjects.length === 0
          ? []
          : (
              await keys
                .find({ subject: { $in: [...subjects] } })
                .sort({ created_at: 1, key_id: 1 })
                .toArray()
            ).map(kept),
      erasedAmong,
      async named(named) {
        // A spare named for an erased subject is not answered: it must not be handed to it.
        const gone = new Set(await erasedAmong(named.map(({ subject }) => subject)));
        const spareIds = named.filter(({ subject }) => !gone.has(subject)).map(({ id }) => id);
        return [
          ...(
            await keys.find({ _id: { $in: named.map(({ subject, id }) => `${subject} ${id}`) } }).toArray()
          ).map(kept),
          ...(await spares.find({ _id: { $in: spareIds } }).toArray()).map((document) => ({
            ...spare(document),
            subject: null,
          })),
        ];
      },
      async insert(made, createdAt) {
        const gone = new Set(await erasedAmong(made.flatMap(({ subject }) => (subject ? [subject] : []))));
        const toSubjects = made.flatMap(({ subject, ...key }) =>
          subject === null || gone.has(subject) ? [] : [keyDocument(subject, key, createdAt)],
        );
        const asSpares = made.flatMap(({ subject, id, key }) =>
          subject !== null
            ? []
            : [
                {
                  updateOne: {
                    filter: { _id: id },
                    update: { $setOnInsert: { key: new Binary(key), created_at: createdAt } },
                    upsert: true,
                  },
                },
              ],
        );
        if (toSubjects.length > 0) await keys.bulkWrite(toSubjects, { ordered: false, ...DURABLE });
        if (asSpares.length > 0) await spares.bulkWrite(asSpares, { ordered: false, ...DURABLE });
      },
      async assign(subject, key, at) {
        // Not kept for a subject erased meanwhile (an erasure after this look deletes it anyway).
        if ((await erasedAmong([subject])).length === 0)
          await keys.bulkWrite([keyDocument(subject, key, new Date(at).toISOString())]);
        await spares.deleteOne({ _id: key.id });
      },
      async erase(subject, keyIds) {
        await erased.updateOne(
          { _id: subject },
          { $setOnInsert: { erased_at: new Date().toISOString() } },
          { upsert: true, ...DURABLE },
        );
        await keys.deleteMany({ subject }, DURABLE);
        if (keyIds.length > 0) await spares.deleteMany({ _id: { $in: [...keyIds] } }, DURABLE);
      },
      async drop(keyIds) {
        if (keyIds.length > 0) await spares.deleteMany({ _id: { $in: [...keyIds] } });
      },
      all: async () => [
        ...(await keys.find({}).toArray()).map(kept),
        ...(await spares.find({}).toArray()).map((document) => ({ ...spare(document), subject: null })),
      ],
      close: () => client.close(),
    },
    randomBytes,
  );
}

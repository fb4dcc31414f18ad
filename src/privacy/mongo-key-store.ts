import { Binary, MongoClient } from 'mongodb';
import type { MongoConnect } from '../projections/mongo-read-store';
import { cachedKeyStore, type KeptKey, type RandomBytes, type SubjectKeyStore } from './subject-keys';

type KeyDocument = { _id: string; subject: string; key_id: string; key: Binary; created_at: string };

// Acknowledged by a majority and journaled: a key a failover could take back would be data lost.
const DURABLE = { writeConcern: { w: 'majority' as const, j: true } };

/**
 * The key store of the distributed profile: the `subject_keys` collection of the read store's
 * database, shared by every role. An erasure deletes the documents with a majority's acknowledgement;
 * MongoDB's storage engine reuses their space as it sees fit (what the suite cannot reach).
 */
export async function openMongoKeyStore(
  url: string,
  randomBytes: RandomBytes,
  { connect = (address) => MongoClient.connect(address) }: { connect?: MongoConnect } = {},
): Promise<SubjectKeyStore> {
  const client = await connect(url);
  const keys = client.db().collection<KeyDocument>('subject_keys');
  await keys.createIndex({ subject: 1, created_at: 1 });
  const kept = ({ subject, key_id, key }: KeyDocument): KeptKey => ({
    subject,
    id: key_id,
    key: Buffer.from(key.buffer),
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
      async insert(made, createdAt) {
        if (made.length === 0) return;
        await keys.bulkWrite(
          made.map(({ subject, id, key }) => ({
            updateOne: {
              filter: { _id: `${subject} ${id}` },
              update: { $setOnInsert: { subject, key_id: id, key: new Binary(key), created_at: createdAt } },
              upsert: true,
            },
          })),
          { ordered: false, ...DURABLE },
        );
      },
      async erase(subject) {
        await keys.deleteMany({ subject }, DURABLE);
      },
      all: async () => (await keys.find({}).toArray()).map(kept),
      close: () => client.close(),
    },
    randomBytes,
  );
}

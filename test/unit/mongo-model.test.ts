import type { Collection } from 'mongodb';
import { MongoModel } from '../support/mongo-model';

type Thing = { _id: number; even: boolean };

/** The model's profiler, as its header documents it (the read store's cost tests rely on it). */
describe('MongoDB model: what a read examines, as the profiler records it', () => {
  async function profiled(reads: (things: Collection<Thing>) => Promise<unknown>) {
    const client = await new MongoModel().connect('mongodb://model:27017/costs');
    const db = client.db();
    const things = db.collection<Thing>('things');
    // Ids 10 down to 1: the order they were written in is not the index's.
    const ids = Array.from({ length: 10 }, (_, index) => 10 - index);
    await things.bulkWrite(
      ids.map((_id) => ({
        replaceOne: { filter: { _id }, replacement: { even: _id % 2 === 0 }, upsert: true },
      })),
    );
    await db.command({ profile: 2 });
    await reads(things);
    await db.command({ profile: 0 });
    const entries = await db.collection('system.profile').find({}).toArray();
    return entries.map(({ op, ns, keysExamined, docsExamined }) => ({ op, ns, keysExamined, docsExamined }));
  }

  it('records nothing while the database is not profiled', async () => {
    const client = await new MongoModel().connect('mongodb://model:27017/costs');
    await client.db().collection('things').find({}).toArray();
    expect(await client.db().collection('system.profile').find({}).toArray()).toEqual([]);
  });

  it('examines the documents of an _id equality or $in, and the _id index from a lower bound', async () => {
    const entries = await profiled(async (things) => {
      await things.findOne({ _id: 3 });
      await things.find({ _id: { $in: [1, 2, 99] } }).toArray();
      await things
        .find({ $and: [{ even: true }, { _id: { $gt: 6 } }] })
        .sort({ _id: 1 })
        .toArray();
    });
    expect(entries).toEqual([
      { op: 'query', ns: 'costs.things', keysExamined: 1, docsExamined: 1 },
      { op: 'query', ns: 'costs.things', keysExamined: 2, docsExamined: 2 },
      { op: 'query', ns: 'costs.things', keysExamined: 4, docsExamined: 4 },
    ]);
  });

  it('examines the skipped documents of a page in _id order and stops at its end, and a count scans them all', async () => {
    const entries = await profiled(async (things) => {
      await things.find({}).sort({ _id: 1 }).skip(6).limit(2).toArray();
      await things.find({ even: true }).sort({ _id: 1 }).limit(2).toArray();
      await things.countDocuments({});
    });
    expect(entries).toEqual([
      { op: 'query', ns: 'costs.things', keysExamined: 8, docsExamined: 8 },
      { op: 'query', ns: 'costs.things', keysExamined: 4, docsExamined: 4 },
      { op: 'command', ns: 'costs.things', keysExamined: 0, docsExamined: 10 },
    ]);
  });
});

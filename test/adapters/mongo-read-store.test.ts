import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { readAll } from '../../src/market/read-models';
import { collectionName } from '../../src/projections/mongo-query';
import { openMongoReadStore, type MongoConnect } from '../../src/projections/mongo-read-store';
import type { Projector } from '../../src/projections/projection';
import { SCAN_PAGE } from '../../src/projections/read-all';
import type { CollectionDefinition } from '../../src/projections/read-store';
import { createProjectionRuntime } from '../../src/projections/runtime';
import { describeWithServer } from '../support/external-servers';
import { MongoModel } from '../support/mongo-model';
import { testMetadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';
import { readStoreContract, sharedReadStoreContract, type ReadStoreFixture } from './read-store.contract';

/** The server's URL with a database of its own, so that tests never meet each other's documents. */
function freshDatabase(url: string): string {
  return url.replace(
    /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/,
    `$1/suite-test-${randomUUID().slice(0, 8)}`,
  );
}

interface MongoFixture extends ReadStoreFixture {
  /** The URL of the store's database. */
  url: string;
}

/** A store in a database of its own on the server `connect` reaches, which `cleanup` drops. */
async function mongoFixture(address: string, connect: MongoConnect): Promise<MongoFixture> {
  const url = freshDatabase(address);
  const store = await openMongoReadStore(url, { connect });
  return {
    url,
    store,
    openAnother: () => openMongoReadStore(url, { connect }),
    async cleanup() {
      await store.close();
      const client = await connect(url);
      await client.db().dropDatabase();
      await client.close();
    },
  };
}

/**
 * What the server examined in a read-model collection of the database at `url` while `action` ran, as
 * its profiler (level 2: every operation) records it: for each operation the index keys or the
 * documents it examined, whichever it examined more of (a collection scan examines no key; an index
 * scan may skip keys without fetching their documents).
 */
async function examinedWhile(
  url: string,
  connect: MongoConnect,
  collection: string,
  action: () => Promise<void>,
): Promise<number> {
  const client = await connect(url);
  const db = client.db();
  try {
    await db.command({ profile: 2 });
    try {
      await action();
    } finally {
      await db.command({ profile: 0 });
    }
    const ns = `${db.databaseName}.${collectionName(collection)}`;
    const operations = await db.collection('system.profile').find({ ns }).toArray();
    await db.dropCollection('system.profile');
    return operations.reduce(
      (sum, operation) =>
        sum + Math.max(Number(operation.keysExamined ?? 0), Number(operation.docsExamined ?? 0)),
      0,
    );
  } finally {
    await client.close();
  }
}

const things: CollectionDefinition = {
  name: 'test.things',
  idKind: 'integer',
  searchFields: [],
  filterFields: [],
};

/** What reading a collection costs the server: no document examined twice, where paging would. */
function readCostContract(name: string, address: () => string, connect: MongoConnect): void {
  describe(`MongoDB read store, what the server examines: ${name}`, () => {
    let fixture: MongoFixture;
    beforeEach(async () => {
      fixture = await mongoFixture(address(), connect);
      await fixture.store.defineCollections([things]);
    });
    afterEach(() => fixture.cleanup());

    const holding = (count: number) =>
      fixture.store.commit(
        Array.from({ length: count }, (_, index) => ({
          collection: things.name,
          id: index + 1,
          doc: { id: index + 1 },
        })),
        new Map(),
      );
    const examined = (action: () => Promise<void>) =>
      examinedWhile(fixture.url, connect, things.name, action);

    it('answers a page that ends before its limit, and its total, without counting the documents again', async () => {
      await holding(20);
      for (const page of [
        { limit: 50, offset: 0 },
        { limit: 10, offset: 15 },
      ]) {
        let total = 0;
        const reading = async () => {
          ({ total } = await fixture.store.find(things.name, page));
        };
        expect(await examined(reading)).toBeLessThanOrEqual(20);
        expect(total).toBe(20);
      }
    });

    it('reads a collection of several pages with market readAll examining each document once', async () => {
      const count = 2 * SCAN_PAGE + 1;
      await holding(count);
      let read: unknown[] = [];
      const reading = async () => {
        read = await readAll(fixture.store, things.name);
      };
      expect(await examined(reading)).toBeLessThanOrEqual(count);
      expect(read).toHaveLength(count);
    });
  });
}

describe('MongoDB adapter against the model of the server (test/support/mongo-model.ts)', () => {
  const model = new MongoModel();
  const address = () => 'mongodb://model:27017/suite?replicaSet=rs0';
  const open = () => mongoFixture(address(), model.connect);
  readStoreContract('MongoDB model', open);
  sharedReadStoreContract('MongoDB model', open);
  readCostContract('MongoDB model', address, model.connect);
});

describeWithServer('mongo', 'MongoDB adapter', (address) => {
  const connect: MongoConnect = (url) => MongoClient.connect(url);
  const open = () => mongoFixture(address(), connect);
  readStoreContract('MongoDB', open);
  sharedReadStoreContract('MongoDB', open);
  readCostContract('MongoDB', address, connect);
});

describe('MongoDB adapter against the model: a transaction lives at most 60 s', () => {
  const counter: Projector = {
    name: 'test',
    projections: [
      {
        collection: 'test.counters',
        handles: ['Counted'],
        documentId: (event) => event.stream,
        evolve: (doc, event) => ({ id: event.stream, count: ((doc?.count as number) ?? 0) + 1 }),
      },
    ],
  };

  it('commits a catch-up of 1,500 documents on a server that takes 50 ms per document written', async () => {
    const { dir, cleanup } = tempDir();
    const events = openSqliteEventStore(path.join(dir, 'events.db'));
    const model = new MongoModel({ writeMs: 50 });
    const readStore = await openMongoReadStore('mongodb://model:27017/suite', { connect: model.connect });
    try {
      const [last] = (
        await events.appendAll(
          Array.from({ length: 1_500 }, (_, index) => ({
            stream: `test.counter-${index + 1}`,
            events: [{ type: 'Counted', data: {}, schema_version: 1 }],
            options: { expectedRevision: 'no_stream' as const, metadata: testMetadata },
          })),
        )
      ).slice(-1);
      await readStore.defineCollections([
        { name: 'test.counters', idKind: 'string', searchFields: [], filterFields: [] },
      ]);
      const runtime = createProjectionRuntime(events, readStore, [counter], { onError: () => {} });
      // Its first catch-up is awaited: a transaction aborted for its age fails it.
      await runtime.start();
      await runtime.stop();

      expect((await readStore.checkpoints()).get('test')).toBe(last?.events[0]?.position);
      expect(JSON.parse((await readStore.get('test.counters', 'test.counter-1500')) as string)).toMatchObject(
        {
          id: 'test.counter-1500',
          count: 1,
        },
      );
    } finally {
      await readStore.close();
      await events.close();
      cleanup();
    }
  });
});

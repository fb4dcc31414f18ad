import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { openMongoReadStore, type MongoConnect } from '../../src/projections/mongo-read-store';
import type { Projector } from '../../src/projections/projection';
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

/** A store in a database of its own on the server `connect` reaches, which `cleanup` drops. */
async function mongoFixture(address: string, connect: MongoConnect): Promise<ReadStoreFixture> {
  const url = freshDatabase(address);
  const store = await openMongoReadStore(url, { connect });
  return {
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

describe('MongoDB adapter against the model of the server (test/support/mongo-model.ts)', () => {
  const model = new MongoModel();
  const open = () => mongoFixture('mongodb://model:27017/suite?replicaSet=rs0', model.connect);
  readStoreContract('MongoDB model', open);
  sharedReadStoreContract('MongoDB model', open);
});

describeWithServer('mongo', 'MongoDB adapter', (address) => {
  const open = () => mongoFixture(address(), (url) => MongoClient.connect(url));
  readStoreContract('MongoDB', open);
  sharedReadStoreContract('MongoDB', open);
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
      expect(JSON.parse((await readStore.get('test.counters', 'test.counter-1500')) as string)).toEqual({
        id: 'test.counter-1500',
        count: 1,
      });
    } finally {
      await readStore.close();
      await events.close();
      cleanup();
    }
  });
});

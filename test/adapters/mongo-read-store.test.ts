import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openMongoReadStore, type MongoConnect } from '../../src/projections/mongo-read-store';
import { describeWithServer } from '../support/external-servers';
import { MongoModel } from '../support/mongo-model';
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

import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openMongoReadStore } from '../../src/projections/mongo-read-store';
import { describeWithServer } from '../support/external-servers';
import { readStoreContract } from './read-store.contract';

/** The server's URL with a database of its own, so that tests never meet each other's documents. */
function freshDatabase(url: string): string {
  return url.replace(
    /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/,
    `$1/suite-test-${randomUUID().slice(0, 8)}`,
  );
}

describeWithServer('mongo', 'MongoDB adapter', (address) => {
  readStoreContract('MongoDB', async () => {
    const url = freshDatabase(address());
    const store = await openMongoReadStore(url);
    return {
      store,
      async cleanup() {
        await store.close();
        const client = await MongoClient.connect(url);
        await client.db().dropDatabase();
        await client.close();
      },
    };
  });
});

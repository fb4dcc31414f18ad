import { randomBytes, randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { MongoConnect } from '../../src/projections/mongo-read-store';
import { openMongoKeyStore } from '../../src/privacy/mongo-key-store';
import type { SubjectKeyStore } from '../../src/privacy/subject-keys';
import { describeWithServer } from '../support/external-servers';
import { MongoModel } from '../support/mongo-model';

const ALICE = 'hrm.employee-1';
const BOB = 'hrm.employee-2';

function keyStoreBehaviour(name: string, server: () => { url: string; connect: MongoConnect }) {
  describe(`the MongoDB subject key store: ${name}`, () => {
    let url: string;
    let connect: MongoConnect;
    const opened: SubjectKeyStore[] = [];
    const open = async () => {
      const store = await openMongoKeyStore(url, randomBytes, { connect });
      opened.push(store);
      return store;
    };

    beforeEach(() => {
      ({ url, connect } = server());
      url = url.replace(
        /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/,
        `$1/suite-keys-${randomUUID().slice(0, 8)}`,
      );
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      const client = await connect(url);
      await client.db().dropDatabase();
      await client.close();
    });

    it('makes one key per subject, which every process sharing the database then reads', async () => {
      const store = await open();
      const made = await store.sealingKeys([ALICE, BOB]);
      expect(made.get(ALICE)?.key).toHaveLength(32);
      expect((await store.sealingKeys([ALICE])).get(ALICE)).toEqual(made.get(ALICE));

      const other = await open();
      const read = (await other.keysOf([ALICE])).get(ALICE);
      expect(read?.get(made.get(ALICE)?.id as string)).toEqual(made.get(ALICE)?.key);
    });

    it('erases every key of a subject and no other, and tombstones it, for every process', async () => {
      const store = await open();
      const other = await open();
      const made = await store.sealingKeys([ALICE, BOB]);
      await other.erase(ALICE);
      const aliceKey = new Set([made.get(ALICE)?.id as string]);
      expect((await store.keysNamed(new Map([[ALICE, aliceKey]]))).get(ALICE)?.size).toBe(0);
      expect((await store.allKeys()).map(({ subject }) => subject)).toEqual([BOB]);
      // Tombstoned: no key is given to the subject again, by any process.
      await expect(store.sealingKeys([ALICE])).rejects.toMatchObject({ code: 'subject_erased' });
      await expect((await open()).sealingKeys([ALICE])).rejects.toMatchObject({ code: 'subject_erased' });
    });

    it('keeps a key given twice once, as it was first given', async () => {
      const store = await open();
      const key = { subject: ALICE, id: 'a1', key: randomBytes(32) };
      await store.keep([key]);
      await store.keep([{ ...key, key: randomBytes(32) }]);
      expect(await store.allKeys()).toEqual([key]);
    });
  });
}

const model = new MongoModel();
keyStoreBehaviour('against the model of the server (test/support/mongo-model.ts)', () => ({
  url: 'mongodb://model:27017/suite?replicaSet=rs0',
  connect: model.connect,
}));

describeWithServer('mongo', 'MongoDB subject key store', (address) => {
  keyStoreBehaviour('against the server', () => ({
    url: address(),
    connect: (url) => MongoClient.connect(url),
  }));
});

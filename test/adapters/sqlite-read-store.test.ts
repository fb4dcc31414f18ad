import path from 'node:path';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { readStoreContract } from './read-store.contract';

readStoreContract('SQLite', async () => {
  const { dir, cleanup } = tempDir();
  const store = openSqliteReadStore(path.join(dir, 'read.db'));
  return {
    store,
    async cleanup() {
      await store.close();
      cleanup();
    },
  };
});

describe('SQLite read store shared by two processes (api and projector roles)', () => {
  it('answers pages and documents again after the other connection commits, not from its caches', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'read.db');
    const collection = {
      name: 'test.things',
      idKind: 'integer',
      searchFields: [],
      filterFields: [],
    } as const;
    const reader = openSqliteReadStore(file, { shared: true });
    const projector = openSqliteReadStore(file, { shared: true });
    await reader.defineCollections([collection]);
    await projector.defineCollections([collection]);
    const page = { limit: 10, offset: 0 };

    expect((await reader.find('test.things', page)).total).toBe(0);
    await projector.commit([{ collection: 'test.things', id: 1, doc: { id: 1 } }], new Map([['test', 1]]));

    expect(await reader.find('test.things', page)).toEqual({ total: 1, items: ['{"id":1}'] });
    expect(await reader.get('test.things', 1)).toBe('{"id":1}');
    await projector.commit(
      [{ collection: 'test.things', id: 1, doc: { id: 1, v: 2 } }],
      new Map([['test', 2]]),
    );
    expect(await reader.get('test.things', 1)).toBe('{"id":1,"v":2}');
    await reader.close();
    await projector.close();
    cleanup();
  });
});

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

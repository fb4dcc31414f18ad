import path from 'node:path';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { tempDir } from '../support/temp-dir';
import { eventStoreContract } from './event-store.contract';

eventStoreContract('SQLite', async () => {
  const { dir, cleanup } = tempDir();
  const store = openSqliteEventStore(path.join(dir, 'events.db'));
  return {
    store,
    async cleanup() {
      await store.close();
      cleanup();
    },
  };
});

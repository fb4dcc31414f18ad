import { sqliteKeyRows } from './sqlite-key-rows';
import { cachedKeyStore, type RandomBytes, type SubjectKeyStore } from './subject-keys';

/**
 * The embedded key store: `keys.db` beside the log, read and written in this thread, and the values
 * sealed here. The demo data takes the same path, its random bytes from a seeded generator.
 */
export function openSqliteKeyStore(file: string, randomBytes: RandomBytes): SubjectKeyStore {
  return cachedKeyStore(sqliteKeyRows(file), randomBytes);
}

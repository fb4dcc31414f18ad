import { keyThreadRows } from './key-thread-rows';
import { sqliteKeyRows } from './sqlite-key-rows';
import { cachedKeyStore, type RandomBytes, type SubjectKeyStore } from './subject-keys';

/**
 * The embedded key store: `keys.db` beside the log. Its rows are written by the key thread, off the
 * event loop; the subjects' keys are read, and values sealed, here. `inTurn` (the demo data): the writes
 * in this thread too, every one synced before the write that needs it goes on, so that concurrent
 * writes never overtake each other and two first starts with one seed write the same log.
 */
export function openSqliteKeyStore(
  file: string,
  randomBytes: RandomBytes,
  { inTurn = false }: { inTurn?: boolean } = {},
): SubjectKeyStore {
  return cachedKeyStore(inTurn ? sqliteKeyRows(file) : keyThreadRows(file), randomBytes);
}

import { keyThreadRows } from './key-thread-rows';
import { sqliteKeyRows } from './sqlite-key-rows';
import { cachedKeyStore, sealedHere, type RandomBytes, type SubjectKeyStore } from './subject-keys';

/**
 * The embedded key store: `keys.db` beside the log. Its rows are written, and values sealed, by the
 * key thread, off the event loop; the subjects' keys are read here. Sealing there costs the event loop
 * less than sealing here: AES-GCM amid a request's other work took about 20 µs of it a request under
 * load (the cipher's objects, their collection, colder caches), a turn's values crossing to the thread
 * and back about 10. `inTurn` (the demo data): all of it in this thread instead, every write synced
 * before the write that needs it goes on, so that concurrent writes never overtake each other and two
 * first starts with one seed write the same log.
 */
export function openSqliteKeyStore(
  file: string,
  randomBytes: RandomBytes,
  { inTurn = false }: { inTurn?: boolean } = {},
): SubjectKeyStore {
  if (inTurn) return cachedKeyStore(sqliteKeyRows(file), randomBytes, sealedHere(randomBytes));
  const thread = keyThreadRows(file);
  return cachedKeyStore(thread, randomBytes, thread.seal);
}

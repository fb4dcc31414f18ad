import { keyThreadRows } from './key-thread-rows';
import { sqliteKeyRows } from './sqlite-key-rows';
import { cachedKeyStore, sealedHere, type RandomBytes, type SubjectKeyStore } from './subject-keys';

/**
 * The embedded key store: `keys.db` beside the log. Its rows are written, and values sealed, by the
 * key thread, off the event loop; the subjects' keys are read here. AES-GCM amid a request's other
 * work took the event loop about 20 µs a request under load (the cipher's objects, their collection,
 * colder caches); a turn's values crossing to the thread and back take it a few, though each write
 * then waits a turn for its values (writes lost 17 % to sealing here, 11 % there). `inTurn` (the demo
 * data): all of it in this thread instead, every write synced before the write that needs it goes on,
 * so that concurrent writes never overtake each other and two first starts with one seed write the
 * same log.
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

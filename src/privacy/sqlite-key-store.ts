import Database from 'better-sqlite3';
import { createWalSync } from '../events/wal-sync';
import type { SubjectKey } from './sealed-value';
import { cachedKeyStore, type KeptKey, type RandomBytes, type SubjectKeyStore } from './subject-keys';

type KeyRow = { subject: string | null; key_id: string; key: Buffer };

/**
 * The embedded key store: `keys.db` beside the log. Deleted keys are overwritten in the file
 * (`secure_delete`) and the write-ahead log is emptied after an erasure, so no copy of a key is left.
 *
 * A key is on disk before the event sealed with it is (a key lost in a crash is data lost): spares
 * are fsynced when made, off the event loop; handing one to a subject is an ordinary commit.
 * `inTurn` (the demo data): each commit is synced before the write goes on instead, so that
 * concurrent writes never overtake each other and two first starts with one seed write the same log.
 */
export function openSqliteKeyStore(
  file: string,
  randomBytes: RandomBytes,
  { inTurn = false }: { inTurn?: boolean } = {},
): SubjectKeyStore {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(inTurn ? 'synchronous = FULL' : 'synchronous = NORMAL');
  const walSync = createWalSync(file);
  db.pragma('secure_delete = ON');
  db.transaction(() =>
    db.exec(`CREATE TABLE IF NOT EXISTS subject_keys (
      subject TEXT NOT NULL,
      key_id TEXT NOT NULL,
      key BLOB NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (subject, key_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS spare_keys (
      key_id TEXT PRIMARY KEY,
      key BLOB NOT NULL,
      created_at TEXT NOT NULL
    ) WITHOUT ROWID`),
  ).immediate();
  const statements = {
    of: db.prepare<[string], KeyRow>(
      'SELECT subject, key_id, key FROM subject_keys WHERE subject IN (SELECT value FROM json_each(?)) ' +
        'ORDER BY subject, created_at, key_id',
    ),
    spares: db.prepare<[string], KeyRow>(
      'SELECT NULL AS subject, key_id, key FROM spare_keys WHERE key_id IN (SELECT value FROM json_each(?))',
    ),
    insert: db.prepare<[string, string, Buffer, string]>(
      'INSERT OR IGNORE INTO subject_keys (subject, key_id, key, created_at) VALUES (?, ?, ?, ?)',
    ),
    insertSpare: db.prepare<[string, Buffer, string]>(
      'INSERT OR IGNORE INTO spare_keys (key_id, key, created_at) VALUES (?, ?, ?)',
    ),
    erase: db.prepare<[string]>('DELETE FROM subject_keys WHERE subject = ?'),
    dropSpare: db.prepare<[string]>('DELETE FROM spare_keys WHERE key_id = ?'),
    all: db.prepare<[], KeyRow>(
      'SELECT subject, key_id, key FROM subject_keys UNION ALL SELECT NULL, key_id, key FROM spare_keys',
    ),
  };
  const kept = ({ subject, key_id, key }: KeyRow): KeptKey => ({ subject, id: key_id, key });
  const insert = db.transaction((keys: readonly KeptKey[], createdAt: string) => {
    for (const { subject, id, key } of keys) {
      if (subject === null) statements.insertSpare.run(id, key, createdAt);
      else statements.insert.run(subject, id, key, createdAt);
    }
  });
  const dropSpares = (keyIds: readonly string[]) => {
    for (const id of keyIds) statements.dropSpare.run(id);
  };
  const assign = db.transaction((subject: string, { id, key }: SubjectKey, createdAt: string) => {
    statements.dropSpare.run(id);
    statements.insert.run(subject, id, key, createdAt);
  });
  const erase = db.transaction((subject: string, keyIds: readonly string[]) => {
    statements.erase.run(subject);
    dropSpares(keyIds);
  });
  return cachedKeyStore(
    {
      of: async (subjects) =>
        subjects.length === 0 ? [] : statements.of.all(JSON.stringify(subjects)).map(kept),
      spares: async (keyIds) => statements.spares.all(JSON.stringify(keyIds)).map(kept),
      async insert(keys, createdAt) {
        insert.immediate(keys, createdAt);
        if (!inTurn) await walSync.afterCommit();
      },
      assign: async (subject, key, createdAt) => assign.immediate(subject, key, createdAt),
      async erase(subject, keyIds) {
        erase.immediate(subject, keyIds);
        db.pragma('wal_checkpoint(TRUNCATE)');
      },
      drop: async (keyIds) => db.transaction(dropSpares).immediate(keyIds),
      all: async () => statements.all.all().map(kept),
      async close() {
        await walSync.close();
        db.close();
      },
    },
    randomBytes,
  );
}

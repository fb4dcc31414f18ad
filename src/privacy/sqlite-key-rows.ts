import Database from 'better-sqlite3';
import type { KeptKey, KeyRows } from './subject-keys';
import { KEYS_SCHEMA } from './keys-schema';
import { applySchema } from '../sqlite-schema';

type KeyRow = { subject: string | null; key_id: string; key: Buffer };

const kept = ({ subject, key_id, key }: KeyRow): KeptKey => ({ subject, id: key_id, key });

/** keys.db, its tables made if it has none yet. */
function openKeysDb(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  applySchema(db, KEYS_SCHEMA);
  return db;
}

/**
 * The keys the subjects were handed, each subject's oldest first. Answered as one JSON text: a row per
 * key, with its key a Buffer of its own, took twice as long (a rebuild looks up 200k subjects a million events).
 */
function subjectKeysOf(db: Database.Database): (subjects: readonly string[]) => KeptKey[] {
  const statement = db
    .prepare<[string], string>(
      'SELECT json_group_array(json_array(subject, key_id, hex(key))) FROM (' +
        'SELECT subject, key_id, key FROM subject_keys WHERE subject IN (SELECT value FROM json_each(?)) ' +
        'ORDER BY subject, created_at, key_id)',
    )
    .pluck();
  return (subjects) =>
    (JSON.parse(statement.get(JSON.stringify(subjects)) ?? '[]') as [string, string, string][]).map(
      ([subject, id, key]) => ({ subject, id, key: Buffer.from(key, 'hex') }),
    );
}

/** The subjects among these that were erased (their tombstones). */
function erasedAmongOf(db: Database.Database): (subjects: readonly string[]) => string[] {
  const statement = db
    .prepare<[string], string>(
      'SELECT subject FROM erased_subjects WHERE subject IN (SELECT value FROM json_each(?))',
    )
    .pluck();
  return (subjects) => (subjects.length === 0 ? [] : statement.all(JSON.stringify(subjects)));
}

/**
 * A look at the subjects' keys in keys.db from this thread, beside the key thread that writes them:
 * a read costs a few microseconds a subject, where asking the thread made a rebuild wait for it
 * milliseconds a page. It sees what was committed; what this process handed out and the thread has not
 * written yet its key store remembers (and finds by the key ids, when asked for them afresh).
 */
export function sqliteKeyReader(file: string): {
  of(subjects: readonly string[]): KeptKey[];
  erasedAmong(subjects: readonly string[]): string[];
  close(): void;
} {
  const db = openKeysDb(file);
  return { of: subjectKeysOf(db), erasedAmong: erasedAmongOf(db), close: () => db.close() };
}

/** A spare handed to a subject, `at` a time in milliseconds. */
export interface HandedOut {
  subject: string;
  id: string;
  at: number;
}

/** `keys.db`'s rows, and the writing of many handing-outs at once. */
export type SqliteKeyRows = KeyRows & { assignAll(handed: readonly HandedOut[]): void };

/**
 * `keys.db`'s rows. Every commit is synced (`synchronous = FULL`): a key lost in a crash is data lost,
 * and these rows are written either off the event loop (the key thread, which is handed the
 * handing-outs of a while at once) or for the demo data, whose writes must not overtake each other.
 * Deleted keys are overwritten in the file (`secure_delete`) and the write-ahead log is emptied after
 * an erasure, so no copy of a key is left. A handing-out is written only for a key still spare, so an
 * erasure meanwhile is not undone.
 */
export function sqliteKeyRows(file: string): SqliteKeyRows {
  const db = openKeysDb(file);
  const keysOf = subjectKeysOf(db);
  const erasedAmong = erasedAmongOf(db);
  const statements = {
    // A spare named for an erased subject is not answered: it must not be handed to it.
    named: db.prepare<[string, string], KeyRow>(
      'SELECT NULL AS subject, key_id, key FROM spare_keys WHERE key_id IN (' +
        "SELECT value ->> 'id' FROM json_each(?) " +
        "WHERE value ->> 'subject' NOT IN (SELECT subject FROM erased_subjects)) " +
        'UNION ALL SELECT own.subject, own.key_id, own.key FROM json_each(?) AS named JOIN subject_keys AS own ' +
        "ON own.subject = named.value ->> 'subject' AND own.key_id = named.value ->> 'id'",
    ),
    insert: db.prepare<[string, string, Buffer, string, string]>(
      'INSERT OR IGNORE INTO subject_keys (subject, key_id, key, created_at) SELECT ?, ?, ?, ? ' +
        'WHERE ? NOT IN (SELECT subject FROM erased_subjects)',
    ),
    // Many rows a statement (as JSON): a statement per row costs more than its row. A spare handed to
    // a subject erased since is not kept for it (it is dropped with the others).
    assign: db.prepare<[string]>(
      'INSERT OR IGNORE INTO subject_keys (subject, key_id, key, created_at) ' +
        "SELECT handed.value ->> 'subject', spare.key_id, spare.key, handed.value ->> 'at' " +
        "FROM json_each(?) AS handed JOIN spare_keys AS spare ON spare.key_id = handed.value ->> 'id' " +
        "WHERE handed.value ->> 'subject' NOT IN (SELECT subject FROM erased_subjects)",
    ),
    insertSpares: db.prepare<[string, string]>(
      'INSERT OR IGNORE INTO spare_keys (key_id, key, created_at) ' +
        "SELECT value ->> 'id', unhex(value ->> 'key'), ? FROM json_each(?)",
    ),
    erase: db.prepare<[string]>('DELETE FROM subject_keys WHERE subject = ?'),
    tombstone: db.prepare<[string, string]>(
      'INSERT OR IGNORE INTO erased_subjects (subject, erased_at) VALUES (?, ?)',
    ),
    dropSpares: db.prepare<[string]>(
      'DELETE FROM spare_keys WHERE key_id IN (SELECT value FROM json_each(?))',
    ),
    all: db.prepare<[], KeyRow>(
      'SELECT subject, key_id, key FROM subject_keys UNION ALL SELECT NULL, key_id, key FROM spare_keys',
    ),
  };
  const insert = db.transaction((keys: readonly KeptKey[], createdAt: string) => {
    const spares = keys.filter(({ subject }) => subject === null);
    statements.insertSpares.run(
      createdAt,
      JSON.stringify(spares.map(({ id, key }) => ({ id, key: key.toString('hex') }))),
    );
    for (const { subject, id, key } of keys)
      if (subject !== null) statements.insert.run(subject, id, key, createdAt, subject);
  });
  const dropSpares = (keyIds: readonly string[]) => void statements.dropSpares.run(JSON.stringify(keyIds));
  const assignAll = db.transaction((handed: readonly HandedOut[]) => {
    statements.assign.run(
      JSON.stringify(handed.map(({ subject, id, at }) => ({ subject, id, at: new Date(at).toISOString() }))),
    );
    dropSpares(handed.map(({ id }) => id));
  });
  const erase = db.transaction((subject: string, keyIds: readonly string[]) => {
    statements.tombstone.run(subject, new Date().toISOString());
    statements.erase.run(subject);
    dropSpares(keyIds);
  });

  return {
    of: async (subjects) => (subjects.length === 0 ? [] : keysOf(subjects)),
    erasedAmong: async (subjects) => erasedAmong(subjects),
    async named(keys) {
      const named = JSON.stringify(keys);
      return statements.named.all(named, named).map(kept);
    },
    insert: async (keys, createdAt) => insert.immediate(keys, createdAt),
    assign: (subject, { id }, at) => assignAll.immediate([{ subject, id, at }]),
    assignAll: (handed) => assignAll.immediate(handed),
    async erase(subject, keyIds) {
      erase.immediate(subject, keyIds);
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    drop: async (keyIds) => dropSpares(keyIds),
    all: async () => statements.all.all().map(kept),
    close: async () => void db.close(),
  };
}

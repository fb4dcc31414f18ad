import Database from 'better-sqlite3';
import type { KeptKey, KeyRows } from './subject-keys';
import { KEYS_SCHEMA } from './keys-schema';
import { applySchema } from '../sqlite-schema';

type KeyRow = { subject: string | null; key_id: string; key: Buffer };
type HandOut = { subject: string; id: string; at: number };

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
 * `keys.db`'s rows, read and written in this thread. A write that must survive a power cut is synced
 * before it answers (`synchronous = FULL`): the spares (a key lost would be data lost: no value is
 * sealed under one before it is), the keys kept, an erasure. Handing a spare to a subject is only
 * committed (`NORMAL`): a power cut that loses it leaves the key a spare, found again by the id its
 * values name, and the next synced write takes it to the disk with its own. Deleted keys are
 * overwritten in the file (`secure_delete`) and the write-ahead log is emptied after an erasure, so no
 * copy of a key is left. A handing-out is written only for a key still spare, so an erasure is not undone.
 */
export function sqliteKeyRows(file: string): KeyRows {
  const db = openKeysDb(file);
  db.pragma('synchronous = NORMAL');
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
    assign: db.prepare<{ subject: string; id: string; at: string }>(
      'INSERT OR IGNORE INTO subject_keys (subject, key_id, key, created_at) ' +
        'SELECT :subject, key_id, key, :at FROM spare_keys WHERE key_id = :id ' +
        'AND :subject NOT IN (SELECT subject FROM erased_subjects)',
    ),
    // Many rows a statement (as JSON): a statement per row costs more than its row.
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
  /** The write in a transaction, synced to the disk before it answers. */
  function durably<Args extends unknown[]>(write: (...args: Args) => void): (...args: Args) => void {
    const transaction = db.transaction(write);
    return (...args) => {
      db.pragma('synchronous = FULL');
      try {
        transaction.immediate(...args);
      } finally {
        db.pragma('synchronous = NORMAL');
      }
    };
  }
  const dropSpares = (keyIds: readonly string[]) => void statements.dropSpares.run(JSON.stringify(keyIds));
  const insert = durably((keys: readonly KeptKey[], createdAt: string) => {
    const spares = keys.filter(({ subject }) => subject === null);
    statements.insertSpares.run(
      createdAt,
      JSON.stringify(spares.map(({ id, key }) => ({ id, key: key.toString('hex') }))),
    );
    for (const { subject, id, key } of keys)
      if (subject !== null) statements.insert.run(subject, id, key, createdAt, subject);
  });
  const assignAll = db.transaction((handedOut: readonly HandOut[]) => {
    for (const { subject, id, at } of handedOut)
      statements.assign.run({ subject, id, at: new Date(at).toISOString() });
    dropSpares(handedOut.map(({ id }) => id));
  });
  // The handings-out of a turn are written together at its end: a transaction each cost more than
  // sealing the values (84 against 18 µs a request under load). Every other call writes them first,
  // so what it reads or erases comes after them, as if each had been written at once.
  let pending: HandOut[] = [];
  let turnEnd: Promise<void> | null = null;
  function writePending() {
    const handedOut = pending;
    pending = [];
    turnEnd = null;
    if (handedOut.length > 0) assignAll.immediate(handedOut);
  }
  function atTurnEnd(): Promise<void> {
    return new Promise((resolve, reject) =>
      setImmediate(() => {
        try {
          writePending();
          resolve();
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      }),
    );
  }
  const erase = durably((subject: string, keyIds: readonly string[]) => {
    statements.tombstone.run(subject, new Date().toISOString());
    statements.erase.run(subject);
    dropSpares(keyIds);
  });

  return {
    async of(subjects) {
      writePending();
      return subjects.length === 0 ? [] : keysOf(subjects);
    },
    erasedAmong: async (subjects) => erasedAmong(subjects),
    async named(keys) {
      writePending();
      const named = JSON.stringify(keys);
      return statements.named.all(named, named).map(kept);
    },
    insert: async (keys, createdAt) => insert(keys, createdAt),
    assign(subject, { id }, at) {
      pending.push({ subject, id, at });
      return (turnEnd ??= atTurnEnd());
    },
    async erase(subject, keyIds) {
      writePending();
      erase(subject, keyIds);
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async drop(keyIds) {
      writePending();
      dropSpares(keyIds);
    },
    async all() {
      writePending();
      return statements.all.all().map(kept);
    },
    async close() {
      writePending();
      db.close();
    },
  };
}

import type Database from 'better-sqlite3';
import { sealedSubjectsIn } from '../privacy/sealed-value';
import type { SqliteSchema } from '../sqlite-schema';

/** Events indexed at a time when a log written before the index is upgraded. */
const INDEXED_AT_ONCE = 10_000;

/** Indexes the subjects of a log written before `subject_events`: one read of the events that hold a sealed value. */
function indexSubjects(db: Database.Database): void {
  const page = db
    .prepare<[number, number], [number, string]>(
      `SELECT position, data FROM events WHERE position > ? AND data LIKE '%"pd1:%' ORDER BY position LIMIT ?`,
    )
    .raw();
  const insert = db.prepare('INSERT OR IGNORE INTO subject_events (subject, position) VALUES (?, ?)');
  for (let after = 0; ;) {
    const rows = page.all(after, INDEXED_AT_ONCE);
    for (const [position, data] of rows) {
      for (const subject of sealedSubjectsIn(JSON.parse(data))) insert.run(subject, position);
    }
    if (rows.length < INDEXED_AT_ONCE) return;
    after = (rows.at(-1) as [number, string])[0];
  }
}

/**
 * `events.db`'s schema: the log, each stream's head, the idempotency keys of appends, and the indexes
 * that make a read cost what it reads: the events of each data subject, the events of each type.
 */
export const EVENTS_SCHEMA: SqliteSchema = {
  versions: [
    {
      change: 'the log, stream heads and idempotency keys',
      migrate: `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  stream TEXT NOT NULL,
  revision INTEGER NOT NULL,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  UNIQUE (stream, revision)
);
CREATE TABLE IF NOT EXISTS streams (
  stream TEXT PRIMARY KEY,
  category TEXT NOT NULL,
  number INTEGER,
  revision INTEGER NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS streams_by_number ON streams (category, number);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  stream TEXT NOT NULL,
  revision INTEGER NOT NULL,
  position INTEGER NOT NULL
);
`,
    },
    {
      change: 'the events of each data subject and of each type, indexed (the log is read once to fill them)',
      migrate(db) {
        db.exec(`
CREATE TABLE subject_events (
  subject TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (subject, position)
) WITHOUT ROWID;
CREATE INDEX events_by_type ON events (type, position);
`);
        indexSubjects(db);
      },
    },
  ],
};

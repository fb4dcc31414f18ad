import type { SqliteSchema } from '../sqlite-schema';

/** `events.db`'s schema: the log, each stream's head, and the idempotency keys of appends. */
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
  ],
};

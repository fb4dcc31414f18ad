import type { SqliteSchema } from '../sqlite-schema';

/** `keys.db`'s schema: the keys handed to data subjects, the spare keys, and the erased subjects' tombstones. */
export const KEYS_SCHEMA: SqliteSchema = {
  versions: [
    {
      change: 'subject keys, spare keys and erased subjects',
      migrate: `
CREATE TABLE IF NOT EXISTS subject_keys (
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
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS erased_subjects (
  subject TEXT PRIMARY KEY,
  erased_at TEXT NOT NULL
) WITHOUT ROWID;
`,
    },
  ],
};

import type { SqliteSchema } from '../sqlite-schema';

/** `log-tree.db`'s schema: the Merkle tree's leaves and inner nodes, and the checkpoints signed. */
export const LOG_TREE_SCHEMA: SqliteSchema = {
  versions: [
    {
      change: 'the tree leaves and nodes, and the signed checkpoints',
      migrate: `
CREATE TABLE IF NOT EXISTS leaves (
  idx INTEGER PRIMARY KEY,
  position INTEGER NOT NULL,
  hash BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS nodes (
  level INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  hash BLOB NOT NULL,
  PRIMARY KEY (level, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS checkpoints (
  size INTEGER PRIMARY KEY,
  root BLOB NOT NULL,
  note TEXT NOT NULL,
  signed_at TEXT NOT NULL
);
`,
    },
    {
      change: "the witnesses' cosignatures of each checkpoint",
      migrate: `ALTER TABLE checkpoints ADD COLUMN cosignatures TEXT NOT NULL DEFAULT '';`,
    },
  ],
};

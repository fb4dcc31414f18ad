import type { SqliteSchema } from '../sqlite-schema';

/**
 * `read-models.db`'s own tables: the projectors' checkpoints and the leases. The tables of the read
 * models themselves follow their collections' definitions (see `read-model-definitions.ts`); a version
 * that changes how the store lays them out may drop them all, and the read models are rebuilt.
 */
export const READ_MODELS_SCHEMA: SqliteSchema = {
  versions: [
    {
      change: 'checkpoints and leases',
      migrate: `
CREATE TABLE IF NOT EXISTS checkpoints (projector TEXT PRIMARY KEY, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL);
`,
    },
  ],
};

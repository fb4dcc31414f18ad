import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { EVENTS_SCHEMA } from './events/events-schema';
import { LOG_TREE_SCHEMA } from './log-proofs/tree-schema';
import { KEYS_SCHEMA } from './privacy/keys-schema';
import { READ_MODELS_SCHEMA } from './projections/read-models-schema';
import { applySchema, type SchemaUpgrade, type SqliteSchema } from './sqlite-schema';

/** The SQLite files a data directory may hold, by name, and their schemas. */
export const DATA_FILES: ReadonlyMap<string, SqliteSchema> = new Map([
  ['events.db', EVENTS_SCHEMA],
  ['read-models.db', READ_MODELS_SCHEMA],
  ['keys.db', KEYS_SCHEMA],
  ['log-tree.db', LOG_TREE_SCHEMA],
]);

function upgradeMessage(name: string, { from, to }: SchemaUpgrade): string {
  const found =
    from === 0
      ? `${name}: written before schema versions were recorded, taken as version 1`
      : `${name}: at schema version ${from}`;
  return to > Math.max(from, 1) ? `${found}, migrated to version ${to}` : found;
}

/**
 * Brings every SQLite file of the data directory to its schema's current version before the stores
 * open them, and logs each file migrated; throws `NewerSchemaError` for a file a newer build wrote.
 * Each store applies its schema again when it opens its file (a new file, or a store opened on its
 * own), which finds the file current.
 */
export function upgradeDataFiles(dataDir: string, logger: Logger): void {
  for (const [name, schema] of DATA_FILES) {
    const file = path.join(dataDir, name);
    if (!existsSync(file)) continue;
    const db = new Database(file);
    // As the key store and the read store: what a migration deletes is overwritten, not left in free space.
    db.pragma('secure_delete = ON');
    try {
      const upgrade = applySchema(db, schema);
      if (upgrade.from === upgrade.to || upgrade.created) continue;
      logger.info(
        { file: name, from: upgrade.from, to: upgrade.to, applied: upgrade.applied },
        upgradeMessage(name, upgrade),
      );
    } finally {
      db.close();
    }
  }
}

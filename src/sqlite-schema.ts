import type Database from 'better-sqlite3';

/** One version of a SQLite file's schema: what brings a file from the version before to this one. */
export interface SchemaVersion {
  /** What the version changes, for the log. */
  change: string;
  /** SQL, or a function of the connection, run inside the migration's transaction. */
  migrate: string | ((db: Database.Database) => void);
}

/**
 * A SQLite file's schema as the list of its versions, kept in the file's `user_version`: version 1
 * creates the tables, each later version migrates a file from the one before. A file written before
 * versions were recorded has `user_version` 0 and the tables of version 1, so version 1 must create
 * them only if they do not exist (`CREATE TABLE IF NOT EXISTS`). A version, once released, never
 * changes: a change is a new version at the end of the list.
 */
export interface SqliteSchema {
  versions: readonly [SchemaVersion, ...SchemaVersion[]];
}

/** What opening a file did to its schema. */
export interface SchemaUpgrade {
  /** The file's path. */
  file: string;
  /** Its version before: 0 for a file written before versions were recorded, or a new file. */
  from: number;
  to: number;
  /** The file held no table: its schema was created rather than migrated. */
  created: boolean;
  /** The changes of the versions applied, oldest first. */
  applied: string[];
}

/** A file written by a newer build: this build does not know its schema, and does not touch it. */
export class NewerSchemaError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `${file} has schema version ${found}, newer than version ${known} which this build knows: ` +
        'it was written by a newer build of the suite, which must be the one to open it',
    );
    this.name = 'NewerSchemaError';
  }
}

export const currentVersion = (schema: SqliteSchema): number => schema.versions.length;

const versionOf = (db: Database.Database): number => db.pragma('user_version', { simple: true }) as number;

/** Throws `NewerSchemaError` when the file is at a version newer than the schema's; answers its version. */
export function checkSchema(db: Database.Database, schema: SqliteSchema): number {
  const found = versionOf(db);
  if (found > currentVersion(schema)) throw new NewerSchemaError(db.name, found, currentVersion(schema));
  return found;
}

/**
 * Brings the file to the schema's current version, all the missing versions in one transaction (a
 * failure leaves the file as it was), or throws `NewerSchemaError`. A file already current is only
 * read: processes that open the same file together do not wait for each other.
 */
export function applySchema(db: Database.Database, schema: SqliteSchema): SchemaUpgrade {
  const to = currentVersion(schema);
  const unchanged = { file: db.name, from: to, to, created: false, applied: [] };
  if (checkSchema(db, schema) === to) return unchanged;
  // Taken up front, the write lock makes another process that migrates the same file wait, then
  // find it current.
  return db
    .transaction((): SchemaUpgrade => {
      const from = checkSchema(db, schema);
      if (from === to) return unchanged;
      const created =
        from === 0 && db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table'").get() === undefined;
      const missing = schema.versions.slice(from);
      for (const { migrate } of missing) {
        if (typeof migrate === 'string') db.exec(migrate);
        else migrate(db);
      }
      db.pragma(`user_version = ${to}`);
      return { file: db.name, from, to, created, applied: missing.map(({ change }) => change) };
    })
    .immediate();
}

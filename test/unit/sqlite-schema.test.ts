import path from 'node:path';
import Database from 'better-sqlite3';
import { applySchema, checkSchema, NewerSchemaError, type SqliteSchema } from '../../src/sqlite-schema';
import { tempDir } from '../support/temp-dir';

const VERSION_1 = {
  change: 'notes',
  migrate: 'CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)',
};
const VERSION_2 = {
  change: 'notes have an author',
  migrate: "ALTER TABLE notes ADD COLUMN author TEXT NOT NULL DEFAULT ''",
};
const VERSION_3 = {
  change: 'authors are kept apart',
  migrate: (db: Database.Database) => {
    db.exec('CREATE TABLE authors (name TEXT PRIMARY KEY)');
    db.exec("INSERT INTO authors SELECT DISTINCT author FROM notes WHERE author <> ''");
  },
};
const schemaOf = (...versions: SqliteSchema['versions']): SqliteSchema => ({ versions });

let dir: ReturnType<typeof tempDir>;
let db: Database.Database;
beforeEach(() => {
  dir = tempDir('suite-schema-');
  db = new Database(path.join(dir.dir, 'notes.db'));
});
afterEach(() => {
  db.close();
  dir.cleanup();
});

const version = () => db.pragma('user_version', { simple: true });

test('a new file is created at the current version', () => {
  const upgrade = applySchema(db, schemaOf(VERSION_1, VERSION_2));
  expect(upgrade).toMatchObject({ from: 0, to: 2, created: true });
  expect(version()).toBe(2);
  db.prepare("INSERT INTO notes (text, author) VALUES ('hello', 'ann')").run();
});

test('a file written before versions were recorded is taken as version 1 and migrated on', () => {
  db.exec(VERSION_1.migrate);
  db.prepare("INSERT INTO notes (text) VALUES ('kept')").run();
  const upgrade = applySchema(db, schemaOf(VERSION_1, VERSION_2));
  expect(upgrade).toEqual({
    file: db.name,
    from: 0,
    to: 2,
    created: false,
    applied: ['notes', 'notes have an author'],
  });
  expect(db.prepare('SELECT text, author FROM notes').all()).toEqual([{ text: 'kept', author: '' }]);
});

test('an older file runs only the versions it lacks, in order', () => {
  applySchema(db, schemaOf(VERSION_1, VERSION_2));
  db.prepare("INSERT INTO notes (text, author) VALUES ('a', 'ann'), ('b', 'bob'), ('c', 'ann')").run();
  const upgrade = applySchema(db, schemaOf(VERSION_1, VERSION_2, VERSION_3));
  expect(upgrade).toMatchObject({ from: 2, to: 3, applied: ['authors are kept apart'] });
  expect(db.prepare('SELECT name FROM authors ORDER BY name').pluck().all()).toEqual(['ann', 'bob']);
});

test('a file already current is left alone', () => {
  applySchema(db, schemaOf(VERSION_1, VERSION_2));
  expect(applySchema(db, schemaOf(VERSION_1, VERSION_2))).toMatchObject({ from: 2, to: 2, applied: [] });
});

test('a migration that fails leaves the file at its version, with nothing of the versions before it', () => {
  applySchema(db, schemaOf(VERSION_1));
  const failing = { change: 'breaks', migrate: 'INSERT INTO nowhere VALUES (1)' };
  expect(() => applySchema(db, schemaOf(VERSION_1, VERSION_2, failing))).toThrow(/no such table: nowhere/);
  expect(version()).toBe(1);
  expect(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('notes')).toEqual(['id', 'text']);
});

test('a file of a newer version is refused, naming the file and both versions, and left as it is', () => {
  applySchema(db, schemaOf(VERSION_1, VERSION_2, VERSION_3));
  const older = schemaOf(VERSION_1, VERSION_2);
  expect(() => applySchema(db, older)).toThrow(NewerSchemaError);
  expect(() => checkSchema(db, older)).toThrow(
    `${db.name} has schema version 3, newer than version 2 which this build knows`,
  );
  expect(version()).toBe(3);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createLogger } from '../src/api/kit/logging';
import { openSuite } from '../src/main';
import { benchConfig } from './service-desk-log';

/** FTS5 keeps these shadow tables itself. */
const FTS_SHADOW = /_(fts|words|terms_fts)_(data|idx|content|docsize|config)$/;
/** A read model's search indexes and vocabulary, beside its table of documents. */
const SEARCH_TABLE = /_(fts|words|terms|terms_fts)(_|$)/;

/** The same code path as `suite rebuild` (src/cli.ts): open the suite, `runtime.rebuild()`. */
export async function rebuild(dataDir: string): Promise<number> {
  const suite = await openSuite(benchConfig(dataDir), { logger: createLogger('silent') });
  try {
    const started = performance.now();
    await suite.runtime.rebuild();
    return (performance.now() - started) / 1000;
  } finally {
    await suite.close();
  }
}

interface Row {
  id: number | string;
  doc: string;
  text: string | null;
}

interface ReadModel {
  rows: Row[];
  /** The vocabulary of its word index. */
  terms: { id: number; term: string }[];
}

/** Every read model's final documents and search text, as the rebuild left them. */
export function readModels(dataDir: string): {
  schema: string[];
  settings: string[];
  tables: Map<string, ReadModel>;
} {
  const db = new Database(path.join(dataDir, 'read-models.db'), { readonly: true });
  try {
    const objects = db
      .prepare(
        `SELECT type, name, sql FROM sqlite_master
         WHERE name LIKE 'rm\\_%' ESCAPE '\\' AND sql IS NOT NULL ORDER BY type DESC`,
      )
      .all() as { type: string; name: string; sql: string }[];
    const schema = objects.filter((object) => !FTS_SHADOW.test(object.name)).map((object) => object.sql);
    // The FTS tables' own settings (FTS5 keeps them in a shadow table): the ceiling's tables get them too.
    const settings = objects
      .filter((object) => object.name.endsWith('_fts_config'))
      .flatMap(({ name }) => {
        const fts = name.slice(0, -'_config'.length);
        const rows = db.prepare(`SELECT k, v FROM ${name} WHERE k != 'version'`).all() as {
          k: string;
          v: number | string;
        }[];
        const literal = (v: number | string) => (typeof v === 'number' ? v : `'${v.replace(/'/g, "''")}'`);
        return rows.map(({ k, v }) => `INSERT INTO ${fts} (${fts}, rank) VALUES ('${k}', ${literal(v)})`);
      });
    const tables = new Map<string, ReadModel>();
    for (const { name } of objects.filter(
      (object) => object.type === 'table' && !SEARCH_TABLE.test(object.name),
    )) {
      const rows = db
        .prepare(`SELECT t.id, t.doc, f.text FROM ${name} t LEFT JOIN ${name}_fts f ON f.rowid = t.rowid`)
        .all() as Row[];
      const terms = db.prepare(`SELECT id, term FROM ${name}_terms`).all() as ReadModel['terms'];
      tables.set(name, { rows, terms });
    }
    return { schema, settings, tables };
  } finally {
    db.close();
  }
}

/** The ceiling: the documents alone, inserted in one transaction into the same table shape. */
export function ceiling(models: ReturnType<typeof readModels>): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'suite-bench-ceiling-'));
  const db = new Database(path.join(dir, 'read-models.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    for (const sql of [...models.schema, ...models.settings]) db.exec(sql);
    const started = performance.now();
    db.transaction(() => {
      for (const [table, { rows, terms }] of models.tables) {
        const insert = db.prepare(`INSERT INTO ${table} (id, doc) VALUES (?, ?)`);
        const insertText = db.prepare(`INSERT INTO ${table}_fts (rowid, text) VALUES (?, ?)`);
        const insertWords = db.prepare(`INSERT INTO ${table}_words (rowid, text) VALUES (?, ?)`);
        const insertTerm = db.prepare(`INSERT INTO ${table}_terms (id, term) VALUES (?, ?)`);
        const indexTerm = db.prepare(`INSERT INTO ${table}_terms_fts (rowid, term) VALUES (?, ?)`);
        for (const row of rows) {
          const { lastInsertRowid } = insert.run(row.id, row.doc);
          if (!row.text) continue;
          insertText.run(lastInsertRowid, row.text);
          insertWords.run(lastInsertRowid, row.text);
        }
        for (const { id, term } of terms) {
          insertTerm.run(id, term);
          indexTerm.run(id, term);
        }
      }
    })();
    return (performance.now() - started) / 1000;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

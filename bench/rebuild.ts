import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createLogger } from '../src/api/kit/logging';
import { openSuite } from '../src/main';
import { benchConfig, serviceDeskLog } from './service-desk-log';
import { flags, machine, median, numberFlag, ratio, round, table, writeSection } from './support';

/**
 * A full `suite rebuild` (every read model, from the whole log) against the ceiling: inserting the same
 * final documents, with their search text, into the same tables in one transaction.
 * Usage: tsx bench/rebuild.ts [--events 1000000] [--runs 3]
 */
const options = flags();
const EVENTS = numberFlag(options, 'events', 1_000_000);
const RUNS = numberFlag(options, 'runs', 3);
/** FTS5 keeps these shadow tables itself. */
const FTS_SHADOW = /_(fts|words|terms_fts)_(data|idx|content|docsize|config)$/;
/** A read model's search indexes and vocabulary, beside its table of documents. */
const SEARCH_TABLE = /_(fts|words|terms|terms_fts)(_|$)/;

/** The same code path as `suite rebuild` (src/cli.ts): open the suite, `runtime.rebuild()`. */
async function rebuild(dataDir: string): Promise<number> {
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
function readModels(dataDir: string): {
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
function ceiling(models: ReturnType<typeof readModels>): number {
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

async function main(): Promise<void> {
  const log = await serviceDeskLog({ events: EVENTS });
  const rebuildSeconds: number[] = [];
  const ceilingSeconds: number[] = [];
  let documents = 0;
  for (let run = 0; run < RUNS; run++) {
    rebuildSeconds.push(await rebuild(log.dataDir));
    const models = readModels(log.dataDir);
    documents = [...models.tables.values()].reduce((sum, { rows }) => sum + rows.length, 0);
    ceilingSeconds.push(ceiling(models));
    console.log(
      `run ${run + 1}: rebuild ${rebuildSeconds[run]?.toFixed(2)} s, ceiling ${ceilingSeconds[run]?.toFixed(2)} s`,
    );
  }
  const rebuildRate = log.events / median(rebuildSeconds);
  const ceilingRate = log.events / median(ceilingSeconds);
  const rows = [
    [
      '`suite rebuild`',
      round(median(rebuildSeconds), 2),
      round(rebuildRate),
      round(documents / median(rebuildSeconds)),
    ],
    [
      'ceiling: same documents, one transaction',
      round(median(ceilingSeconds), 2),
      round(ceilingRate),
      round(documents / median(ceilingSeconds)),
    ],
  ];
  const body = `## Rebuild of every read model

Reproduce with \`npm run bench:rebuild -- --events ${EVENTS}\` (\`bench/rebuild.ts\`; the generated log is
cached in the temp directory between runs). The log: the service desk's demo data plus synthetic requests
taken through the seed's workflow by the request decider (${round(log.events)} events, ${round(log.requests)}
requests, ${round(documents)} documents after the rebuild), appended as the API appends them: each request's
form answers sealed under its own key, so one event in five is opened as it is replayed. The rebuild is the code path of
\`suite rebuild\` (\`runtime.rebuild()\`: drop every read model, replay the whole log through every
projector). The ceiling inserts the same final documents and their search text into the same tables
(same indexes, FTS5 trigram tables with the same settings, the word indexes, WAL,
\`synchronous=NORMAL\`) with prepared statements in one transaction, and the words of the texts into the
same vocabularies (read from the rebuilt file: the ceiling does not split the texts into words); its
events/s is the log's size over its time. Medians of ${RUNS} runs,
rebuild and ceiling alternating. Machine: ${machine()}.

${table(['', 'seconds', 'events/s', 'documents/s'], rows)}

Rebuild / ceiling: **${ratio(rebuildRate, ceilingRate)}**. Target: >= 100,000 events/s.`;
  writeSection('rebuild', body);
  console.log(body);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

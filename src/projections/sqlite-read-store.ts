import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { whenReady, type Awaitable } from '../awaitable';
import {
  serialisedOrUnstorable,
  type CollectionDefinition,
  type Document,
  type DocumentChange,
  type DocumentId,
  type FindQuery,
  type FindResult,
  type ReadStore,
  type ScannedDocument,
} from './read-store';
import { createCacheBudget, DEFAULT_CACHE_MB } from './cache-budget';
import { createDocumentCache, type DocumentCache } from './document-cache';
import { onePerTurn } from './one-per-turn';
import { encodeCursor, indexedFields, inIdOrder, pageOrder, positionOf } from './page-order';
import { decodePage, encodePage, type PageJson } from './page-json';
import {
  createWordIndex,
  deleteSecurely,
  dropWordIndex,
  fillWordIndex,
  oneWordCount,
  searchIndexesOf,
  wordFinder,
  wordIndexIsCurrent,
  wordIndexTables,
} from './word-index';
import { LISTED_RESULTS, QueryCache } from './query-cache';
import { planFind, planScan, type FindPlan, type PlannedCollection, type Sql } from './sqlite-query-plan';
import {
  commitVocabulary,
  documentWriter,
  serializeChange,
  type SerializedChange,
  type WriteChanges,
} from './sqlite-document-writer';
import { writerThread } from './writer-thread';
import { READ_MODELS_SCHEMA } from './read-models-schema';
import { applySchema } from '../sqlite-schema';

/**
 * Bytes of new index terms FTS5 keeps in memory before it writes them out as a segment (its default
 * is 1 MB). Larger, a catch-up's commit writes one segment per FTS table instead of many small ones
 * to merge later: a bulk insert of 200k documents runs 1.5x faster, a rebuild 1.1x. A commit writes
 * its terms out whatever their size, so the memory this takes is bounded by the runtime's batch.
 */
const FTS_PENDING_BYTES = 64 * 1024 * 1024;
/**
 * Commits of this many documents or more (a catch-up's batches) are written by the writer thread, so
 * that the projection runtime folds the next batch meanwhile; smaller ones (a live write's) are written
 * at once, without the round trip.
 */
const THREAD_COMMIT_DOCUMENTS = 256;
/**
 * How long defining the collections waits for another connection's write transaction, instead of
 * SQLite's usual 5 s: a role that starts while another one indexes an old file by word (17 s at 1M
 * records) waits for it rather than failing to start.
 */
const DEFINING_WAIT_MS = 120_000;

interface Collection extends PlannedCollection {
  /** Pages and totals already answered. */
  queries: QueryCache;
  docs: DocumentCache;
  get: Database.Statement<[DocumentId], { doc: string }>;
  /** One field's value where it is text, by its JSON path (`$."name"`). */
  text: Database.Statement<[{ path: string; id: DocumentId }], { value: string | null }>;
}

const bodyOf = (page: PageJson) => page.body;

/** A result as a page's SQL reads it: its id and its document's JSON. */
type PageRow = [id: DocumentId, doc: string];

/** The page of `limit` rows of those read (one more when a page follows), and the cursor of the next. */
function pageOf(total: number, rows: readonly PageRow[], query: FindQuery): FindResult {
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  const order = pageOrder(query.sort);
  const next =
    rows.length > query.limit && last ? encodeCursor(order, positionOf(order, last[0], last[1])) : null;
  return { total, items: shown.map(([, doc]) => doc), next };
}

/** The store's connection to its file, and what is prepared on it. */
interface Connection {
  db: Database.Database;
  dataVersion: Database.Statement<[], number>;
  tableExists: Database.Statement<[string], number>;
  writeHere: WriteChanges;
  /** Takes, renews or lets go of a lease (see `ReadStore.lease`); answers whether it took effect. */
  holdLease: Database.Statement<[{ name: string; holder: string; until: number; now: number }]>;
  /** Statements of finds, by SQL. */
  statements: Map<string, Database.Statement>;
}

function connect(file: string): Connection {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // What is deleted or replaced is overwritten in the file, not merely marked free: an erased
  // subject's data is not left in free space (the writer thread does the same).
  db.pragma('secure_delete = ON');
  applySchema(db, READ_MODELS_SCHEMA);
  return {
    db,
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    tableExists: db
      .prepare<[string], number>("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .pluck(),
    writeHere: documentWriter(db),
    holdLease: db.prepare(
      `INSERT INTO leases (name, holder, until) VALUES (@name, @holder, @until)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
       WHERE leases.holder = excluded.holder OR leases.until <= @now`,
    ),
    statements: new Map(),
  };
}

function tableName(collection: string): string {
  return `rm_${collection.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/**
 * The embedded ReadStore: a table of JSON documents per collection, an expression index per filter
 * field and an FTS5 trigram index over the lower-cased search text. Read models are rebuilt from the
 * log, so commits use `synchronous=NORMAL`: a crash may lose the newest commits, never consistency,
 * and the projectors catch up again from the checkpoint that was kept with the documents.
 * Answered pages (encoded, see `PageJson`), totals and documents are cached until a commit may have
 * changed them (see `QueryCache`; a large commit empties its collections' pages and totals), all
 * collections' within one budget of `cacheBytes`. A `shared` store (the roles of the distributed
 * profile, where the projector is another process) also empties every cache when SQLite's
 * `data_version` says another process committed.
 */
export function openSqliteReadStore(
  file: string,
  { shared = false, cacheBytes = DEFAULT_CACHE_MB * 2 ** 20 }: { shared?: boolean; cacheBytes?: number } = {},
): ReadStore {
  let connection = connect(file);
  let seenVersion = connection.dataVersion.get();
  const collections = new Map<string, Collection>();
  const budget = createCacheBudget(cacheBytes);
  const thread = writerThread(file);
  /**
   * Pages not kept are read one per turn: at 1M records a count takes up to 7 ms by word and 57 ms by
   * trigram, and a burst of them in one turn held back every other connection, the new ones longest
   * (see `onePerTurn`).
   */
  const inTurn = onePerTurn();

  function forget(target: Collection): void {
    target.queries.clear();
    target.docs.clear();
  }

  /**
   * Empties every cache when another process (the projector role) has committed since the last read.
   * Only a `shared` store asks: the check costs a fifth of a cached read, and alone a process knows.
   */
  function forgetOtherWriters(): void {
    if (!shared) return;
    const version = connection.dataVersion.get();
    if (version === seenVersion) return;
    seenVersion = version;
    for (const known of collections.values()) forget(known);
  }

  function prepared(sql: string): Database.Statement {
    let statement = connection.statements.get(sql);
    if (!statement) {
      statement = connection.db.prepare(sql);
      connection.statements.set(sql, statement);
    }
    return statement;
  }

  function define(definition: CollectionDefinition): Collection {
    const { db, tableExists } = connection;
    const table = tableName(definition.name);
    const fts = `${table}_fts`;
    const idType = definition.idKind === 'integer' ? 'INTEGER' : 'TEXT';
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id ${idType} PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
    if (!tableExists.get(fts)) {
      db.exec(`CREATE VIRTUAL TABLE ${fts} USING fts5(text, tokenize = 'trigram')`);
      // Kept in the table's own configuration. A literal: FTS5 refuses the REAL a bound JS number becomes.
      db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('hashsize', ${FTS_PENDING_BYTES})`);
    }
    const { words } = wordIndexTables(table);
    // A file written before the word index has its texts in the trigram index only; one written before
    // it deleted securely keeps deleted texts' words in it: it is made again from the trigram index.
    if (!wordIndexIsCurrent(db, table)) {
      dropWordIndex(db, table);
      createWordIndex(db, table);
      fillWordIndex(db, table, fts);
    }
    for (const index of searchIndexesOf(table)) deleteSecurely(db, index);
    for (const field of indexedFields(definition)) {
      db.exec(
        `CREATE INDEX IF NOT EXISTS ${table}_by_${field} ON ${table} (json_extract(doc, '$.${field}'), id)`,
      );
    }
    return {
      definition,
      queries: new QueryCache(budget),
      docs: createDocumentCache(budget),
      table,
      fts,
      words,
      wordsContaining: wordFinder(db, table),
      oneWordCount: oneWordCount(db, table),
      get: db.prepare(`SELECT doc FROM ${table} WHERE id = ?`),
      text: db.prepare(
        `SELECT iif(json_type(doc, @path) = 'text', json_extract(doc, @path), NULL) AS value FROM ${table} WHERE id = @id`,
      ),
    };
  }

  /**
   * Creates the collections' tables in one write transaction taken up front: roles starting together on
   * a new directory then wait for each other instead of racing (FTS5 fails on a half-created table),
   * for as long as the first one takes (see `DEFINING_WAIT_MS`).
   */
  function defineAll(definitions: readonly CollectionDefinition[]): void {
    const { db } = connection;
    const usualWait = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma(`busy_timeout = ${DEFINING_WAIT_MS}`);
    try {
      db.transaction(() => {
        for (const definition of definitions) collections.set(definition.name, define(definition));
      }).immediate();
    } finally {
      db.pragma(`busy_timeout = ${usualWait}`);
    }
  }

  function readCheckpoints(): Map<string, number> {
    const rows = connection.db.prepare('SELECT projector, position FROM checkpoints').all() as {
      projector: string;
      position: number;
    }[];
    return new Map(rows.map((row) => [row.projector, row.position]));
  }

  function collection(name: string): Collection {
    const found = collections.get(name);
    if (!found) throw new Error(`Unknown collection ${name}`);
    return found;
  }

  function serializedChange(target: Collection, change: DocumentChange): SerializedChange {
    return serialisedOrUnstorable(change.collection, change.id, () =>
      serializeChange(target.table, target.definition, change),
    );
  }

  /**
   * A query's total, and the ids of its results in order when a search with filters has LISTED_RESULTS
   * or fewer (integer ids): listed by the statement that counts them, and kept with the total, so that
   * every page of the search then reads its documents by id. At 1M records a page of the 388 title
   * words within the open requests took 3.8 ms on average by SQL once their totals were known, 0.3 ms
   * from their ids.
   */
  function results(
    target: Collection,
    query: FindQuery,
    planOf: () => FindPlan,
  ): { total: number; ids?: readonly number[] } {
    const ids = target.queries.ids(query);
    if (ids) return { total: ids.length, ids };
    const total = target.queries.total(query);
    if (total !== undefined) return { total };
    const plan = planOf();
    if (plan.listing) return countAndList(plan.listing);
    const counted = prepared(plan.count.sql).pluck();
    return { total: counted.get(...plan.count.params) as number };
  }

  function countAndList(listing: Sql): { total: number; ids?: number[] } {
    const rows = prepared(listing.sql)
      .raw()
      .all(...listing.params) as [id: number, total: number][];
    const total = rows[0]?.[1] ?? 0;
    return total > LISTED_RESULTS ? { total } : { total, ids: rows.map(([id]) => id) };
  }

  function pageRows(page: Sql): PageRow[] {
    return prepared(page.sql)
      .raw()
      .all(...page.params) as PageRow[];
  }

  /**
   * The documents of a page of listed results, and the one after them. A document that another process
   * deleted after the ids were read (a shared store) is left out.
   */
  function listedRows(target: Collection, ids: readonly number[], { limit, offset }: FindQuery): PageRow[] {
    return ids.slice(offset, offset + limit + 1).flatMap((id) => {
      const doc = target.get.get(id)?.doc;
      return doc === undefined ? [] : [[id, doc] as PageRow];
    });
  }

  /** A page not kept, read by SQL and encoded; queued work meanwhile may have kept it. */
  function answer(target: Collection, query: FindQuery): PageJson {
    forgetOtherWriters();
    const cached = target.queries.page(query);
    if (cached) return cached;
    // Planned when needed: a search's plan looks its words up first, and listed results need none.
    let plan: FindPlan | undefined;
    const planOf = () => (plan ??= planFind(target, query));
    const { total, ids } = results(target, query, planOf);
    // Listed ids are in id order, from the first result.
    const listed = ids && query.after === undefined && inIdOrder(pageOrder(query.sort)) ? ids : undefined;
    let rows: PageRow[] = [];
    if (total > query.offset) {
      rows = listed ? listedRows(target, listed, query) : pageRows(planOf().page(total));
    }
    const page = encodePage(pageOf(total, rows, query), query);
    target.queries.remember(query, page, ids);
    return page;
  }

  /** A page kept, or one read in its turn. */
  function pageJson(name: string, query: FindQuery): Awaitable<PageJson> {
    const target = collection(name);
    forgetOtherWriters();
    return target.queries.page(query) ?? inTurn(() => answer(target, query));
  }

  return {
    async defineCollections(definitions) {
      defineAll(definitions);
    },
    get(name, id) {
      const target = collection(name);
      forgetOtherWriters();
      const cached = target.docs.get(id);
      if (cached !== undefined) return cached;
      const doc = target.get.get(id)?.doc ?? null;
      if (doc !== null) target.docs.remember(id, doc);
      return doc;
    },
    find: (name, query) => whenReady(pageJson(name, query), decodePage),
    findJson: (name, query) => whenReady(pageJson(name, query), bodyOf),
    async scan(name, query) {
      const { sql, params } = planScan(collection(name), query);
      return prepared(sql).all(...params) as ScannedDocument[];
    },
    async load(name, ids) {
      const target = collection(name);
      const found = new Map<DocumentId, Document>();
      for (const id of ids) {
        const row = target.get.get(id);
        if (row) found.set(id, JSON.parse(row.doc) as Document);
      }
      return found;
    },
    async loadTexts(name, ids, field) {
      const target = collection(name);
      const path = `$.${JSON.stringify(field)}`;
      const found = new Map<DocumentId, string | null>();
      for (const id of ids) {
        const row = target.text.get({ path, id });
        if (row) found.set(id, row.value);
      }
      return found;
    },
    async checkpoints() {
      return readCheckpoints();
    },
    async commit(changes, checkpoints, after) {
      const writes = changes.map((change) => {
        const target = collection(change.collection);
        return { target, id: change.id, change: serializedChange(target, change) };
      });
      const serialized = writes.map((write) => write.change);
      const vocabulary = commitVocabulary(serialized);
      const touched = new Set(writes.map((write) => write.target));
      await after;
      try {
        if (serialized.length < THREAD_COMMIT_DOCUMENTS) {
          const written = connection.writeHere(serialized, checkpoints, vocabulary);
          for (const target of touched) {
            target.queries.apply(written.filter((_change, index) => writes[index]?.target === target));
          }
        } else {
          // Queries answered while the thread committed may hold either state: all are answered again.
          await thread
            .write(serialized, new Map(checkpoints), vocabulary)
            .finally(() => touched.forEach((target) => target.queries.clear()));
        }
      } finally {
        for (const { target, id } of writes) target.docs.forget(id);
      }
    },
    async lease(name, holder, now, until) {
      return connection.holdLease.run({ name, holder, until, now }).changes === 1;
    },
    checkStorable(name, id, doc) {
      serializedChange(collection(name), { collection: name, id, doc });
    },
    async purge() {
      const { db } = connection;
      // The search indexes took the words of what was replaced or deleted out at once
      // (`deleteSecurely`), and the freed pages were overwritten: the write-ahead log is what is left.
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async reset(projectors) {
      const definitions = [...collections.values()].map((known) => known.definition);
      const kept = [...readCheckpoints()].filter(([projector]) => !projectors.includes(projector));
      const leases = connection.db.prepare('SELECT name, holder, until FROM leases').raw().all() as [
        string,
        string,
        number,
      ][];
      await thread.close();
      connection.db.close();
      // A new file rather than DROP TABLE: SQLite reads every page of the tables it drops, which at 1M
      // events took 2 to 2.7 s of a rebuild when the old file had left the operating system's page cache.
      // The log first: a new file must never meet an old file's WAL.
      for (const suffix of ['-wal', '-shm', '']) rmSync(`${file}${suffix}`, { force: true });
      connection = connect(file);
      seenVersion = connection.dataVersion.get();
      for (const known of collections.values()) forget(known);
      collections.clear();
      defineAll(definitions);
      connection.writeHere(
        [],
        new Map(kept.map(([projector, to]) => [projector, { from: 0, to }])),
        new Map(),
      );
      for (const [name, holder, until] of leases)
        connection.holdLease.run({ name, holder, until, now: until });
    },
    async close() {
      await thread.close();
      connection.db.close();
    },
  };
}

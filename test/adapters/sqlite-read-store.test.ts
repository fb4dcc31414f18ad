import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { Filter, FindQuery } from '../../src/projections/read-store';
import { LISTED_RESULTS } from '../../src/projections/query-cache';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { readStoreContract, sharedReadStoreContract, type ReadStoreFixture } from './read-store.contract';

/**
 * A property of many runs, each opening and writing SQLite files: about 12 s on a busy 2-core machine,
 * over jest's 30 s when the whole suite shares it. The timeout catches a hang; it does not check speed.
 */
const PROPERTY_TIMEOUT = 120_000;

async function sqliteFixture(): Promise<ReadStoreFixture> {
  const { dir, cleanup } = tempDir();
  const file = path.join(dir, 'read.db');
  const store = openSqliteReadStore(file);
  return {
    store,
    openAnother: async () => openSqliteReadStore(file, { shared: true }),
    async cleanup() {
      await store.close();
      cleanup();
    },
  };
}

readStoreContract('SQLite', sqliteFixture);
sharedReadStoreContract('SQLite', sqliteFixture);

/**
 * Runs `script` in another process with `db`, a better-sqlite3 connection to `file`; resolves once the
 * script has printed its first line, with the process's exit still to come.
 */
async function anotherProcess(file: string, script: string): Promise<{ exited: Promise<[number | null]> }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require(${JSON.stringify(require.resolve('better-sqlite3'))}))(process.argv[1]);${script}`,
      file,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(child, 'exit') as Promise<[number | null]>;
  await once(child.stdout, 'data');
  return { exited };
}

describe('SQLite read store shared by two processes (api and projector roles)', () => {
  const collection = { name: 'test.things', idKind: 'integer', searchFields: [], filterFields: [] } as const;

  it('answers pages and documents again after the other connection commits, not from its caches', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'read.db');
    const reader = openSqliteReadStore(file, { shared: true });
    const projector = openSqliteReadStore(file, { shared: true });
    await reader.defineCollections([collection]);
    await projector.defineCollections([collection]);
    const page = { limit: 10, offset: 0 };

    expect((await reader.find('test.things', page)).total).toBe(0);
    await projector.commit(
      [{ collection: 'test.things', id: 1, doc: { id: 1 } }],
      new Map([['test', { from: 0, to: 1 }]]),
    );

    expect(await reader.find('test.things', page)).toMatchObject({ total: 1, items: ['{"id":1}'] });
    expect(await reader.get('test.things', 1)).toBe('{"id":1}');
    await projector.commit(
      [{ collection: 'test.things', id: 1, doc: { id: 1, v: 2 } }],
      new Map([['test', { from: 1, to: 2 }]]),
    );
    expect(await reader.get('test.things', 1)).toBe('{"id":1,"v":2}');
    await reader.close();
    await projector.close();
    cleanup();
  });

  it('waits to define its collections while another process writes longer than SQLite waits by default (5 s)', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'read.db');
    const first = openSqliteReadStore(file);
    await first.defineCollections([collection]);
    await first.close();
    // Another role indexing an old file: a write transaction held for 7 s.
    const { exited } = await anotherProcess(
      file,
      `db.exec('BEGIN IMMEDIATE');
       console.log('writing');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 7000);
       db.exec('COMMIT');`,
    );

    const starting = openSqliteReadStore(file);
    await starting.defineCollections([collection]);
    expect((await exited)[0]).toBe(0);
    expect(await starting.find('test.things', { limit: 10, offset: 0 })).toEqual({
      total: 0,
      items: [],
      next: null,
    });
    await starting.close();
    cleanup();
  });

  it('commits while another process commits to the same file, as the job triggers save their checkpoint there', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'read.db');
    const projector = openSqliteReadStore(file, { shared: true });
    await projector.defineCollections([collection]);
    const { exited } = await anotherProcess(
      file,
      `const save = db.prepare('INSERT INTO checkpoints (projector, position) VALUES (?, ?) ' +
         'ON CONFLICT (projector) DO UPDATE SET position = excluded.position');
       console.log('writing');
       const end = Date.now() + 2000;
       for (let position = 1; Date.now() < end; position++) save.run('jobs', position);`,
    );

    // Creates, updates and deletions (a deletion reads its document before it writes).
    const failures: unknown[] = [];
    const end = Date.now() + 2000;
    for (let position = 1; Date.now() < end; position++) {
      const id = position % 50;
      const doc = position % 7 === 0 ? null : { id, position };
      await projector
        .commit(
          [{ collection: 'test.things', id, doc }],
          new Map([['test', { from: position - 1, to: position }]]),
        )
        .catch((error: unknown) => failures.push(error));
    }

    expect((await exited)[0]).toBe(0);
    expect(failures).toEqual([]);
    await projector.close();
    cleanup();
  });
});

describe('SQLite read store caches across live writes', () => {
  const collection = {
    name: 'test.tickets',
    idKind: 'integer',
    searchFields: ['title'],
    filterFields: ['status', 'rank', 'urgent', 'owner'],
  } as const;
  // SQLite folds the long s of 'ſtop' to 's' (a search for 'sto' finds it); JavaScript's toLowerCase keeps it.
  const titles = ['Laptop broken', 'New LAPTOP', 'Printer jam', 'Café order', 'Über laptop', 'top', 'ſtop'];
  const eq = (field: string, value: Filter['value']): Filter => ({ field, op: 'eq', value });
  const queries: FindQuery[] = [
    ...['', 'lap', 'LAPTOP', 'top', 'sto', 'p', 'é', 'café', 'über'].flatMap((q) => [
      { q, limit: 2, offset: 0 },
      { q, limit: 2, offset: 2 },
    ]),
    ...[
      [eq('status', 'Open')],
      [eq('status', 'Öffen')],
      [{ field: 'status', op: 'gt', value: 'Done' }],
      [{ field: 'status', op: 'lt', value: 'Öffen' }],
      [{ field: 'rank', op: 'lt', value: 2 }],
      [{ field: 'rank', op: 'lte', value: 2 }],
      [{ field: 'rank', op: 'gt', value: 2 }],
      [{ field: 'status', op: 'lte', value: 'Open' }],
      [{ field: 'rank', op: 'gte', value: '2' }],
      [eq('rank', 2), eq('urgent', true)],
      [eq('urgent', false)],
      [eq('owner', null)],
      [{ field: 'owner', op: 'lte', value: null }],
      [eq('owner', 'ann')],
    ].flatMap((filters) => [
      { filters: filters as Filter[], limit: 2, offset: 0 },
      { filters: filters as Filter[], q: 'lap', limit: 2, offset: 0 },
      { filters: filters as Filter[], q: 'lap', limit: 2, offset: 2 },
    ]),
  ];
  const change = fc.record({
    id: fc.integer({ min: 1, max: 8 }),
    doc: fc.option(
      fc.record(
        {
          title: fc.constantFrom(...titles),
          status: fc.constantFrom('Open', 'Done', 'Öffen'),
          rank: fc.constantFrom(1, 2, 3.5, '2'),
          urgent: fc.boolean(),
          owner: fc.constantFrom('ann', null, ['ann']),
        },
        { requiredKeys: ['title', 'status'] },
      ),
    ),
  });

  it(
    'answers every query as SQLite does after each small commit, whether its page and total were kept or not',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { maxLength: 12 }),
          async (commits) => {
            const { dir, cleanup } = tempDir();
            const file = path.join(dir, 'read.db');
            const store = openSqliteReadStore(file);
            // Shared: it forgets what it cached whenever the other connection commits, so it answers from SQL.
            const oracle = openSqliteReadStore(file, { shared: true });
            const agree = async () => {
              for (const query of queries) {
                expect(await store.find(collection.name, query)).toEqual(
                  await oracle.find(collection.name, query),
                );
              }
            };
            try {
              await store.defineCollections([collection]);
              await oracle.defineCollections([collection]);
              for (const [position, changes] of commits.entries()) {
                await agree();
                const written = changes.map(({ id, doc }) => ({
                  collection: collection.name,
                  id,
                  doc: doc && { id, ...doc },
                }));
                await store.commit(
                  written,
                  new Map([['tests', { from: Math.max(position - 1, 0), to: position }]]),
                );
              }
              await agree();
            } finally {
              await store.close();
              await oracle.close();
              cleanup();
            }
          },
        ),
        { numRuns: 60 },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('SQLite read store: a search with filters', () => {
  it('answers every page alike, whether it lists the ids, reads the matches in order or takes the filter index', async () => {
    const { dir, cleanup } = tempDir();
    const store = openSqliteReadStore(path.join(dir, 'read.db'));
    const kinds = { integer: 'test.numbered', string: 'test.named' } as const;
    await store.defineCollections(
      Object.entries(kinds).map(([idKind, name]) => ({
        name,
        idKind: idKind as 'integer' | 'string',
        searchFields: ['title'],
        filterFields: ['status'],
      })),
    );
    // More closed laptops than a search lists the ids of, fewer open ones.
    const docs = Array.from({ length: Math.ceil((LISTED_RESULTS * 3 * 7) / 6) + 300 }, (_, index) => ({
      title: index % 3 === 0 ? `Laptop ${index}` : `Printer ${index}`,
      status: index % 7 === 0 ? 'Open' : 'Closed',
    }));
    const idOf = { integer: (index: number) => index + 1, string: (index: number) => `key-${index + 1}` };
    for (const [position, [kind, name]] of (
      Object.entries(kinds) as ['integer' | 'string', string][]
    ).entries()) {
      const stored = docs.map((doc, index) => ({ id: idOf[kind](index), ...doc }));
      await store.commit(
        stored.map((doc) => ({ collection: name, id: doc.id, doc })),
        new Map([['tests', { from: position, to: position + 1 }]]),
      );
      // In id order: numeric for integer ids, by code unit (SQLite's BINARY) for string ids.
      const before = (a: number | string, b: number | string) => (a < b ? -1 : 1);
      for (const status of ['Closed', 'Open']) {
        const matching = stored
          .filter((doc) => doc.title.includes('Laptop') && doc.status === status)
          .sort((a, b) => before(a.id, b.id))
          .map((doc) => JSON.stringify(doc));
        // Few results (integer ids) are listed. Of many, the first pages read the matches in order and
        // deeper ones take the index.
        for (const [limit, offset] of [
          [1, 0],
          [1, 3],
          [2, 40],
          [50, 0],
          [50, 50],
          [5, 200],
          [5, 700],
          [50, LISTED_RESULTS - 20],
        ] as const) {
          const query = {
            q: 'laptop',
            filters: [{ field: 'status', op: 'eq', value: status }] as Filter[],
            limit,
            offset,
          };
          expect(await store.find(name, query)).toMatchObject({
            total: matching.length,
            items: matching.slice(offset, offset + limit),
          });
        }
      }
    }
    await store.close();
    cleanup();
  });
});

describe('SQLite read store: searches by word', () => {
  const collection = {
    name: 'test.notes',
    idKind: 'integer',
    searchFields: ['title'],
    filterFields: ['status'],
  } as const;
  const trigramTable = 'rm_test_notes_fts';
  // ASCII word breaks, letters SQLite's trigram index folds (the long s, the Kelvin sign) and others it keeps.
  const text = fc.string({
    unit: fc.constantFrom('a', 'b', 'o', 's', 't', '1', '2', ' ', '-', '.', 'é', 'ſ', 'K', 'İ', 'ü'),
    maxLength: 14,
  });
  const note = fc.record({ title: text, status: fc.constantFrom('Open', 'Done') });

  /** The documents the trigram index finds for a search, in id order: what every search answered before. */
  function byTrigram(file: string, q: string, status?: string): string[] {
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare<unknown[], string>(
          `SELECT doc FROM ${trigramTable} JOIN rm_test_notes ON rm_test_notes.rowid = ${trigramTable}.rowid
           WHERE ${trigramTable} MATCH ? ${status ? "AND json_extract(doc, '$.status') = ?" : ''} ORDER BY id`,
        )
        .pluck()
        .all(`"${q.replace(/"/g, '""')}"`, ...(status ? [status] : []));
    } finally {
      db.close();
    }
  }

  it(
    'finds, counts and pages what the trigram index finds, with and without a filter, after changes',
    async () => {
      const changed = fc.record({ id: fc.integer({ min: 1, max: 30 }), doc: fc.option(note) });
      await fc.assert(
        fc.asyncProperty(
          fc.array(note, { minLength: 1, maxLength: 30 }),
          fc.array(changed, { maxLength: 8 }),
          fc.array(text, { maxLength: 6 }),
          async (notes, changes, extra) => {
            const { dir, cleanup } = tempDir();
            const file = path.join(dir, 'read.db');
            const store = openSqliteReadStore(file);
            const written = (id: number, doc: { title: string; status: string } | null) => ({
              collection: collection.name,
              id,
              doc: doc && { id, ...doc },
            });
            try {
              await store.defineCollections([collection]);
              await store.commit(
                notes.map((doc, index) => written(index + 1, doc)),
                new Map([['tests', { from: 0, to: 1 }]]),
              );
              // Renamed and deleted notes: the words they no longer hold stay in the vocabulary.
              await store.commit(
                changes.map(({ id, doc }) => written(id, doc)),
                new Map([['tests', { from: 1, to: 2 }]]),
              );
              // Words and pieces of the titles, as users type them, and other strings.
              const titles = [...notes, ...changes.flatMap(({ doc }) => doc ?? [])].map(({ title }) => title);
              const searches = [...titles.flatMap((title) => [title, title.slice(1, 5)]), ...extra]
                .map((q) => q.toLowerCase())
                .filter((q) => [...q].length >= 3 && q.trim() !== '');
              for (const q of searches) {
                for (const status of [undefined, 'Open']) {
                  const expected = byTrigram(file, q, status);
                  const filters: Filter[] = status ? [{ field: 'status', op: 'eq', value: status }] : [];
                  expect(
                    await store.find(collection.name, { q, filters, limit: 2, offset: 1 }),
                  ).toMatchObject({
                    total: expected.length,
                    items: expected.slice(1, 3),
                  });
                }
              }
            } finally {
              await store.close();
              cleanup();
            }
          },
        ),
        { numRuns: 80 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  async function storeOfTitles(file: string, titles: string[]) {
    const store = openSqliteReadStore(file);
    await store.defineCollections([collection]);
    await store.commit(
      titles.map((title, index) => ({
        collection: collection.name,
        id: index + 1,
        doc: { id: index + 1, title },
      })),
      new Map([['tests', { from: 0, to: 1 }]]),
    );
    return store;
  }

  it('finds a search of digits alone in words of digits alone, which the vocabulary does not keep', async () => {
    const { dir, cleanup } = tempDir();
    const store = await storeOfTitles(path.join(dir, 'read.db'), [
      'REQ-000123 printer',
      'Serial A000123B',
      'PO 2026-00012',
    ]);

    const totals = async (q: string) =>
      (await store.find(collection.name, { q, limit: 10, offset: 0 })).total;
    expect(await totals('000123')).toBe(2);
    expect(await totals('0001')).toBe(3);
    expect(await totals('a000')).toBe(1);
    await store.close();
    cleanup();
  });

  it('keeps the words of the texts it stores in its vocabulary, from small commits and large ones', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'read.db');
    // 300 documents: a commit its writer thread writes.
    const store = await storeOfTitles(
      file,
      Array.from({ length: 300 }, (_, index) => `Ticket ${index} about printer${index % 3}`),
    );
    await store.commit(
      [{ collection: collection.name, id: 301, doc: { id: 301, title: 'Scanner jammed' } }],
      new Map([['tests', { from: 1, to: 2 }]]),
    );

    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT term FROM rm_test_notes_terms ORDER BY term').pluck().all()).toEqual([
      'about',
      'jammed',
      'printer0',
      'printer1',
      'printer2',
      'scanner',
      'ticket',
    ]);
    db.close();
    await store.close();
    cleanup();
  });

  it('takes the words of a replaced or deleted text out of its indexes and vocabulary as it writes: none stays in the file', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'read.db');
    const titles = Array.from({ length: 300 }, (_, index) => `Ticket ${index} about printer${index % 3}`);
    titles[4] = 'Ticket for Quokkaflu';
    titles[5] = 'Hopper printer';
    titles[6] = 'Hopper scanner';
    const store = await storeOfTitles(file, titles);
    // 300 changes, a commit its writer thread writes; then a small one, written on the store's connection.
    await store.commit(
      titles.map((title, index) => ({
        collection: collection.name,
        id: index + 1,
        doc: index === 5 ? null : { id: index + 1, title: index === 4 ? 'Ticket for nobody' : title },
      })),
      new Map([['tests', { from: 1, to: 2 }]]),
    );
    const vocabulary = () => {
      const db = new Database(file, { readonly: true });
      const terms = db.prepare('SELECT term FROM rm_test_notes_terms').pluck().all();
      const byTrigram = db
        .prepare("SELECT term FROM rm_test_notes_terms_fts WHERE term MATCH 'opper'")
        .pluck()
        .all();
      db.close();
      return { terms, byTrigram };
    };
    expect(vocabulary().terms).not.toContain('quokkaflu');
    expect(vocabulary()).toMatchObject({
      terms: expect.arrayContaining(['hopper', 'nobody']),
      byTrigram: ['hopper'],
    });
    await store.commit(
      [{ collection: collection.name, id: 7, doc: { id: 7, title: 'Scanner' } }],
      new Map([['tests', { from: 2, to: 3 }]]),
    );
    expect(vocabulary()).toMatchObject({ byTrigram: [] });
    expect(vocabulary().terms).not.toContain('hopper');
    expect((await store.find(collection.name, { q: 'hopper', limit: 10, offset: 0 })).total).toBe(0);
    await store.close();

    const bytes = readFileSync(file).toString('latin1').toLowerCase();
    expect(['quokkaflu', 'hopper'].filter((word) => bytes.includes(word))).toEqual([]);
    cleanup();
  });

  it('makes its word index again, when it opens it, from a file whose word index kept deleted words until a merge', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'read.db');
    const first = await storeOfTitles(file, ['Laptop broken', 'Printer jam']);
    await first.close();
    const db = new Database(file);
    db.exec(`DROP TABLE rm_test_notes_words;
      CREATE VIRTUAL TABLE rm_test_notes_words USING fts5(
        text, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'none');
      INSERT INTO rm_test_notes_words (rowid, text) VALUES (1, 'laptop broken'), (2, 'printer jam'), (3, 'quokkaflu');
      DELETE FROM rm_test_notes_words WHERE rowid = 3;
      INSERT INTO rm_test_notes_terms (term) VALUES ('quokkaflu');`);
    db.close();

    const reopened = openSqliteReadStore(file);
    await reopened.defineCollections([collection]);
    expect((await reopened.find(collection.name, { q: 'laptop', limit: 10, offset: 0 })).total).toBe(1);
    await reopened.close();
    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT term FROM rm_test_notes_terms ORDER BY term').pluck().all()).toEqual([
      'broken',
      'jam',
      'laptop',
      'printer',
    ]);
    expect(
      after.prepare("SELECT sql FROM sqlite_master WHERE name = 'rm_test_notes_words'").pluck().get(),
    ).not.toContain('contentless_delete');
    after.close();
    expect(readFileSync(file).toString('latin1')).not.toContain('quokkaflu');
    cleanup();
  });

  it('indexes by word, when it opens it, a file written before the word index', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'read.db');
    const first = await storeOfTitles(file, ['Laptop broken', 'New laptops', 'Printer jam', 'laptop-bag']);
    await first.close();
    const db = new Database(file);
    db.exec(
      'DROP TABLE rm_test_notes_words; DROP TABLE rm_test_notes_terms_fts; DROP TABLE rm_test_notes_terms',
    );
    db.close();

    const reopened = openSqliteReadStore(file);
    await reopened.defineCollections([collection]);
    const found = await reopened.find(collection.name, { q: 'laptop', limit: 10, offset: 0 });
    expect(found.total).toBe(3);
    expect(byTrigram(file, 'laptop')).toEqual(found.items);
    const db2 = new Database(file, { readonly: true });
    expect(
      db2.prepare("SELECT count(*) FROM rm_test_notes_terms WHERE term LIKE 'laptop%'").pluck().get(),
    ).toBe(2);
    db2.close();
    await reopened.close();
    cleanup();
  });
});

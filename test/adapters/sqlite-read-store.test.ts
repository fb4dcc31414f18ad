import path from 'node:path';
import fc from 'fast-check';
import type { Document, FindQuery } from '../../src/projections/read-store';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { readStoreContract } from './read-store.contract';

readStoreContract('SQLite', async () => {
  const { dir, cleanup } = tempDir();
  const store = openSqliteReadStore(path.join(dir, 'read.db'));
  return {
    store,
    async cleanup() {
      await store.close();
      cleanup();
    },
  };
});

describe('SQLite read store shared by two processes (api and projector roles)', () => {
  it('answers pages and documents again after the other connection commits, not from its caches', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'read.db');
    const collection = {
      name: 'test.things',
      idKind: 'integer',
      searchFields: [],
      filterFields: [],
    } as const;
    const reader = openSqliteReadStore(file, { shared: true });
    const projector = openSqliteReadStore(file, { shared: true });
    await reader.defineCollections([collection]);
    await projector.defineCollections([collection]);
    const page = { limit: 10, offset: 0 };

    expect((await reader.find('test.things', page)).total).toBe(0);
    await projector.commit([{ collection: 'test.things', id: 1, doc: { id: 1 } }], new Map([['test', 1]]));

    expect(await reader.find('test.things', page)).toEqual({ total: 1, items: ['{"id":1}'] });
    expect(await reader.get('test.things', 1)).toBe('{"id":1}');
    await projector.commit(
      [{ collection: 'test.things', id: 1, doc: { id: 1, v: 2 } }],
      new Map([['test', 2]]),
    );
    expect(await reader.get('test.things', 1)).toBe('{"id":1,"v":2}');
    await reader.close();
    await projector.close();
    cleanup();
  });
});

describe('SQLite read store caches across live writes', () => {
  const collection = {
    name: 'test.tickets',
    idKind: 'integer',
    searchFields: ['title'],
    filterFields: ['status'],
  } as const;
  const titles = ['Laptop broken', 'New LAPTOP', 'Printer jam', 'Café order', 'Über laptop', 'top'];
  const queries: FindQuery[] = [
    ...['', 'lap', 'LAPTOP', 'top', 'p', 'é', 'café', 'über'].flatMap((q) => [
      { q, limit: 2, offset: 0 },
      { q, limit: 2, offset: 2 },
    ]),
    { q: 'lap', filters: [{ field: 'status', op: 'eq', value: 'Open' }], limit: 2, offset: 0 },
  ];
  const change = fc.record({
    id: fc.integer({ min: 1, max: 8 }),
    doc: fc.option(fc.record({ title: fc.constantFrom(...titles), status: fc.constantFrom('Open', 'Done') })),
  });

  /** What a search must answer: every matching document, in id order. */
  function expected(docs: Map<number, Document>, query: FindQuery) {
    const q = query.q?.toLowerCase() ?? '';
    const matching = [...docs.entries()]
      .filter(([, doc]) => String(doc.title).toLowerCase().includes(q))
      .filter(([, doc]) => !query.filters || doc.status === query.filters[0]?.value)
      .sort(([a], [b]) => a - b)
      .map(([, doc]) => JSON.stringify(doc));
    return { total: matching.length, items: matching.slice(query.offset, query.offset + query.limit) };
  }

  it('answers every search exactly after each small commit, whether its page and total were kept or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { maxLength: 12 }),
        async (commits) => {
          const { dir, cleanup } = tempDir();
          const store = openSqliteReadStore(path.join(dir, 'read.db'));
          try {
            await store.defineCollections([collection]);
            const docs = new Map<number, Document>();
            for (const [position, changes] of commits.entries()) {
              for (const query of queries)
                expect(store.find(collection.name, query)).toEqual(expected(docs, query));
              const written = changes.map(({ id, doc }) => ({
                collection: collection.name,
                id,
                doc: doc && { id, ...doc },
              }));
              await store.commit(written, new Map([['tests', position]]));
              for (const { id, doc } of written) {
                if (doc) docs.set(id, doc);
                else docs.delete(id);
              }
            }
            for (const query of queries)
              expect(store.find(collection.name, query)).toEqual(expected(docs, query));
          } finally {
            await store.close();
            cleanup();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

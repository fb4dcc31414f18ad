import path from 'node:path';
import fc from 'fast-check';
import type { FindQuery } from '../../src/projections/read-store';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { tempDir } from '../support/temp-dir';

const collection = {
  name: 'test.notes',
  idKind: 'integer',
  searchFields: ['title'],
  filterFields: [],
} as const;

const note = (id: number, size: number) => ({
  collection: collection.name,
  id,
  doc: { id, title: `note ${id}`, body: 'x'.repeat(size) },
});

describe('SQLite read store within its cache budget', () => {
  it('answers a page too large for the budget without keeping it, and keeps the small ones', async () => {
    const { dir, cleanup } = tempDir();
    const store = openSqliteReadStore(path.join(dir, 'read.db'), { cacheBytes: 256 * 1024 });
    try {
      await store.defineCollections([collection]);
      const notes = [1, 2, 3, 4].map((id) => note(id, 10)).concat([5, 6, 7, 8].map((id) => note(id, 20_000)));
      await store.commit(notes, new Map([['test', { from: 0, to: 1 }]]));
      const small: FindQuery = { limit: 4, offset: 0 };
      const huge: FindQuery = { limit: 4, offset: 4 };

      const hugePage = await store.find(collection.name, huge);
      expect(hugePage.total).toBe(8);
      expect(hugePage.items.map((item) => JSON.parse(item).id)).toEqual([5, 6, 7, 8]);
      // A kept page is answered with the very body kept; one not kept is encoded again.
      const hugeBody = await store.findJson(collection.name, huge);
      expect(JSON.parse(hugeBody.toString()).data).toEqual(hugePage.items.map((item) => JSON.parse(item)));
      expect(await store.findJson(collection.name, huge)).not.toBe(hugeBody);

      const smallBody = await store.findJson(collection.name, small);
      expect(await store.findJson(collection.name, small)).toBe(smallBody);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('answers every query as an uncached store does, with a budget far smaller than what is asked', async () => {
    const query = fc.record({
      q: fc.constantFrom(undefined, 'note', 'note 1'),
      limit: fc.integer({ min: 1, max: 6 }),
      offset: fc.nat(8),
    });
    const action = fc.oneof(
      { weight: 3, arbitrary: fc.record({ find: query }) },
      { weight: 1, arbitrary: fc.record({ get: fc.integer({ min: 1, max: 12 }) }) },
      { weight: 1, arbitrary: fc.record({ write: fc.integer({ min: 1, max: 12 }), size: fc.nat(120) }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 50, maxLength: 150 }), async (actions) => {
        const { dir, cleanup } = tempDir();
        const file = path.join(dir, 'read.db');
        const store = openSqliteReadStore(file, { cacheBytes: 32 * 1024 });
        const uncached = openSqliteReadStore(file, { cacheBytes: 0 });
        try {
          await store.defineCollections([collection]);
          await uncached.defineCollections([collection]);
          let position = 0;
          for (const next of actions) {
            if ('find' in next) {
              expect(await store.find(collection.name, next.find)).toEqual(
                await uncached.find(collection.name, next.find),
              );
              expect(await store.findJson(collection.name, next.find)).toEqual(
                await uncached.findJson(collection.name, next.find),
              );
            } else if ('get' in next) {
              expect(await store.get(collection.name, next.get)).toEqual(
                await uncached.get(collection.name, next.get),
              );
            } else {
              position += 1;
              await store.commit(
                [note(next.write, next.size)],
                new Map([['test', { from: position - 1, to: position }]]),
              );
            }
          }
        } finally {
          await store.close();
          await uncached.close();
          cleanup();
        }
      }),
      { numRuns: 25 },
    );
  });
});

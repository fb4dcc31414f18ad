import fc from 'fast-check';
import { createCacheBudget } from '../../src/projections/cache-budget';
import { createDocumentCache } from '../../src/projections/document-cache';
import { encodePage } from '../../src/projections/page-json';
import { QueryCache } from '../../src/projections/query-cache';
import type { FindQuery } from '../../src/projections/read-store';

const BUDGET = 48 * 1024;

const text = (length: number) => `"${'x'.repeat(length)}"`;
const page = (...lengths: number[]) =>
  encodePage({ total: 100, items: lengths.map(text), next: null }, { limit: 1, offset: 0 });

/** What the caches are asked to keep, and the commits that make them forget. */
const step = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('page' as const),
      cache: fc.nat(1),
      q: fc.constantFrom(undefined, 'a', 'b'),
      offset: fc.nat(40),
      items: fc.array(fc.nat(200), { maxLength: 8 }),
      ids: fc.option(fc.array(fc.nat(), { maxLength: 300 }), { nil: undefined }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('doc' as const), id: fc.nat(50), length: fc.nat(1500) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('commit' as const), cache: fc.nat(1), id: fc.nat(50) }),
  },
);

describe('cache byte budget', () => {
  it('never holds more bytes than its budget, whatever the caches sharing it are asked to keep', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 100, maxLength: 300 }), (steps) => {
        const budget = createCacheBudget(BUDGET);
        const caches = [new QueryCache(budget), new QueryCache(budget)];
        const docs = createDocumentCache(budget);
        const asked = new Map<string, [QueryCache, FindQuery]>();
        let peak = 0;
        const heldText = () => {
          let bytes = 0;
          for (const [cache, query] of asked.values()) {
            bytes += cache.page(query)?.body.length ?? 0;
          }
          for (let id = 0; id <= 50; id++) bytes += docs.get(id)?.length ?? 0;
          return bytes;
        };
        for (const next of steps) {
          if (next.kind === 'page') {
            const cache = caches[next.cache] as QueryCache;
            const query = { q: next.q, limit: 12, offset: next.offset };
            cache.remember(query, page(...next.items), next.ids);
            asked.set(JSON.stringify([next.cache, query]), [cache, query]);
          } else if (next.kind === 'doc') {
            docs.remember(next.id, text(next.length));
          } else {
            const before = { doc: null, text: null };
            const after = { doc: JSON.stringify({ id: next.id }), text: 'a b' };
            (caches[next.cache] as QueryCache).apply([{ id: next.id, before, after }]);
            docs.forget(next.id);
          }
          peak = Math.max(peak, budget.used());
        }
        expect(peak).toBeLessThanOrEqual(BUDGET);
        expect(heldText()).toBeLessThanOrEqual(budget.used());
        for (const cache of caches) cache.clear();
        docs.clear();
        expect(budget.used()).toBe(0);
      }),
    );
  });

  it('keeps the newest values and drops the oldest first, whichever cache kept them', () => {
    const budget = createCacheBudget(BUDGET);
    const first = new QueryCache(budget);
    const second = new QueryCache(budget);
    const kept = page(500);
    const query = (offset: number): FindQuery => ({ limit: 1, offset });
    first.remember(query(0), kept);
    for (let offset = 1; offset <= 100; offset++) second.remember(query(offset), kept);

    expect(first.page(query(0))).toBeUndefined();
    expect(second.page(query(1))).toBeUndefined();
    expect(second.page(query(100))).toBe(kept);
  });

  it('does not keep a page larger than a share of the budget, nor anything with a budget of 0', () => {
    const huge = page(BUDGET / 8);
    const small = page(10);
    const query: FindQuery = { limit: 1, offset: 0 };
    const budgeted = new QueryCache(createCacheBudget(BUDGET));
    budgeted.remember(query, huge);
    expect(budgeted.page(query)).toBeUndefined();
    expect(budgeted.total(query)).toBe(100);

    const none = new QueryCache(createCacheBudget(0));
    none.remember(query, small);
    expect(none.page(query)).toBeUndefined();
    expect(none.total(query)).toBeUndefined();
  });
});

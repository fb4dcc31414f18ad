import { marketModule } from '../../src/api/market';
import { openModule, type ModuleHarness } from '../support/module-harness';
import { causeOf } from '../../src/workers/module-jobs';
import { marketCollections } from '../../src/projections/market';
import { STAMP_FIELDS } from '../../src/projections/page-order';

const total = async (harness: ModuleHarness<undefined>, collection: string) =>
  (await harness.suite.readStore.find(collection, { limit: 1, offset: 0 })).total;

/** The figures of each market, without the times the log recorded them at (each run's own). */
const figures = async (harness: ModuleHarness<undefined>) =>
  (await harness.suite.readStore.find('market.figures', { limit: 100, offset: 0 })).items.map((item) =>
    Object.fromEntries(
      Object.entries(JSON.parse(item) as Record<string, unknown>).filter(
        ([field]) => !(STAMP_FIELDS as readonly string[]).includes(field),
      ),
    ),
  );

describe('the demo market', () => {
  let first: ModuleHarness<undefined>;
  let second: ModuleHarness<undefined>;
  beforeAll(async () => {
    first = await openModule(marketModule, { demo: true });
    second = await openModule(marketModule, { demo: true });
  }, 60_000);
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('holds about 150 competitors, 500 locations and 10,000 observations', async () => {
    expect(await total(first, 'market.competitors')).toBe(150);
    expect(await total(first, 'market.locations')).toBeGreaterThan(450);
    expect(await total(first, 'market.observations')).toBeGreaterThan(9_500);
  });

  it('covers the 30 markets with uneven depth: complete, partial and not started', async () => {
    const statuses = (await figures(first)).map((market) => market.status);
    expect(statuses).toHaveLength(30);
    expect(statuses.filter((status) => status === 'complete')).toHaveLength(10);
    expect(statuses.filter((status) => status === 'partial')).toHaveLength(14);
    expect(statuses.filter((status) => status === 'not_started')).toHaveLength(6);
  });

  it('is deterministic: the same seed gives the same events and the same figures', async () => {
    expect(await figures(second)).toEqual(await figures(first));
    const [a, b] = await Promise.all(
      [first, second].map((h) => h.suite.eventStore.readAll({ after: 0, limit: 50 })),
    );
    expect(b?.map((event) => event.hash)).toEqual(a?.map((event) => event.hash));
  });

  it('rebuilds every read model identical to the live one', async () => {
    const snapshot = async () =>
      Promise.all(
        marketCollections.map(
          async ({ name }) => (await first.suite.readStore.find(name, { limit: 100_000, offset: 0 })).items,
        ),
      );
    const live = await snapshot();
    await first.suite.runtime.rebuild();
    expect(await snapshot()).toEqual(live);
  });

  it('recomputes nothing when the coverage job runs again over unchanged data', async () => {
    const head = await first.suite.eventStore.headPosition();
    const [last] = await first.suite.eventStore.readAll({ after: head - 1, limit: 1 });
    await first.suite.jobs.enqueue(
      'market.coverage',
      { payload: {}, cause: causeOf(last as never) },
      { jobId: 'rerun' },
    );
    await first.settle();
    expect(await first.suite.eventStore.headPosition()).toBe(head);
  });
});

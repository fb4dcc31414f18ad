import { marketModule } from '../../src/api/market';
import { importObservations, parseCsv } from '../../src/market/import';
import { writeMarketFixtures } from '../support/market-fixtures';
import { openModule, type ModuleHarness } from '../support/module-harness';
import { createSeedContext } from '../../src/seed/context';

let harness: ModuleHarness<void>;
beforeAll(async () => {
  harness = await openModule(marketModule, { fixtures: writeMarketFixtures });
});
afterAll(() => harness.close());

const context = () => {
  const seed = createSeedContext(harness.suite.eventStore, harness.suite.ids, `import-${Math.random()}`);
  seed.at(new Date('2026-11-01T10:00:00Z'));
  return seed.commands;
};
const HEADER =
  'country,competitor_id,location_id,treatment,price,currency,captured_at,evidence_url,publisher,retrieved_at';
const GOOD = 'DE,1,1,dental-crown,650.50,EUR,2026-10-21,https://www.alpha-dental.example/de/prices/crown,,';
const observations = async () =>
  (await harness.suite.readStore.find('market.observations', { limit: 1, offset: 0 })).total;

describe('suite market import', () => {
  it('appends every row of a good CSV file in one batch and recomputes the figures', async () => {
    const before = await observations();
    const result = await importObservations(
      context(),
      `${HEADER}\n${GOOD}\n"DE",2,2,"dental-crown","700",EUR,2026-10-22T08:00:00Z,"https://www.beta-smile.example/de/prices/crown","Beta Smile",2026-10-22T09:00:00Z\n`,
      'csv',
    );
    expect(result).toEqual({ ok: true, imported: 2, batches: 1 });
    await harness.settle();
    expect(await observations()).toBe(before + 2);
    const de = JSON.parse((await harness.suite.readStore.get('market.figures', 'DE')) as string);
    expect(de.treatments.map((row: { treatment: string }) => row.treatment)).toEqual([
      'dental-implant',
      'dental-crown',
    ]);
    expect(de.as_of).toBe('2026-10-22');
  });

  it('imports more rows than one append holds, in batches that fit it whatever ids the rows take', async () => {
    const before = await observations();
    let id = 10_000_000;
    const ids = { next: async () => ++id, release: () => undefined, refresh: async () => undefined };
    const longIds = { ...context(), ids };
    const rows = Array.from(
      { length: 3_000 },
      (_, row) =>
        `DE,1,1,dental-crown,${600 + (row % 100)},EUR,2026-10-21,https://www.alpha-dental.example/de/prices/crown?row=${row},,`,
    );
    const result = await importObservations(longIds, `${HEADER}\n${rows.join('\n')}\n`, 'csv');
    expect(result).toMatchObject({ ok: true, imported: 3_000 });
    expect((result as { batches: number }).batches).toBeGreaterThan(1);
    await harness.settle();
    expect(await observations()).toBe(before + 3_000);
  });

  it('imports a JSON array', async () => {
    const rows = [
      {
        country: 'at',
        competitor_id: 3,
        location_id: 3,
        treatment: 'IVF-cycle',
        price: 3900,
        currency: 'EUR',
        captured_at: '2026-10-23',
        evidence_url: 'https://www.gamma-care.example/at/ivf',
      },
    ];
    expect(await importObservations(context(), JSON.stringify(rows, null, 2), 'json')).toEqual({
      ok: true,
      imported: 1,
      batches: 1,
    });
  });

  it('rejects a file with one bad row whole, naming the line and the field, and appends nothing', async () => {
    const head = await harness.suite.eventStore.headPosition();
    const bad = 'DE,1,1,dental-crown,650,PLN,2026-10-21,https://www.alpha-dental.example/x,,';
    const result = await importObservations(context(), `${HEADER}\n${GOOD}\n${GOOD}\n${bad}\n`, 'csv');
    expect(result).toEqual({
      ok: false,
      rejected: [
        { line: 4, problems: [{ field: 'currency', message: '"PLN" is not the currency of DE (EUR)' }] },
      ],
    });
    expect(await harness.suite.eventStore.headPosition()).toBe(head);
  });

  it.each([
    ['a missing evidence URL', 'DE,1,1,dental-crown,650,EUR,2026-10-21,,,', 'evidence_url', /required/],
    [
      'an evidence URL that is not http(s)',
      'DE,1,1,dental-crown,650,EUR,2026-10-21,ftp://x.example/p,,',
      'evidence_url',
      /http\(s\)/,
    ],
    ['a zero price', 'DE,1,1,dental-crown,0,EUR,2026-10-21,https://x.example/p,,', 'price', /greater than 0/],
    [
      'a price below the minor unit',
      'DE,1,1,dental-crown,650.505,EUR,2026-10-21,https://x.example/p,,',
      'price',
      /decimals/,
    ],
    [
      'a market outside the EEA',
      'GB,1,1,dental-crown,650,GBP,2026-10-21,https://x.example/p,,',
      'country',
      /30 EEA markets/,
    ],
    [
      'an impossible date',
      'DE,1,1,dental-crown,650,EUR,2026-02-30,https://x.example/p,,',
      'captured_at',
      /date/,
    ],
    [
      'an unknown treatment',
      'DE,1,1,haircut,650,EUR,2026-10-21,https://x.example/p,,',
      'treatment',
      /catalogue/,
    ],
    [
      'a location of another market',
      'AT,1,1,dental-crown,650,EUR,2026-10-21,https://x.example/p,,',
      'location_id',
      /in DE, not AT/,
    ],
    [
      'an unknown competitor',
      'DE,9,1,dental-crown,650,EUR,2026-10-21,https://x.example/p,,',
      'competitor_id',
      /not verified/,
    ],
  ])('reports %s', async (_case, row, field, message) => {
    const result = await importObservations(context(), `${HEADER}\n${row}\n`, 'csv');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejected[0]?.line).toBe(2);
    expect(result.rejected[0]?.problems).toContainEqual({ field, message: expect.stringMatching(message) });
  });

  it('names the starting line of each bad element of a JSON file', async () => {
    const text = `[\n  {"country": "DE", "competitor_id": 1, "location_id": 1, "treatment": "dental-crown", "price": 10, "currency": "EUR", "captured_at": "2026-10-01", "evidence_url": "https://x.example/a"},\n  {\n    "country": "DE", "competitor_id": 1, "location_id": 1, "treatment": "dental-crown",\n    "price": -5, "currency": "EUR", "captured_at": "2026-10-01", "evidence_url": "https://x.example/a", "extra": 1\n  }\n]`;
    const result = await importObservations(context(), text, 'json');
    expect(result).toEqual({
      ok: false,
      rejected: [
        {
          line: 3,
          problems: [
            { field: 'extra', message: 'is not a column of the import format' },
            { field: 'price', message: 'must be a number greater than 0' },
          ],
        },
      ],
    });
  });

  it('reports every problem of a row at once', async () => {
    const result = await importObservations(
      context(),
      `${HEADER}\nNL,x,13,dental-crown,-3,SEK,2026-11-31,mailto:a@b.c,,\n`,
      'csv',
    );
    expect(result.ok ? [] : result.rejected[0]?.problems.map((problem) => problem.field)).toEqual([
      'currency',
      'price',
      'captured_at',
      'evidence_url',
      'competitor_id',
      'location_id',
    ]);
  });

  it('rejects an unknown CSV column and an empty file', async () => {
    expect(await importObservations(context(), `${HEADER},colour\n`, 'csv')).toMatchObject({
      ok: false,
      rejected: [{ line: 1 }],
    });
    expect(await importObservations(context(), `${HEADER}\n`, 'csv')).toMatchObject({
      ok: false,
      rejected: [{ problems: [{ field: 'file' }] }],
    });
  });
});

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks, keeping each row`s first line', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n"multi\nline",z\n')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, y', 'say "hi"'] },
      { line: 3, cells: ['multi\nline', 'z'] },
    ]);
  });
});

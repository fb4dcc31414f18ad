import { figuresDecider } from '../../src/commands/market/figures';
import { computeFigures, median, priceIndex } from '../../src/market/figures';
import { TREATMENTS } from '../../src/market/treatments';
import type { ObservationRecord } from '../../src/projections/market';
import { deciderSpec } from '../support/decider-spec';

let nextId = 1;
const observation = (overrides: Partial<ObservationRecord>): ObservationRecord => ({
  id: nextId++,
  competitor_id: 1,
  competitor_name: 'Alpha',
  location_id: 1,
  country: 'DE',
  city: 'Berlin',
  treatment: 'dental-implant',
  treatment_name: 'Dental implant (single tooth)',
  treatment_type: 'Dental',
  price: 1000,
  currency: 'EUR',
  captured_at: '2026-10-01T00:00:00Z',
  evidence_url: 'https://alpha.example/de/implant',
  publisher: 'Alpha',
  retrieved_at: '2026-10-01T00:00:00Z',
  ...overrides,
});

describe('median and price index', () => {
  it('takes the middle value, or the mean of the middle two rounded half up (in minor units)', () => {
    expect(median([300, 100, 200])).toBe(200);
    expect(median([100, 200, 301, 400])).toBe(251);
    expect(median([5])).toBe(5);
  });

  it('index = 100 x competitor median / market median, to one decimal', () => {
    expect(priceIndex(1100, 1500)).toBe(73.3);
    expect(priceIndex(1600, 1500)).toBe(106.7);
    expect(priceIndex(1500, 1500)).toBe(100);
  });
});

describe('computeFigures', () => {
  const rows = [
    observation({ price: 1000 }),
    observation({ price: 1200, captured_at: '2026-10-05T00:00:00Z', retrieved_at: '2026-10-05T00:00:00Z' }),
    observation({
      competitor_id: 2,
      competitor_name: 'Beta',
      price: 1500,
      evidence_url: 'https://beta.example/x',
    }),
    observation({
      competitor_id: 2,
      competitor_name: 'Beta',
      price: 1600.5,
      evidence_url: 'https://beta.example/x',
    }),
    observation({
      competitor_id: 2,
      competitor_name: 'Beta',
      price: 1700,
      evidence_url: 'https://beta.example/x',
    }),
    observation({
      country: 'HU',
      currency: 'HUF',
      price: 400_000,
      captured_at: '2026-10-20T10:00:00Z',
      retrieved_at: '2026-10-20T10:00:00Z',
    }),
  ];
  const figures = computeFigures(rows, [{ country: 'DE' }, { country: 'DE' }, { country: 'HU' }]);
  const de = figures.find((market) => market.country === 'DE');

  it('covers exactly the 30 EEA markets, untouched ones as not started', () => {
    expect(figures).toHaveLength(30);
    expect(figures.filter((market) => market.status === 'not_started')).toHaveLength(28);
    expect(figures.find((market) => market.country === 'LI')).toMatchObject({
      observation_count: 0,
      as_of: '2026-10-20',
      freshness_days: null,
    });
  });

  it('computes depth, freshness against the as-of date, medians and price indices per market', () => {
    expect(de).toMatchObject({
      status: 'partial',
      as_of: '2026-10-20',
      observation_count: 5,
      competitor_count: 2,
      location_count: 2,
      source_count: 2,
      treatments_covered: 1,
      treatments_complete: 0,
      newest_evidence_on: '2026-10-05',
      freshness_days: 15,
      oldest_evidence_days: 19,
    });
    expect(de?.treatments).toEqual([
      expect.objectContaining({ market_median: 1500, competitor_count: 2, relative_price_level: null }),
    ]);
    expect(
      de?.price_levels.map((level) => [level.competitor_name, level.competitor_median, level.price_index]),
    ).toEqual([
      ['Alpha', 1100, 73.3],
      ['Beta', 1600.5, 106.7],
    ]);
  });

  it('calls a market complete once every catalogue treatment has prices of 3 competitors', () => {
    const full = TREATMENTS.flatMap((treatment) =>
      [1, 2, 3].map((competitor) =>
        observation({
          country: 'AT',
          competitor_id: competitor,
          treatment: treatment.code,
          treatment_type: treatment.type,
        }),
      ),
    );
    expect(computeFigures(full, []).find((market) => market.country === 'AT')?.status).toBe('complete');
    expect(computeFigures(full.slice(1), []).find((market) => market.country === 'AT')?.status).toBe(
      'partial',
    );
  });

  it('is deterministic: the same observations in any order give the same figures and hashes', () => {
    const again = computeFigures([...rows].reverse(), [
      { country: 'HU' },
      { country: 'DE' },
      { country: 'DE' },
    ]);
    expect(again).toEqual(figures);
    expect(de?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('figuresDecider', () => {
  const spec = deciderSpec(figuresDecider);
  const figures = computeFigures([observation({})], []);
  const recorded = figures.map((data) => ({ type: 'MarketFiguresComputed' as const, data }));

  it('records every market the first time', () => {
    spec([]).when({ type: 'RecordFigures', figures }).then(recorded);
  });

  it('records nothing when the figures are unchanged', () => {
    spec(recorded).when({ type: 'RecordFigures', figures }).then([]);
  });

  it('records only the markets whose figures changed', () => {
    const changed = computeFigures([observation({}), observation({ price: 2000 })], []);
    spec(recorded)
      .when({ type: 'RecordFigures', figures: changed })
      .then([
        {
          type: 'MarketFiguresComputed',
          data: changed.find((market) => market.country === 'DE') as (typeof changed)[number],
        },
      ]);
  });
});

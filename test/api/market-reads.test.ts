import request from 'supertest';
import { marketModule } from '../../src/api/market';
import { cookieFor, marketApp, writeMarketFixtures } from '../support/market-fixtures';
import { openModule, type ModuleHarness } from '../support/module-harness';
import { expectEnvelope } from './spec';

let harness: ModuleHarness<void>;
beforeAll(async () => {
  harness = await openModule(marketModule, { fixtures: writeMarketFixtures });
});
afterAll(() => harness.close());

const get = (path: string, query: Record<string, string | number> = {}) =>
  request(marketApp(harness)).get(path).query(query).set('Cookie', cookieFor('alice'));

const expectUnknownMarket = (res: request.Response) => {
  expectEnvelope(res, 422, 'validation_error');
  expect(res.body.error.details.issues[0].loc).toEqual(['query', 'country']);
  expect(res.body.error.message).toMatch(/one of the 30 EEA market codes/);
};

describe('GET /api/overview', () => {
  it('counts verified competitors, locations, observations and sources of all markets', async () => {
    const res = await get('/api/overview').expect(200);
    expect(res.body).toEqual({
      country: null,
      as_of: '2026-10-20',
      competitors: 3,
      locations: 3,
      observations: 6,
      sources: 3,
      markets: { not_started: 28, partial: 2, complete: 0 },
    });
  });

  it('narrows to one market, in any letter case', async () => {
    const res = await get('/api/overview', { country: 'de' }).expect(200);
    expect(res.body).toMatchObject({
      country: 'DE',
      competitors: 2,
      locations: 2,
      observations: 5,
      sources: 2,
    });
  });

  it.each(['XX', 'GB', 'CH', 'DEU', ''])('answers the market %j with 422', async (country) => {
    expectUnknownMarket(await get('/api/overview', { country }));
  });

  it('rejects an unknown parameter with 400, naming it', async () => {
    const response = await get('/api/overview', { colour: 'red' });
    expectEnvelope(response, 400, 'unknown_parameter');
    expect(response.body.error.details.parameter).toBe('colour');
  });
});

describe('GET /api/coverage', () => {
  it('lists exactly the 30 EEA markets with status and evidence depth', async () => {
    const res = await get('/api/coverage').expect(200);
    expect(res.body.meta).toEqual({ total: 30, limit: 30, offset: 0, next: null });
    const codes = res.body.data.map((row: { country: string }) => row.country);
    expect(codes).toEqual([
      ...'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IS IT LI LT LU LV MT NL NO PL PT RO SE SI SK'.split(
        ' ',
      ),
    ]);
    const de = res.body.data.find((row: { country: string }) => row.country === 'DE');
    expect(de).toMatchObject({
      name: 'Germany',
      currency: 'EUR',
      status: 'partial',
      observation_count: 5,
      competitor_count: 2,
      location_count: 2,
      source_count: 2,
      treatments_covered: 1,
      treatments_complete: 0,
      newest_evidence_on: '2026-10-20',
      oldest_evidence_on: '2026-10-01',
      freshness_days: 0,
      oldest_evidence_days: 19,
      as_of: '2026-10-20',
    });
    const at = res.body.data.find((row: { country: string }) => row.country === 'AT');
    expect(at).toMatchObject({ status: 'partial', freshness_days: 5 });
    const no = res.body.data.find((row: { country: string }) => row.country === 'NO');
    expect(no).toMatchObject({
      status: 'not_started',
      currency: 'NOK',
      observation_count: 0,
      freshness_days: null,
    });
  });

  it('answers one market, and 422 for an unknown one', async () => {
    expect((await get('/api/coverage', { country: 'at' }).expect(200)).body.data).toHaveLength(1);
    expectUnknownMarket(await get('/api/coverage', { country: 'ZZ' }));
  });
});

describe('GET /api/competitors', () => {
  it('lists competitors with their markets and counts, paged', async () => {
    const res = await get('/api/competitors', { limit: 2 }).expect(200);
    expect(res.body.meta).toEqual({ total: 3, limit: 2, offset: 0, next: expect.any(String) });
    expect(res.body.data[0]).toEqual({
      id: 1,
      name: 'Alpha Dental',
      website: 'https://www.alpha-dental.example/',
      headquarters_country: 'DE',
      verified_on: '2026-09-01',
      source_url: 'https://www.alpha-dental.example/about',
      countries: ['DE'],
      location_count: 1,
      observation_count: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(
      (await get('/api/competitors', { offset: 2 }).expect(200)).body.data.map((c: { id: number }) => c.id),
    ).toEqual([3]);
  });

  it('searches by q and filters by market', async () => {
    expect(
      (await get('/api/competitors', { q: 'beta' }).expect(200)).body.data.map((c: { id: number }) => c.id),
    ).toEqual([2]);
    const at = await get('/api/competitors', { country: 'AT' }).expect(200);
    expect(at.body).toMatchObject({ meta: { total: 1 }, data: [{ id: 3 }] });
    expectUnknownMarket(await get('/api/competitors', { country: 'UK' }));
  });

  it('rejects bad paging with 422 naming each parameter', async () => {
    const res = await get('/api/competitors', { limit: 0, offset: -1 });
    expectEnvelope(res, 422, 'validation_error');
    expect(res.body.error.details.issues.map((issue: { loc: string[] }) => issue.loc)).toEqual([
      ['query', 'limit'],
      ['query', 'offset'],
    ]);
    expectEnvelope(await get('/api/competitors', { limit: 201 }), 422, 'validation_error');
  });
});

describe('GET /api/competitors/{competitor_id}', () => {
  it('shows locations, treatment prices and relative price levels (100 x own median / market median)', async () => {
    const res = await get('/api/competitors/1').expect(200);
    expect(res.body.locations.map((location: { city: string }) => location.city)).toEqual(['Berlin']);
    expect(res.body.prices).toEqual([
      {
        country: 'DE',
        treatment: 'dental-implant',
        treatment_type: 'Dental',
        currency: 'EUR',
        observation_count: 2,
        competitor_median: 1100,
        market_median: 1500,
        price_index: 73.3,
      },
    ]);
    expect((await get('/api/competitors/2').expect(200)).body.prices[0]).toMatchObject({
      competitor_median: 1600,
      price_index: 106.7,
    });
  });

  it('answers 404 for an unknown id and 422 for a malformed one', async () => {
    expectEnvelope(await get('/api/competitors/999'), 404, 'not_found');
    expectEnvelope(await get('/api/competitors/abc'), 422, 'validation_error');
  });
});

describe('GET /api/locations', () => {
  it('filters by market and competitor', async () => {
    expect((await get('/api/locations', { country: 'de' }).expect(200)).body.meta.total).toBe(2);
    const res = await get('/api/locations', { competitor: 2 }).expect(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        id: 2,
        city: 'Munich',
        lat: 48.14,
        lng: 11.58,
        competitor_name: 'Beta Smile',
        observation_count: 3,
      }),
    ]);
    expectUnknownMarket(await get('/api/locations', { country: 'US' }));
    expectEnvelope(await get('/api/locations', { competitor: 'x' }), 422, 'validation_error');
  });

  it('answers a GeoJSON FeatureCollection with [lng, lat] points for the map', async () => {
    const res = await get('/api/locations', { format: 'geojson', country: 'AT' }).expect(200);
    expect(res.body).toEqual({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 3,
          geometry: { type: 'Point', coordinates: [16.37, 48.21] },
          properties: expect.objectContaining({ city: 'Vienna', competitor_id: 3 }),
        },
      ],
      meta: { total: 1, limit: 50, offset: 0, next: null },
    });
    expectEnvelope(await get('/api/locations', { format: 'kml' }), 422, 'validation_error');
  });
});

describe('GET /api/observations', () => {
  it('lists observations with currency and evidence, filtered by market, treatment and competitor', async () => {
    const res = await get('/api/observations', {
      country: 'DE',
      treatment: 'Dental-Implant',
      competitor: 1,
    }).expect(200);
    expect(res.body.meta).toEqual({ total: 2, limit: 50, offset: 0, next: null });
    expect(res.body.data[0]).toEqual({
      id: 1,
      competitor_id: 1,
      competitor_name: 'Alpha Dental',
      location_id: 1,
      country: 'DE',
      city: 'Berlin',
      treatment: 'dental-implant',
      treatment_name: 'Dental implant (single tooth)',
      treatment_type: 'Dental',
      price: 1000,
      currency: 'EUR',
      captured_at: '2026-10-01T00:00:00Z',
      evidence_url: 'https://www.alpha-dental.example/de/prices/dental-implant',
      publisher: 'www.alpha-dental.example',
      retrieved_at: '2026-10-01T00:00:00Z',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await get('/api/observations', { country: 'AT' }).expect(200)).body.meta.total).toBe(1);
    expect(
      (await get('/api/observations', { limit: 2, offset: 4 }).expect(200)).body.data.map(
        (o: { id: number }) => o.id,
      ),
    ).toEqual([5, 6]);
  });

  it('rejects an unknown market, treatment or competitor id with 422', async () => {
    expectUnknownMarket(await get('/api/observations', { country: 'EU' }));
    expectEnvelope(await get('/api/observations', { treatment: 'haircut' }), 422, 'validation_error');
    expectEnvelope(await get('/api/observations', { competitor: '-1' }), 422, 'validation_error');
  });
});

describe('GET /api/evidence', () => {
  it('lists retained sources with citing counts and freshness against the as-of date', async () => {
    const res = await get('/api/evidence', { country: 'DE' }).expect(200);
    expect(res.body.data).toEqual([
      {
        url: 'https://www.alpha-dental.example/de/prices/dental-implant',
        publisher: 'www.alpha-dental.example',
        country: 'DE',
        competitor_id: 1,
        first_retrieved_at: '2026-10-01T00:00:00Z',
        retrieved_at: '2026-10-05T00:00:00Z',
        freshness_days: 15,
        observation_count: 2,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      expect.objectContaining({
        url: 'https://www.beta-smile.example/de/prices/dental-implant',
        observation_count: 3,
        freshness_days: 0,
      }),
    ]);
    expect((await get('/api/evidence', { q: 'gamma' }).expect(200)).body.meta.total).toBe(1);
    expectUnknownMarket(await get('/api/evidence', { country: 'xx' }));
  });
});

describe('GET /api/treemap', () => {
  it('nests country > treatment type > treatment, sized by observations and coloured by relative price level', async () => {
    const res = await get('/api/treemap').expect(200);
    expect(res.body).toEqual({
      name: 'EEA',
      size: 6,
      colour: null,
      children: [
        {
          name: 'Austria',
          code: 'AT',
          size: 1,
          colour: 92.9,
          children: [
            {
              name: 'Dental',
              size: 1,
              colour: 92.9,
              children: [
                { name: 'Dental implant (single tooth)', code: 'dental-implant', size: 1, colour: 92.9 },
              ],
            },
          ],
        },
        expect.objectContaining({ code: 'DE', size: 5, colour: 107.1 }),
      ],
    });
    expect((await get('/api/treemap', { country: 'DE' }).expect(200)).body.children).toHaveLength(1);
    expectUnknownMarket(await get('/api/treemap', { country: 'QQ' }));
  });
});

import request from 'supertest';
import { fpaModule } from '../../src/api/fpa';
import { SCENARIOS } from '../../src/seed/fpa-data';
import { expectInvalid, expectRecord } from '../support/module-api';
import { openModule, type ModuleHarness } from '../support/module-harness';
import { expectEnvelope } from './spec';

type Row = Record<string, number | string | null | boolean | Record<string, unknown>>;

const cents = (value: unknown) => Math.round((value as number) * 100);

describe('financial planning API', () => {
  let h: ModuleHarness<unknown>;
  beforeAll(async () => {
    h = await openModule(fpaModule, { demo: true });
  });
  afterAll(() => h.close());

  const get = (path: string, query: Record<string, string | number> = {}) =>
    request(h.app).get(path).query(query);

  describe('health, index and descriptions', () => {
    const ENDPOINTS = [
      '/api/v1/scenarios',
      '/api/v1/scenarios/{scenario}',
      '/api/v1/plans',
      '/api/v1/plans/{scenario}',
      '/api/v1/statements/{scenario}',
      '/api/v1/recurring/{scenario}',
      '/api/v1/variances',
      '/api/v1/integrations',
    ];

    it('reports health with the product and version 1.0.0', async () => {
      const res = await get('/api/v1/health').expect(200);
      expect(res.body).toEqual({
        status: 'ok',
        product: 'Financial planning',
        version: '1.0.0',
        writes_enabled: true,
        projections: 'ok',
      });
    });

    it('lists the resources and the computed routes in the API index', async () => {
      const res = await get('/api/').expect(200);
      expect(res.body.resources.map((resource: Row) => resource.item)).toEqual([
        '/api/v1/scenarios/{scenario}',
        '/api/v1/plans/{scenario}',
      ]);
      expect(res.body.routes.map((route: Row) => route.path)).toEqual([
        ...ENDPOINTS.slice(4),
        '/api/v1/changes',
        '/api/v1/proposals',
        '/api/v1/proposals/{id}',
        '/api/v1/proposals/{id}/approve',
        '/api/v1/proposals/{id}/reject',
        '/api/v1/scenarios/{scenario}/activity',
        '/api/v1/plans/{scenario}/activity',
        '/api/v1/webhooks',
        '/api/v1/webhooks',
        '/api/v1/webhooks/{id}',
        '/api/v1/webhooks/{id}',
        '/api/v1/webhooks/{id}/redeliver',
        '/api/v1/webhooks/{id}/deliveries',
        '/api/v1/me',
      ]);
    });

    it('describes every endpoint in OpenAPI 3.1 and 3.0, all public', async () => {
      const runtime = (await get('/api/openapi.json').expect(200)).body;
      const compat = (await get('/swagger.json').expect(200)).body;
      expect(compat.openapi).toBe('3.0.3');
      for (const path of ENDPOINTS) {
        const operation = runtime.paths[path]?.get;
        expect([path, operation !== undefined, compat.paths[path]?.get !== undefined]).toEqual([
          path,
          true,
          true,
        ]);
        expect([path, operation.security ?? []]).toEqual([path, []]);
      }
      const statements = runtime.paths['/api/v1/statements/{scenario}'].get;
      const parameters = statements.parameters.map((parameter: Row) => parameter.name).sort();
      expect(parameters).toEqual([
        'If-None-Match',
        'X-Min-Position',
        'from',
        'granularity',
        'limit',
        'offset',
        'scenario',
        'statement',
        'to',
      ]);
      expect(Object.keys(statements.responses).sort()).toEqual(['200', '304', '400', '404', '422', '503']);
    });

    it('serves the interactive documentation', async () => {
      expect((await get('/api/docs/').expect(200)).type).toBe('text/html');
    });
  });

  describe('GET /api/v1/scenarios', () => {
    it('lists every demo scenario with its drivers, seed and latest generation', async () => {
      const res = await get('/api/v1/scenarios').expect(200);
      expect(res.body.meta).toEqual({ total: SCENARIOS.length, limit: 50, offset: 0, next: null });
      const ids = (res.body.data as Row[]).map((row) => row.id).sort();
      expect(ids).toEqual(SCENARIOS.map((scenario) => scenario.id).sort());
      for (const row of res.body.data as Row[]) {
        expectRecord(fpaModule, 'scenarios', row);
        const generation = row.latest_generation as Record<string, unknown>;
        expect(generation.output_sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(generation.position).toEqual(expect.any(Number));
      }
    });

    it('answers one scenario by id and 404 for an unknown one', async () => {
      const res = await get('/api/v1/scenarios/upside').expect(200);
      expect(res.body).toMatchObject({ id: 'upside', seed: 'fpa-upside-2026' });
      expectEnvelope(await get('/api/v1/scenarios/sideways'), 404, 'not_found');
    });

    it('serves the recorded generation whose hash the scenario names', async () => {
      const scenario = (await get('/api/v1/scenarios/base')).body;
      const plan = (await get('/api/v1/plans/base').expect(200)).body;
      expectRecord(fpaModule, 'plans', plan);
      expect(plan.output_sha256).toBe(scenario.latest_generation.output_sha256);
      expect(plan.inputs).toEqual({ drivers: scenario.drivers, seed: scenario.seed });
    });
  });

  describe('GET /api/v1/statements/{scenario}', () => {
    it('answers 24 monthly periods with the three statements, balanced every month', async () => {
      const res = await get('/api/v1/statements/base').expect(200);
      expect(res.body).toMatchObject({ scenario: 'base', currency: 'EUR', granularity: 'month' });
      expect(res.body.meta).toEqual({ total: 24, limit: 50, offset: 0 });
      const [first] = res.body.data;
      expect(first).toMatchObject({
        period: '2026-01',
        start_month: '2026-01',
        end_month: '2026-01',
        months: 1,
      });
      for (const period of res.body.data) {
        expect(period.balance.balanced).toBe(true);
        expect(cents(period.balance.total_assets)).toBe(cents(period.balance.total_liabilities_and_equity));
      }
    });

    it('sums flows and takes period-end balances by quarter and by year', async () => {
      const months = (await get('/api/v1/statements/downside', { from: '2026-01', to: '2026-06' })).body.data;
      const quarters = (
        await get('/api/v1/statements/downside', { from: '2026-01', to: '2026-06', granularity: 'quarter' })
      ).body.data;
      expect(quarters.map((quarter: Row) => quarter.period)).toEqual(['2026-Q1', '2026-Q2']);
      const q2 = quarters[1];
      const q2Months = months.slice(3, 6);
      const total = (statement: string, line: string) =>
        q2Months.reduce(
          (sum: number, month: Record<string, Row>) => sum + cents(month[statement]?.[line]),
          0,
        );
      expect(cents(q2.income.net_income)).toBe(total('income', 'net_income'));
      expect(cents(q2.income.total_revenue)).toBe(total('income', 'total_revenue'));
      expect(cents(q2.cashflow.operating_cash_flow)).toBe(total('cashflow', 'operating_cash_flow'));
      expect(q2.balance).toEqual(q2Months[2].balance);
      expect(q2.cashflow.opening_cash).toBe(q2Months[0].cashflow.opening_cash);
      expect(q2.cashflow.closing_cash).toBe(q2Months[2].cashflow.closing_cash);

      const years = (await get('/api/v1/statements/downside', { granularity: 'YEAR' }).expect(200)).body;
      expect(years.data.map((year: Row) => [year.period, year.months])).toEqual([
        ['2026', 12],
        ['2027', 12],
      ]);
    });

    it('answers only the statement asked for, paged', async () => {
      const res = await get('/api/v1/statements/base', { statement: 'cashflow', limit: 2, offset: 3 }).expect(
        200,
      );
      expect(res.body.meta).toEqual({ total: 24, limit: 2, offset: 3 });
      expect(res.body.data.map((period: Row) => period.period)).toEqual(['2026-04', '2026-05']);
      expect(Object.keys(res.body.data[0]).sort()).toEqual([
        'cashflow',
        'end_month',
        'months',
        'period',
        'start_month',
      ]);
    });

    it('answers an unknown scenario with a 404 envelope', async () => {
      expectEnvelope(await get('/api/v1/statements/sideways'), 404, 'not_found');
    });

    it('rejects bad parameters with a 422 envelope naming each', async () => {
      expectInvalid(
        await get('/api/v1/statements/base', { from: '2026-13', granularity: 'week', statement: 'p&l' }),
        ['query', 'from'],
        ['query', 'granularity'],
        ['query', 'statement'],
      );
      expectInvalid(
        await get('/api/v1/statements/base', { from: '2025-12', to: '2028-01' }),
        ['query', 'from'],
        ['query', 'to'],
      );
      expectInvalid(await get('/api/v1/statements/base', { from: '2027-02', to: '2027-01' }), [
        'query',
        'to',
      ]);
      expectInvalid(
        await get('/api/v1/statements/base', { limit: 0, offset: -1 }),
        ['query', 'limit'],
        ['query', 'offset'],
      );
    });
  });

  describe('GET /api/v1/recurring/{scenario}', () => {
    it('rolls MRR forward every month: beginning + movements = ending, ARR = 12 x MRR', async () => {
      const res = await get('/api/v1/recurring/upside').expect(200);
      expect(res.body.meta.total).toBe(24);
      let previous: number | null = null;
      for (const month of res.body.data as Row[]) {
        const ending =
          cents(month.beginning_mrr) +
          cents(month.new_mrr) +
          cents(month.expansion_mrr) +
          cents(month.reactivation_mrr) -
          cents(month.contraction_mrr) -
          cents(month.churned_mrr);
        expect(cents(month.ending_mrr)).toBe(ending);
        expect(cents(month.arr)).toBe(12 * ending);
        if (previous !== null) expect(cents(month.beginning_mrr)).toBe(previous);
        previous = ending;
      }
    });

    it('aggregates a year from its months: flows summed, retention over the year', async () => {
      const months = (await get('/api/v1/recurring/base', { to: '2026-12' })).body.data as Row[];
      const [year] = (await get('/api/v1/recurring/base', { granularity: 'year', to: '2026-12' }).expect(200))
        .body.data;
      const total = (key: string) => months.reduce((sum, month) => sum + cents(month[key]), 0);
      expect(cents(year.beginning_mrr)).toBe(cents(months[0]?.beginning_mrr));
      expect(cents(year.ending_mrr)).toBe(cents(months[11]?.ending_mrr));
      expect(cents(year.new_mrr)).toBe(total('new_mrr'));
      expect(cents(year.churned_mrr)).toBe(total('churned_mrr'));
      const beginning = cents(year.beginning_mrr);
      const grr = ((beginning - total('contraction_mrr') - total('churned_mrr')) / beginning) * 100;
      expect(year.grr_pct).toBeCloseTo(grr, 2);
      expect(year.nrr_pct).toBeGreaterThanOrEqual(year.grr_pct);
    });

    it('answers 404 for an unknown scenario and 422 for a bad range', async () => {
      expectEnvelope(await get('/api/v1/recurring/sideways'), 404, 'not_found');
      expectInvalid(await get('/api/v1/recurring/base', { to: 'soon' }), ['query', 'to']);
    });
  });

  describe('GET /api/v1/variances', () => {
    it('compares plan and actuals of the closed months of the base scenario by default', async () => {
      const res = await get('/api/v1/variances', { limit: 200 }).expect(200);
      expect(res.body.meta).toEqual({ total: 100, limit: 200, offset: 0 });
      for (const row of res.body.data as Row[]) {
        expect(row.scenario).toBe('base');
        expect(cents(row.variance)).toBe(cents(row.actual) - cents(row.plan));
      }
    });

    it('judges a variance by the line\u2019s direction', async () => {
      const rows = (await get('/api/v1/variances', { scenario: 'downside', limit: 200 })).body.data as Row[];
      for (const row of rows) {
        const good = row.direction === 'higher_is_better' ? cents(row.variance) > 0 : cents(row.variance) < 0;
        const expected = cents(row.variance) === 0 ? 'on_plan' : good ? 'favourable' : 'unfavourable';
        expect([row.id, row.assessment]).toEqual([row.id, expected]);
      }
      expect(new Set(rows.map((row) => row.assessment))).toEqual(new Set(['favourable', 'unfavourable']));
    });

    it('filters by line, period and assessment', async () => {
      const res = await get('/api/v1/variances', { line: 'COST_OF_REVENUE', period: '2026-03' }).expect(200);
      expect(res.body.data.map((row: Row) => row.id)).toEqual(['base:2026-03:cost_of_revenue']);
      const unfavourable = (await get('/api/v1/variances', { assessment: 'unfavourable', limit: 200 })).body;
      expect(unfavourable.data.every((row: Row) => row.assessment === 'unfavourable')).toBe(true);
      expect(unfavourable.meta.total).toBe(unfavourable.data.length);
    });

    it('answers an open month with an empty page, an unknown scenario with 404 and bad filters with 422', async () => {
      expect((await get('/api/v1/variances', { period: '2027-05' }).expect(200)).body.meta.total).toBe(0);
      expectEnvelope(await get('/api/v1/variances', { scenario: 'sideways' }), 404, 'not_found');
      expectInvalid(
        await get('/api/v1/variances', { line: 'vibes', period: 'May' }),
        ['query', 'line'],
        ['query', 'period'],
      );
    });
  });

  describe('GET /api/v1/integrations', () => {
    it('lists every source with its state and freshness as of the plan', async () => {
      const res = await get('/api/v1/integrations').expect(200);
      expect(res.body.meta.total).toBe(6);
      expect(res.body.data.map((row: Row) => row.id)).toEqual([
        'erp',
        'billing',
        'crm',
        'hris',
        'payroll',
        'bank',
      ]);
      for (const row of res.body.data as Row[]) {
        expect(row.as_of).toBe('2026-11-01T00:00:00Z');
        const hours = (Date.parse(row.as_of as string) - Date.parse(row.last_sync_at as string)) / 3_600_000;
        expect(hours).toBe(row.freshness_hours);
        expect(['ok', 'degraded', 'failed', 'stale']).toContain(row.state);
      }
    });

    it('filters by state and answers 404 for an unknown scenario, 422 for an unknown state', async () => {
      const stale = (await get('/api/v1/integrations', { scenario: 'upside', state: 'stale' }).expect(200))
        .body.data as Row[];
      for (const row of stale)
        expect(row.freshness_hours as number).toBeGreaterThan(2 * (row.expected_interval_hours as number));
      expectEnvelope(await get('/api/v1/integrations', { scenario: 'sideways' }), 404, 'not_found');
      expectInvalid(await get('/api/v1/integrations', { state: 'sunny' }), ['query', 'state']);
    });
  });
});

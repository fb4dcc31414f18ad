import type { PlanOutput } from '../../fpa/output';
import { recurringPeriods, statementPeriods, varianceRows, type PeriodQuery } from '../../fpa/presentation';
import type { PlanRecord } from '../../projections/fpa';
import { ApiError, validationError } from '../kit/errors';
import type { ModuleRoute } from '../kit/module';
import type { ModuleServices } from '../../modules/module';
import { ErrorEnvelopeSchema } from '../kit/openapi';
import { shortened, type ValidationDetail } from '../kit/validation';
import {
  DEFAULT_LIMIT,
  IntegrationCollection,
  IntegrationsQuery,
  RecurringAnswer,
  RecurringQuery,
  ScenarioParams,
  StatementsAnswer,
  StatementsQuery,
  VarianceCollection,
  VariancesQuery,
} from './schemas';

const DEFAULT_SCENARIO = 'base';

/** The latest generation of a scenario's plan: 404 for an unknown scenario, 503 while it is computed. */
async function latestPlan(services: ModuleServices, scenario: string): Promise<PlanRecord> {
  const plan = await services.readStore.get('fpa.plans', scenario);
  if (plan) return JSON.parse(plan) as PlanRecord;
  if (await services.readStore.get('fpa.scenarios', scenario)) {
    throw new ApiError(
      'not_caught_up',
      `The plan of scenario ${scenario} is being generated; retry shortly`,
      undefined,
      {
        'Retry-After': '1',
      },
    );
  }
  throw new ApiError('not_found', `Scenario ${shortened(scenario)} not found`);
}

/** `from`/`to` inside the plan's months and in order (the schema has checked their format). */
function periodQuery(output: PlanOutput, query: RecurringQuery): PeriodQuery {
  const first = output.months[0] as string;
  const last = output.months[output.months.length - 1] as string;
  const from = query.from ?? first;
  const to = query.to ?? last;
  const details: ValidationDetail[] = [];
  for (const [name, value] of [
    ['from', query.from],
    ['to', query.to],
  ] as const) {
    if (value !== undefined && (value < first || value > last)) {
      details.push({
        loc: ['query', name],
        msg: `Input should be a month of the plan, ${first} to ${last}`,
        type: 'value_error',
        input: value,
      });
    }
  }
  if (details.length === 0 && from > to) {
    details.push({
      loc: ['query', 'to'],
      msg: `Input should not be before from (${from})`,
      type: 'value_error',
      input: to,
    });
  }
  if (details.length > 0) throw validationError(details);
  return { from, to, granularity: query.granularity ?? 'month' };
}

function page<Row>(rows: readonly Row[], query: { limit?: number; offset?: number }) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  return { data: rows.slice(offset, offset + limit), meta: { total: rows.length, limit, offset } };
}

const ERRORS = {
  404: { description: 'Unknown scenario', schema: ErrorEnvelopeSchema },
  422: {
    description: 'Invalid parameter (error envelope naming each in details.issues)',
    schema: ErrorEnvelopeSchema,
  },
  503: {
    description: 'The scenario\u2019s plan is still being generated (Retry-After)',
    schema: ErrorEnvelopeSchema,
  },
};

/** A page of a scenario's latest plan, by period, with what identifies the plan it comes from. */
async function periodsAnswer<Row>(
  services: ModuleServices,
  params: Record<string, string>,
  query: RecurringQuery,
  rows: (output: PlanOutput, periods: PeriodQuery) => readonly Row[],
) {
  const plan = await latestPlan(services, params.scenario as string);
  const periods = periodQuery(plan.output, query);
  return {
    status: 200,
    body: {
      scenario: plan.scenario,
      currency: plan.output.currency,
      granularity: periods.granularity,
      output_sha256: plan.output_sha256,
      ...page(rows(plan.output, periods), query),
    },
  };
}

const statements: ModuleRoute<StatementsQuery> = {
  method: 'get',
  path: '/api/v1/statements/:scenario',
  operation: 'getStatements',
  summary: 'Income statement, balance sheet and cash-flow statement of a scenario, by month, quarter or year',
  tags: ['statements'],
  params: ScenarioParams,
  query: StatementsQuery,
  responses: { 200: { description: 'The statements of each period', schema: StatementsAnswer }, ...ERRORS },
  handle: ({ params, query }, services) =>
    periodsAnswer(services, params, query, (output, periods) =>
      statementPeriods(output, periods, query.statement),
    ),
};

const recurring: ModuleRoute<RecurringQuery> = {
  method: 'get',
  path: '/api/v1/recurring/:scenario',
  operation: 'getRecurringMetrics',
  summary: 'Recurring-revenue metrics of a scenario: the MRR roll-forward, ARR, ARPA, churn and retention',
  tags: ['recurring'],
  params: ScenarioParams,
  query: RecurringQuery,
  responses: { 200: { description: 'The metrics of each period', schema: RecurringAnswer }, ...ERRORS },
  handle: ({ params, query }, services) => periodsAnswer(services, params, query, recurringPeriods),
};

const variances: ModuleRoute<VariancesQuery> = {
  method: 'get',
  path: '/api/v1/variances',
  operation: 'listVariances',
  summary: 'Plan against actuals of the closed months, by line and month',
  tags: ['variances'],
  query: VariancesQuery,
  responses: { 200: { description: 'A page of variances', schema: VarianceCollection }, ...ERRORS },
  async handle({ query }, services) {
    const plan = await latestPlan(services, query.scenario ?? DEFAULT_SCENARIO);
    const rows = varianceRows(plan.scenario, plan.output).filter(
      (row) =>
        (query.line === undefined || row.line === query.line) &&
        (query.period === undefined || row.period === query.period) &&
        (query.assessment === undefined || row.assessment === query.assessment),
    );
    return { status: 200, body: page(rows, query) };
  },
};

const integrations: ModuleRoute<IntegrationsQuery> = {
  method: 'get',
  path: '/api/v1/integrations',
  operation: 'listIntegrations',
  summary: 'Status of the source systems a scenario\u2019s plan draws on, as of the plan\u2019s as-of time',
  tags: ['integrations'],
  query: IntegrationsQuery,
  responses: { 200: { description: 'A page of sources', schema: IntegrationCollection }, ...ERRORS },
  async handle({ query }, services) {
    const plan = await latestPlan(services, query.scenario ?? DEFAULT_SCENARIO);
    const rows = plan.output.integrations
      .filter((source) => query.state === undefined || source.state === query.state)
      .map(({ system, ...source }) => ({
        id: system,
        scenario: plan.scenario,
        as_of: plan.output.as_of,
        ...source,
      }));
    return { status: 200, body: page(rows, query) };
  },
};

export const fpaRoutes = [statements, recurring, variances, integrations] as ModuleRoute[];

import { z } from 'zod';
import { GRANULARITIES, MONTH_PATTERN } from '../../fpa/months';
import {
  BALANCE_LINES,
  CASHFLOW_LINES,
  INCOME_LINES,
  INTEGRATION_STATES,
  INTEGRATION_SYSTEMS,
  RECURRING_AMOUNTS,
  RECURRING_COUNTS,
  VARIANCE_LINE_NAMES,
} from '../../fpa/output';
import { STATEMENTS } from '../../fpa/presentation';
import { caseInsensitiveEnum, pageParameters } from '../kit/parameters';

/** Query parameters and answers of the planning routes, described from the same schemas. */

export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;

const paging = pageParameters({ defaultLimit: DEFAULT_LIMIT, maxLimit: MAX_LIMIT });

const month = (description: string) =>
  z
    .string()
    .regex(MONTH_PATTERN, 'Input should be a month in the format YYYY-MM')
    .meta({ description, example: '2026-07' });

const scenarioParameter = z
  .string()
  .min(1)
  .optional()
  .meta({ description: 'Scenario id (default base); an unknown scenario answers 404' });

const range = {
  from: month('First month, YYYY-MM (default: the plan\u2019s first month)').optional(),
  to: month('Last month, YYYY-MM (default: the plan\u2019s last month)').optional(),
  granularity: caseInsensitiveEnum(GRANULARITIES)
    .optional()
    .meta({ description: 'month (default), quarter or year: flows are summed, balances are period-end' }),
};

export const StatementsQuery = z.object({
  ...range,
  statement: caseInsensitiveEnum(STATEMENTS)
    .optional()
    .meta({ description: 'Only this statement (default: all three)' }),
  ...paging,
});
export const RecurringQuery = z.object({ ...range, ...paging });
export const VariancesQuery = z.object({
  scenario: scenarioParameter,
  line: caseInsensitiveEnum(VARIANCE_LINE_NAMES).optional().meta({ description: 'Only this line' }),
  period: month('Only this closed month, YYYY-MM').optional(),
  assessment: caseInsensitiveEnum(['favourable', 'unfavourable', 'on_plan'])
    .optional()
    .meta({ description: 'Only favourable, unfavourable or on_plan variances' }),
  ...paging,
});
export const IntegrationsQuery = z.object({
  scenario: scenarioParameter,
  state: caseInsensitiveEnum(INTEGRATION_STATES)
    .optional()
    .meta({ description: 'Only sources in this state' }),
  ...paging,
});

export type StatementsQuery = z.infer<typeof StatementsQuery>;
export type RecurringQuery = z.infer<typeof RecurringQuery>;
export type VariancesQuery = z.infer<typeof VariancesQuery>;
export type IntegrationsQuery = z.infer<typeof IntegrationsQuery>;

export const ScenarioParams = z.object({
  scenario: z.string().meta({ description: 'Scenario id', example: 'base' }),
});

const amount = z.number().meta({ description: 'Amount in the plan currency, two decimals' });
const pct = (description: string) =>
  z
    .number()
    .nullable()
    .meta({ description: `${description}; two decimals` });
const amounts = <const Keys extends readonly string[]>(keys: Keys) =>
  Object.fromEntries(keys.map((key) => [key, amount])) as Record<Keys[number], typeof amount>;

const Meta = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

const Period = {
  period: z.string().meta({ description: '2026-05, 2026-Q2 or 2026' }),
  start_month: z.string(),
  end_month: z.string(),
  months: z.number().int().meta({ description: 'Months of the period inside from..to' }),
};

export const IncomeStatement = z
  .object({ ...amounts(INCOME_LINES), gross_margin_pct: pct('gross_profit / total_revenue x 100') })
  .meta({ id: 'IncomeStatement' });
export const BalanceSheet = z
  .object({
    ...amounts(BALANCE_LINES),
    balanced: z
      .boolean()
      .meta({ description: 'total_assets equals total_liabilities_and_equity to the cent' }),
  })
  .meta({ id: 'BalanceSheet', description: 'At the end of the period' });
export const CashFlowStatement = z
  .object({
    ...amounts(CASHFLOW_LINES),
    runway_months: pct('closing_cash / average monthly net_burn of the period; null when not burning'),
  })
  .meta({ id: 'CashFlowStatement', description: 'Lines signed as their effect on cash' });

export const StatementsAnswer = z
  .object({
    scenario: z.string(),
    currency: z.string(),
    granularity: z.enum(GRANULARITIES),
    output_sha256: z.string().meta({ description: 'Hash of the generation these figures come from' }),
    data: z.array(
      z.object({
        ...Period,
        income: IncomeStatement.optional(),
        balance: BalanceSheet.optional(),
        cashflow: CashFlowStatement.optional(),
      }),
    ),
    meta: Meta,
  })
  .meta({ id: 'Statements' });

export const RecurringAnswer = z
  .object({
    scenario: z.string(),
    currency: z.string(),
    granularity: z.enum(GRANULARITIES),
    output_sha256: z.string(),
    data: z.array(
      z
        .object({
          ...Period,
          ...amounts(RECURRING_AMOUNTS),
          arr: amount.meta({ description: '12 x ending_mrr' }),
          ...(Object.fromEntries(RECURRING_COUNTS.map((key) => [key, z.number().int()])) as Record<
            (typeof RECURRING_COUNTS)[number],
            z.ZodNumber
          >),
          arpa: amount.nullable().meta({ description: 'ending_mrr / ending_customers' }),
          logo_churn_pct: pct('churned_customers / beginning_customers x 100'),
          grr_pct: pct('(beginning - contraction - churned) / beginning x 100'),
          nrr_pct: pct('(beginning + expansion - contraction - churned) / beginning x 100'),
        })
        .meta({ id: 'RecurringMetrics' }),
    ),
    meta: Meta,
  })
  .meta({ id: 'RecurringRevenue' });

export const Variance = z
  .object({
    id: z.string().meta({ description: 'scenario:period:line' }),
    scenario: z.string(),
    period: z.string().meta({ description: 'Closed month, YYYY-MM' }),
    line: z.enum(VARIANCE_LINE_NAMES),
    direction: z.enum(['higher_is_better', 'lower_is_better']),
    plan: amount,
    actual: amount,
    variance: amount.meta({ description: 'actual - plan' }),
    variance_pct: pct('variance / |plan| x 100; null when plan is 0'),
    assessment: z.enum(['favourable', 'unfavourable', 'on_plan']),
  })
  .meta({ id: 'Variance' });

export const Integration = z
  .object({
    id: z.enum(INTEGRATION_SYSTEMS),
    scenario: z.string(),
    name: z.string(),
    as_of: z.string().meta({ description: 'The plan\u2019s as-of time: the start of its first open month' }),
    last_sync_at: z.string().meta({ format: 'date-time' }),
    freshness_hours: z.number().int().meta({ description: 'Hours from last_sync_at to as_of' }),
    expected_interval_hours: z.number().int(),
    state: z.enum(INTEGRATION_STATES).meta({
      description:
        'failed (last sync errored), stale (over twice the interval), degraded (records rejected), ok',
    }),
    records: z.number().int().meta({ description: 'Records delivered for the closed months' }),
    rejected_records: z.number().int(),
    message: z.string(),
  })
  .meta({ id: 'Integration' });

const collection = (item: z.ZodType, id: string) =>
  z.object({ data: z.array(item), meta: Meta }).meta({ id });
export const VarianceCollection = collection(Variance, 'VarianceCollection');
export const IntegrationCollection = collection(Integration, 'IntegrationCollection');

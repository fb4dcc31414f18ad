import { decimal, mulDiv, percent, sum } from './money';
import { groupByPeriod, type Granularity } from './months';
import {
  BALANCE_LINES,
  CASHFLOW_LINES,
  INCOME_LINES,
  RECURRING_AMOUNTS,
  RECURRING_COUNTS,
  VARIANCE_LINES,
  VARIANCE_LINE_NAMES,
  type BalanceRow,
  type CashflowRow,
  type IncomeRow,
  type PlanOutput,
  type RecurringRow,
} from './output';

/**
 * Turns a plan's monthly integer rows into the periods the API answers: flows are summed over the
 * period, balances take the period-end value, ratios are recomputed from the period's integers, and
 * cents become decimal numbers with two places only here.
 */

const first = <T>(rows: readonly T[]) => rows[0] as T;
const last = <T>(rows: readonly T[]) => rows[rows.length - 1] as T;

type Lines<Keys extends readonly string[]> = Record<Keys[number], number>;

const total = <Row extends Record<string, unknown>>(rows: readonly Row[], key: keyof Row & string) =>
  sum(rows.map((row) => row[key] as number));

function decimals<Keys extends readonly string[]>(
  keys: Keys,
  value: (key: Keys[number]) => number,
): Lines<Keys> {
  return Object.fromEntries(keys.map((key: Keys[number]) => [key, decimal(value(key))])) as Lines<Keys>;
}

export function incomeOf(rows: readonly IncomeRow[]) {
  const lines = decimals(INCOME_LINES, (key) => total(rows, key));
  return {
    ...lines,
    gross_margin_pct: percent(total(rows, 'gross_profit'), total(rows, 'total_revenue')),
  };
}

export function balanceOf(rows: readonly BalanceRow[]) {
  const end = last(rows);
  return {
    ...decimals(BALANCE_LINES, (key) => end[key]),
    balanced: end.total_assets === end.total_liabilities_and_equity,
  };
}

/** Runway: closing cash over the period's average monthly net burn, to 0.1 month; null when not burning. */
function runwayMonths(closingCash: number, burn: number, months: number): number | null {
  if (burn === 0) return null;
  return closingCash <= 0 ? 0 : mulDiv(closingCash * months, 10, burn) / 10;
}

export function cashflowOf(rows: readonly CashflowRow[]) {
  const lines = decimals(CASHFLOW_LINES, (key) => total(rows, key));
  const closing = last(rows).closing_cash;
  return {
    ...lines,
    opening_cash: decimal(first(rows).opening_cash),
    closing_cash: decimal(closing),
    runway_months: runwayMonths(closing, total(rows, 'net_burn'), rows.length),
  };
}

export function recurringOf(rows: readonly RecurringRow[]) {
  const beginning = first(rows).beginning_mrr;
  const end = last(rows);
  const flows = (key: (typeof RECURRING_AMOUNTS | typeof RECURRING_COUNTS)[number]) => total(rows, key);
  const churned = flows('churned_mrr');
  const contraction = flows('contraction_mrr');
  return {
    ...decimals(RECURRING_AMOUNTS, flows),
    beginning_mrr: decimal(beginning),
    ending_mrr: decimal(end.ending_mrr),
    arr: decimal(end.ending_mrr * 12),
    beginning_customers: first(rows).beginning_customers,
    new_customers: flows('new_customers'),
    reactivated_customers: flows('reactivated_customers'),
    churned_customers: flows('churned_customers'),
    ending_customers: end.ending_customers,
    arpa: end.ending_customers === 0 ? null : decimal(mulDiv(end.ending_mrr, 1, end.ending_customers)),
    logo_churn_pct: percent(flows('churned_customers'), first(rows).beginning_customers),
    grr_pct: percent(beginning - contraction - churned, beginning),
    nrr_pct: percent(beginning + flows('expansion_mrr') - contraction - churned, beginning),
  };
}

export interface PeriodQuery {
  from: string;
  to: string;
  granularity: Granularity;
}

/** The months of `[from, to]` grouped into periods, each with its label and month range. */
export function periodsOf<Row extends { month: string }>(rows: readonly Row[], query: PeriodQuery) {
  const inRange = rows.filter((row) => row.month >= query.from && row.month <= query.to);
  return groupByPeriod(inRange, query.granularity).map((group) => ({
    period: group.period,
    start_month: first(group.rows).month,
    end_month: last(group.rows).month,
    months: group.rows.length,
    rows: group.rows,
  }));
}

export const STATEMENTS = ['income', 'balance', 'cashflow'] as const;
export type StatementName = (typeof STATEMENTS)[number];

export function statementPeriods(output: PlanOutput, query: PeriodQuery, only?: StatementName) {
  const byMonth = (rows: readonly { month: string }[]) => new Map(rows.map((row) => [row.month, row]));
  const balance = byMonth(output.balance) as Map<string, BalanceRow>;
  const cashflow = byMonth(output.cashflow) as Map<string, CashflowRow>;
  const wants = (name: StatementName) => only === undefined || only === name;
  return periodsOf(output.income, query).map(({ rows, ...period }) => {
    const months = rows.map((row) => row.month);
    return {
      ...period,
      ...(wants('income') && { income: incomeOf(rows) }),
      ...(wants('balance') && {
        balance: balanceOf(months.map((month) => balance.get(month) as BalanceRow)),
      }),
      ...(wants('cashflow') && {
        cashflow: cashflowOf(months.map((month) => cashflow.get(month) as CashflowRow)),
      }),
    };
  });
}

export function recurringPeriods(output: PlanOutput, query: PeriodQuery) {
  return periodsOf(output.recurring, query).map(({ rows, ...period }) => ({
    ...period,
    ...recurringOf(rows),
  }));
}

/** Plan against synthetic actuals for every closed month and variance line, in month then line order. */
export function varianceRows(scenario: string, output: PlanOutput) {
  const plans = new Map(output.income.map((row) => [row.month, row]));
  return output.actuals.flatMap((actual) =>
    VARIANCE_LINE_NAMES.map((line) => {
      const plan = (plans.get(actual.month) as IncomeRow)[line];
      const variance = actual[line] - plan;
      const direction = VARIANCE_LINES[line];
      const better = direction === 'higher_is_better' ? variance > 0 : variance < 0;
      return {
        id: `${scenario}:${actual.month}:${line}`,
        scenario,
        period: actual.month,
        line,
        direction,
        plan: decimal(plan),
        actual: decimal(actual[line]),
        variance: decimal(variance),
        variance_pct: percent(variance, Math.abs(plan)),
        assessment: variance === 0 ? 'on_plan' : better ? 'favourable' : 'unfavourable',
      };
    }),
  );
}

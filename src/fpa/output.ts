import { z } from 'zod';

/**
 * What a plan generation produces: integer cents and counts only, one row per month. Ratios (margins,
 * retention, ARPA, runway) are derived from these integers when they are presented, for any period.
 */

export const INCOME_LINES = [
  'subscription_revenue',
  'services_revenue',
  'total_revenue',
  'cost_of_revenue',
  'gross_profit',
  'sales_and_marketing',
  'research_and_development',
  'general_and_administrative',
  'total_operating_expenses',
  'ebitda',
  'depreciation_and_amortization',
  'operating_income',
  'interest_expense',
  'pre_tax_income',
  'income_tax',
  'net_income',
] as const;

export const BALANCE_LINES = [
  'cash',
  'accounts_receivable',
  'prepaid_expenses',
  'fixed_assets_net',
  'total_assets',
  'accounts_payable',
  'accrued_expenses',
  'deferred_revenue',
  'debt',
  'total_liabilities',
  'paid_in_capital',
  'retained_earnings',
  'total_equity',
  'total_liabilities_and_equity',
] as const;

/** Signed as their effect on cash: a growing receivable is negative, capital expenditure too. */
export const CASHFLOW_LINES = [
  'net_income',
  'depreciation_and_amortization',
  'change_in_receivables',
  'change_in_prepaid_expenses',
  'change_in_payables',
  'change_in_accrued_expenses',
  'change_in_deferred_revenue',
  'operating_cash_flow',
  'capital_expenditure',
  'investing_cash_flow',
  'equity_raised',
  'debt_drawn',
  'debt_repaid',
  'financing_cash_flow',
  'net_change_in_cash',
  'opening_cash',
  'closing_cash',
  'net_burn',
] as const;

export const RECURRING_AMOUNTS = [
  'beginning_mrr',
  'new_mrr',
  'expansion_mrr',
  'contraction_mrr',
  'churned_mrr',
  'reactivation_mrr',
  'ending_mrr',
] as const;

export const RECURRING_COUNTS = [
  'beginning_customers',
  'new_customers',
  'reactivated_customers',
  'churned_customers',
  'ending_customers',
] as const;

/** The lines that have synthetic actuals in closed months, and which way is good for each. */
export const VARIANCE_LINES = {
  subscription_revenue: 'higher_is_better',
  services_revenue: 'higher_is_better',
  total_revenue: 'higher_is_better',
  cost_of_revenue: 'lower_is_better',
  gross_profit: 'higher_is_better',
  sales_and_marketing: 'lower_is_better',
  research_and_development: 'lower_is_better',
  general_and_administrative: 'lower_is_better',
  total_operating_expenses: 'lower_is_better',
  ebitda: 'higher_is_better',
} as const;
export type VarianceLine = keyof typeof VARIANCE_LINES;
export const VARIANCE_LINE_NAMES = Object.keys(VARIANCE_LINES) as [VarianceLine, ...VarianceLine[]];

export const INTEGRATION_SYSTEMS = ['erp', 'billing', 'crm', 'hris', 'payroll', 'bank'] as const;
export const INTEGRATION_STATES = ['ok', 'degraded', 'failed', 'stale'] as const;

const cents = z.number().int();
const monthly = <const Keys extends readonly string[]>(keys: Keys, value: z.ZodNumber) =>
  z.object({
    month: z.string(),
    ...(Object.fromEntries(keys.map((key) => [key, value])) as Record<Keys[number], z.ZodNumber>),
  });

export const IncomeRow = monthly(INCOME_LINES, cents);
export const BalanceRow = monthly(BALANCE_LINES, cents);
export const CashflowRow = monthly(CASHFLOW_LINES, cents);
export const RecurringRow = monthly([...RECURRING_AMOUNTS, ...RECURRING_COUNTS], cents);
export const HeadcountRow = z.object({
  month: z.string(),
  cost_of_revenue: cents,
  sales_and_marketing: cents,
  research_and_development: cents,
  general_and_administrative: cents,
  total: cents,
});
export const ActualsRow = monthly(VARIANCE_LINE_NAMES, cents);

export const IntegrationRow = z.object({
  system: z.enum(INTEGRATION_SYSTEMS),
  name: z.string(),
  expected_interval_hours: z.number().int(),
  last_sync_at: z.string(),
  freshness_hours: z.number().int(),
  state: z.enum(INTEGRATION_STATES),
  records: z.number().int(),
  rejected_records: z.number().int(),
  message: z.string(),
});

export const PlanOutput = z
  .object({
    currency: z.string(),
    months: z.array(z.string()),
    /** Start of the first open month: actuals and source syncs are as of then. */
    as_of: z.string(),
    closed_months: z.number().int(),
    income: z.array(IncomeRow),
    balance: z.array(BalanceRow),
    cashflow: z.array(CashflowRow),
    recurring: z.array(RecurringRow),
    headcount: z.array(HeadcountRow),
    actuals: z.array(ActualsRow),
    integrations: z.array(IntegrationRow),
  })
  .meta({
    id: 'PlanOutput',
    description: 'Integer cents and counts, one row per month (as recorded in PlanGenerated)',
  });

export type PlanOutput = z.infer<typeof PlanOutput>;
export type IncomeRow = z.infer<typeof IncomeRow>;
export type BalanceRow = z.infer<typeof BalanceRow>;
export type CashflowRow = z.infer<typeof CashflowRow>;
export type RecurringRow = z.infer<typeof RecurringRow>;
export type HeadcountRow = z.infer<typeof HeadcountRow>;
export type ActualsRow = z.infer<typeof ActualsRow>;
export type IntegrationRow = z.infer<typeof IntegrationRow>;

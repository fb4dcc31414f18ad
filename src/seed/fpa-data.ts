import type { ScenarioDefinition } from '../commands/fpa/scenarios';
import type { Drivers } from '../fpa/drivers';

/**
 * The planning scenarios of the demo: a European B2B SaaS company planning 2026-2027 in November 2026
 * (January to October closed). All scenarios start from the same balance sheet; they differ in growth,
 * pricing, churn, hiring and funding.
 */

const hires = (...entries: [month: string, count: number][]) =>
  entries.map(([month, count]) => ({ month, count }));

const BASE: Drivers = {
  currency: 'EUR',
  start_month: '2026-01',
  horizon_months: 24,
  closed_months: 10,
  actuals_deviation_pct: 6,
  customers: {
    starting_customers: 420,
    starting_mrr: 504_000,
    former_customers: 180,
    new_customers_first_month: 24,
    new_customers_monthly_increase: 1,
    new_customers_noise: 4,
    new_customer_arpa: 1_150,
    expansion_pct: 1.8,
    contraction_pct: 0.5,
    churn_pct: 1.4,
    reactivation_pct: 1.5,
    rate_noise_pct: 0.3,
  },
  price_increase: { month: '2027-01', pct: 5 },
  services: { onboarding_fee: 3_000, recurring_pct: 3 },
  cost_of_revenue: { subscription_pct: 14, services_pct: 60 },
  operating_expenses: { marketing_pct: 9, rd_tools_monthly: 38_000, ga_fixed_monthly: 72_000 },
  hiring: [
    {
      department: 'cost_of_revenue',
      starting_headcount: 14,
      monthly_loaded_cost: 6_800,
      hires: hires(['2026-04', 1], ['2026-09', 2], ['2027-03', 2], ['2027-09', 1]),
    },
    {
      department: 'sales_and_marketing',
      starting_headcount: 22,
      monthly_loaded_cost: 8_900,
      hires: hires(['2026-02', 2], ['2026-05', 2], ['2026-09', 2], ['2027-01', 3], ['2027-06', 2]),
    },
    {
      department: 'research_and_development',
      starting_headcount: 30,
      monthly_loaded_cost: 9_800,
      hires: hires(['2026-03', 2], ['2026-06', 2], ['2026-10', 3], ['2027-02', 3], ['2027-08', 2]),
    },
    {
      department: 'general_and_administrative',
      starting_headcount: 10,
      monthly_loaded_cost: 8_200,
      hires: hires(['2026-07', 1], ['2027-04', 1]),
    },
  ],
  payment_terms: {
    dso_days: 45,
    dpo_days: 30,
    billed_in_advance_months: 1.5,
    prepaid_months: 0.5,
    accrued_payroll_pct: 50,
  },
  capex: { monthly: 18_000, useful_life_months: 36 },
  tax_rate_pct: 25,
  interest_rate_pct: 8,
  opening_balance: {
    cash: 9_200_000,
    accounts_receivable: 760_000,
    prepaid_expenses: 90_000,
    fixed_assets_net: 420_000,
    accounts_payable: 150_000,
    accrued_expenses: 380_000,
    deferred_revenue: 756_000,
    debt: 0,
    paid_in_capital: 24_000_000,
    retained_earnings: -14_816_000,
  },
  funding: [],
};

const UPSIDE: Drivers = {
  ...BASE,
  customers: {
    ...BASE.customers,
    new_customers_first_month: 30,
    new_customers_monthly_increase: 2,
    new_customer_arpa: 1_250,
    expansion_pct: 2.4,
    churn_pct: 1,
    reactivation_pct: 2,
  },
  price_increase: { month: '2026-10', pct: 7 },
  hiring: BASE.hiring.map((plan) => ({
    ...plan,
    hires: [...plan.hires, ...hires(['2026-11', 2], ['2027-05', 2])],
  })),
  funding: [{ month: '2026-09', type: 'equity', amount: 20_000_000 }],
};

const DOWNSIDE: Drivers = {
  ...BASE,
  customers: {
    ...BASE.customers,
    new_customers_first_month: 16,
    new_customers_monthly_increase: 0,
    new_customer_arpa: 1_050,
    expansion_pct: 1.2,
    contraction_pct: 0.9,
    churn_pct: 2,
    reactivation_pct: 1,
  },
  price_increase: null,
  payment_terms: { ...BASE.payment_terms, dso_days: 60 },
  interest_rate_pct: 11,
  funding: [
    { month: '2026-12', type: 'debt_draw', amount: 4_000_000 },
    { month: '2027-10', type: 'debt_repayment', amount: 500_000 },
  ],
};

/** Downside demand answered with a hiring freeze, leavers not replaced and less programme spend. */
const EFFICIENCY: Drivers = {
  ...DOWNSIDE,
  operating_expenses: { marketing_pct: 6, rd_tools_monthly: 30_000, ga_fixed_monthly: 60_000 },
  hiring: BASE.hiring.map((plan) => ({
    ...plan,
    hires: [
      ...plan.hires.filter((hire) => hire.month < '2026-11'),
      ...hires(['2026-12', -2], ['2027-03', -1]),
    ],
  })),
  capex: { monthly: 8_000, useful_life_months: 36 },
  funding: [],
};

export const SCENARIOS: readonly ScenarioDefinition[] = [
  {
    id: 'base',
    name: 'Base case',
    description: 'Current growth, 5% price increase in January 2027, hiring as budgeted, no new funding.',
    seed: 'fpa-base-2026',
    drivers: BASE,
  },
  {
    id: 'upside',
    name: 'Upside',
    description:
      'Faster acquisition, lower churn, 7% price increase in October 2026, EUR 20m Series B in September 2026.',
    seed: 'fpa-upside-2026',
    drivers: UPSIDE,
  },
  {
    id: 'downside',
    name: 'Downside',
    description:
      'Slower acquisition, higher churn, no price increase, slower collections, EUR 4m venture debt.',
    seed: 'fpa-downside-2026',
    drivers: DOWNSIDE,
  },
  {
    id: 'efficiency',
    name: 'Downside with cost plan',
    description:
      'Downside demand with a hiring freeze from November 2026, fewer heads and lower programme spend.',
    seed: 'fpa-efficiency-2026',
    drivers: EFFICIENCY,
  },
];

import { z } from 'zod';
import { MONTH_PATTERN } from './months';

/**
 * What a scenario is made of. Money is in the plan's currency as a decimal with at most two places
 * (converted once to integer cents by the generator); rates are percentages with at most two places.
 */

const twoPlaces = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

const money = (description: string) =>
  z
    .number()
    .min(0)
    .max(1e11)
    .refine(twoPlaces, 'Input should have at most two decimal places')
    .meta({ description });
const percent = (description: string, max = 100) =>
  z.number().min(0).max(max).refine(twoPlaces, 'Input should have at most two decimal places').meta({
    description,
  });
const count = (description: string, max = 1_000_000) =>
  z.number().int().min(0).max(max).meta({ description });
const month = z
  .string()
  .regex(MONTH_PATTERN, 'Input should be a month YYYY-MM')
  .meta({ description: 'YYYY-MM' });

export const DEPARTMENTS = [
  'cost_of_revenue',
  'sales_and_marketing',
  'research_and_development',
  'general_and_administrative',
] as const;
export type Department = (typeof DEPARTMENTS)[number];

export const FUNDING_TYPES = ['equity', 'debt_draw', 'debt_repayment'] as const;

const OpeningBalance = z.object({
  cash: money('Cash'),
  accounts_receivable: money('Receivables'),
  prepaid_expenses: money('Prepaid expenses'),
  fixed_assets_net: money('Fixed assets net of depreciation'),
  accounts_payable: money('Payables'),
  accrued_expenses: money('Accrued expenses'),
  deferred_revenue: money('Deferred revenue'),
  debt: money('Debt'),
  paid_in_capital: money('Paid-in capital'),
  retained_earnings: z
    .number()
    .min(-1e11)
    .max(1e11)
    .refine(twoPlaces, 'Input should have at most two decimal places')
    .meta({ description: 'Retained earnings (negative: deficit)' }),
});

export const Drivers = z
  .object({
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .meta({ description: 'ISO 4217 code' }),
    start_month: month.meta({ description: 'First month of the plan, YYYY-MM' }),
    horizon_months: z.number().int().min(1).max(60),
    closed_months: count('Months from the start that are closed: they carry actuals', 60),
    actuals_deviation_pct: percent(
      'Largest deviation of a synthetic actual from plan, per line and month',
      50,
    ),
    customers: z.object({
      starting_customers: count('Paying customers at the start'),
      starting_mrr: money('MRR at the start'),
      former_customers: count('Churned customers before the start, who may come back'),
      new_customers_first_month: count('New customers in the first month'),
      new_customers_monthly_increase: z.number().int().min(-1000).max(1000).meta({
        description: 'Change of the monthly new customers from one month to the next',
      }),
      new_customers_noise: count('Seeded noise on new customers, +/- this many', 1000),
      new_customer_arpa: money('MRR of a new customer'),
      expansion_pct: percent('Monthly expansion, % of the retained MRR'),
      contraction_pct: percent('Monthly contraction, % of the retained MRR'),
      churn_pct: percent('Monthly logo churn, % of the customers at the start of the month'),
      reactivation_pct: percent('Monthly share of former customers who come back'),
      rate_noise_pct: percent('Seeded noise on expansion and churn, +/- percentage points', 10),
    }),
    price_increase: z
      .object({ month, pct: percent('List-price increase on every subscription', 100) })
      .nullable()
      .meta({ description: 'A price increase applied to the base (as expansion) and to new customers' }),
    services: z.object({
      onboarding_fee: money('Services billed once per new customer'),
      recurring_pct: percent('Recurring services, % of subscription revenue'),
    }),
    cost_of_revenue: z.object({
      subscription_pct: percent('Hosting and third-party costs, % of subscription revenue'),
      services_pct: percent('Delivery costs, % of services revenue'),
    }),
    operating_expenses: z.object({
      marketing_pct: percent('Programme marketing, % of total revenue'),
      rd_tools_monthly: money('Software and tooling of R&D, per month'),
      ga_fixed_monthly: money('Rent, insurance, professional fees, per month'),
    }),
    hiring: z
      .array(
        z.object({
          department: z.enum(DEPARTMENTS),
          starting_headcount: count('Headcount at the start'),
          monthly_loaded_cost: money('Salary, taxes and benefits per head and month'),
          hires: z.array(z.object({ month, count: z.number().int().min(-1000).max(1000) })),
        }),
      )
      .meta({ description: 'Headcount by department, hires (or departures, negative) by month' }),
    payment_terms: z.object({
      dso_days: count('Days sales outstanding', 365),
      dpo_days: count('Days payables outstanding', 365),
      billed_in_advance_months: percent(
        'Subscription billed ahead, in months of revenue (deferred revenue)',
        12,
      ),
      prepaid_months: percent('Non-payroll costs paid ahead, in months', 12),
      accrued_payroll_pct: percent('Share of the month\u2019s payroll unpaid at month end'),
    }),
    capex: z.object({
      monthly: money('Capital expenditure per month'),
      useful_life_months: z.number().int().min(1).max(240).meta({ description: 'Straight-line life' }),
    }),
    tax_rate_pct: percent('Income tax on profit after loss carry-forward'),
    interest_rate_pct: percent('Annual interest on debt outstanding at the start of a month'),
    opening_balance: OpeningBalance,
    funding: z.array(z.object({ month, type: z.enum(FUNDING_TYPES), amount: money('Amount') })),
  })
  .meta({ id: 'PlanDrivers' });

export type Drivers = z.infer<typeof Drivers>;

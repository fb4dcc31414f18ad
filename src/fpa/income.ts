import { DEPARTMENTS, type Department, type Drivers } from './drivers';
import { payrollOf } from './headcount';
import { applyBp, hundredths, mulDiv, sum } from './money';
import type { IncomeRow, RecurringRow } from './output';

/** A fixed asset bought in one month and depreciated straight-line from the next. */
interface Vintage {
  amount: number;
  from: number;
  life: number;
}

/** Straight-line in whole cents: the first `amount mod life` months carry one cent more. */
function depreciation(vintages: readonly Vintage[], index: number): number {
  let total = 0;
  for (const { amount, from, life } of vintages) {
    const age = index - from;
    if (age < 0 || age >= life) continue;
    total += Math.floor(amount / life) + (age < amount % life ? 1 : 0);
  }
  return total;
}

export type FundingType = Drivers['funding'][number]['type'];

/** Funding of one type in one month, in cents. */
export const fundingIn = (drivers: Drivers, month: string, type: FundingType): number =>
  sum(
    drivers.funding
      .filter((item) => item.month === month && item.type === type)
      .map((item) => hundredths(item.amount)),
  );

/** Debt outstanding at the start of a month: the opening debt and every draw and repayment before it. */
function debtBefore(drivers: Drivers, month: string): number {
  const moves = drivers.funding
    .filter((item) => item.month < month && item.type !== 'equity')
    .map((item) => (item.type === 'debt_draw' ? 1 : -1) * hundredths(item.amount));
  return hundredths(drivers.opening_balance.debt) + sum(moves);
}

/** A month's income statement, and the costs working capital is derived from. */
export interface MonthResult {
  income: IncomeRow;
  /** Costs paid to suppliers: hosting, delivery, marketing, tools, fixed G&A. */
  supplierCosts: number;
  payroll: number;
  capex: number;
}

/**
 * Income statements month by month. Revenue is the month's ending MRR plus services; costs follow the
 * drivers; D&A is straight-line over the useful life; interest accrues on the debt at the start of the
 * month; tax applies to profit after losses carried forward (a deficit at the start counts as one).
 */
export function projectIncome(drivers: Drivers, recurring: readonly RecurringRow[]): MonthResult[] {
  const opex = drivers.operating_expenses;
  const life = drivers.capex.useful_life_months;
  const capex = hundredths(drivers.capex.monthly);
  const vintages: Vintage[] = [
    { amount: hundredths(drivers.opening_balance.fixed_assets_net), from: 0, life },
  ];
  let lossCarryForward = Math.max(0, -hundredths(drivers.opening_balance.retained_earnings));

  return recurring.map(({ month, ending_mrr: subscription, new_customers: newCustomers }, index) => {
    const payroll = (department: Department) => payrollOf(drivers, month, department);
    const services =
      newCustomers * hundredths(drivers.services.onboarding_fee) +
      applyBp(subscription, hundredths(drivers.services.recurring_pct));
    const revenue = subscription + services;
    const hostingAndDelivery =
      applyBp(subscription, hundredths(drivers.cost_of_revenue.subscription_pct)) +
      applyBp(services, hundredths(drivers.cost_of_revenue.services_pct));
    const marketing = applyBp(revenue, hundredths(opex.marketing_pct));
    const tools = hundredths(opex.rd_tools_monthly);
    const fixed = hundredths(opex.ga_fixed_monthly);
    const cogs = hostingAndDelivery + payroll('cost_of_revenue');
    const salesAndMarketing = payroll('sales_and_marketing') + marketing;
    const researchAndDevelopment = payroll('research_and_development') + tools;
    const generalAndAdministrative = payroll('general_and_administrative') + fixed;
    const operatingExpenses = salesAndMarketing + researchAndDevelopment + generalAndAdministrative;
    const ebitda = revenue - cogs - operatingExpenses;
    const amortisation = depreciation(vintages, index);
    vintages.push({ amount: capex, from: index + 1, life });
    const interest = mulDiv(debtBefore(drivers, month), hundredths(drivers.interest_rate_pct), 12 * 10_000);
    const preTax = ebitda - amortisation - interest;
    const relief = Math.min(lossCarryForward, Math.max(0, preTax));
    lossCarryForward += preTax < 0 ? -preTax : -relief;
    const tax = applyBp(Math.max(0, preTax - relief), hundredths(drivers.tax_rate_pct));
    return {
      income: {
        month,
        subscription_revenue: subscription,
        services_revenue: services,
        total_revenue: revenue,
        cost_of_revenue: cogs,
        gross_profit: revenue - cogs,
        sales_and_marketing: salesAndMarketing,
        research_and_development: researchAndDevelopment,
        general_and_administrative: generalAndAdministrative,
        total_operating_expenses: operatingExpenses,
        ebitda,
        depreciation_and_amortization: amortisation,
        operating_income: ebitda - amortisation,
        interest_expense: interest,
        pre_tax_income: preTax,
        income_tax: tax,
        net_income: preTax - tax,
      },
      supplierCosts: hostingAndDelivery + marketing + tools + fixed,
      payroll: sum(DEPARTMENTS.map(payroll)),
      capex,
    };
  });
}

import type { SeededRandom } from '../seed/random';
import { applyBp, hundredths } from './money';
import { VARIANCE_LINES, type ActualsRow, type IncomeRow, type VarianceLine } from './output';

/**
 * Synthetic actuals of the closed months: each base line deviates from plan by a seeded amount of at
 * most `deviationPct`; totals and profits are then summed from those actuals, as a ledger would.
 */
export function synthesiseActuals(
  income: readonly IncomeRow[],
  closedMonths: number,
  deviationPct: number,
  random: SeededRandom,
): ActualsRow[] {
  const deviationBp = hundredths(deviationPct);
  return income.slice(0, closedMonths).map((plan) => {
    const actual = (line: keyof IncomeRow & VarianceLine) =>
      applyBp(plan[line], 10_000 + random.int(-deviationBp, deviationBp));
    const subscription = actual('subscription_revenue');
    const services = actual('services_revenue');
    const cogs = actual('cost_of_revenue');
    const salesAndMarketing = actual('sales_and_marketing');
    const researchAndDevelopment = actual('research_and_development');
    const generalAndAdministrative = actual('general_and_administrative');
    const revenue = subscription + services;
    const opex = salesAndMarketing + researchAndDevelopment + generalAndAdministrative;
    return {
      month: plan.month,
      subscription_revenue: subscription,
      services_revenue: services,
      total_revenue: revenue,
      cost_of_revenue: cogs,
      gross_profit: revenue - cogs,
      sales_and_marketing: salesAndMarketing,
      research_and_development: researchAndDevelopment,
      general_and_administrative: generalAndAdministrative,
      total_operating_expenses: opex,
      ebitda: revenue - cogs - opex,
    } satisfies Record<keyof typeof VARIANCE_LINES | 'month', unknown>;
  });
}

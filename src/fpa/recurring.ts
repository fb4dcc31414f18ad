import type { SeededRandom } from '../seed/random';
import type { Drivers } from './drivers';
import { applyBp, hundredths, mulDiv } from './money';
import type { RecurringRow } from './output';

/**
 * The MRR roll-forward (ChartMogul's movements). Movements take effect on the first day of a month:
 * churn takes whole customers at the month's starting ARPA; expansion and contraction apply to the
 * MRR of the customers who stayed; a price increase lifts that MRR in its month (as expansion) and
 * every later new customer's. Seeded noise varies new customers, expansion and churn.
 * Ending = beginning + new + expansion + reactivation - contraction - churned, exactly, every month.
 */
export function projectRecurring(
  drivers: Drivers,
  months: readonly string[],
  random: SeededRandom,
): RecurringRow[] {
  const c = drivers.customers;
  const noiseBp = hundredths(c.rate_noise_pct);
  const noisy = (bp: number) => Math.max(0, bp + random.int(-noiseBp, noiseBp));
  let mrr = hundredths(c.starting_mrr);
  let customers = c.starting_customers;
  let former = c.former_customers;
  let newArpa = hundredths(c.new_customer_arpa);

  return months.map((month, index) => {
    const priceBp = drivers.price_increase?.month === month ? hundredths(drivers.price_increase.pct) : 0;
    newArpa = applyBp(newArpa, 10_000 + priceBp);
    const plannedNew = c.new_customers_first_month + index * c.new_customers_monthly_increase;
    const newCustomers = Math.max(0, plannedNew + random.int(-c.new_customers_noise, c.new_customers_noise));
    const expansionBp = noisy(hundredths(c.expansion_pct));
    const churnBp = noisy(hundredths(c.churn_pct));

    const churnedCustomers = Math.min(customers, applyBp(customers, churnBp));
    const churnedMrr = customers === 0 ? 0 : mulDiv(mrr, churnedCustomers, customers);
    const retained = mrr - churnedMrr;
    const expansionMrr = applyBp(retained, expansionBp) + applyBp(retained, priceBp);
    const contractionMrr = applyBp(retained, hundredths(c.contraction_pct));
    const reactivated = applyBp(former, hundredths(c.reactivation_pct));
    const reactivationMrr = reactivated * newArpa;
    const newMrr = newCustomers * newArpa;

    const row: RecurringRow = {
      month,
      beginning_mrr: mrr,
      new_mrr: newMrr,
      expansion_mrr: expansionMrr,
      contraction_mrr: contractionMrr,
      churned_mrr: churnedMrr,
      reactivation_mrr: reactivationMrr,
      ending_mrr: mrr + newMrr + expansionMrr + reactivationMrr - contractionMrr - churnedMrr,
      beginning_customers: customers,
      new_customers: newCustomers,
      reactivated_customers: reactivated,
      churned_customers: churnedCustomers,
      ending_customers: customers + newCustomers + reactivated - churnedCustomers,
    };
    mrr = row.ending_mrr;
    customers = row.ending_customers;
    former += churnedCustomers - reactivated;
    return row;
  });
}

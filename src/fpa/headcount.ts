import { DEPARTMENTS, type Department, type Drivers } from './drivers';
import { hundredths, sum } from './money';
import type { HeadcountRow } from './output';

type HiringPlan = Drivers['hiring'][number];

/** Heads of one hiring plan in a month: the starting headcount and every hire (or leaver) so far. */
const headsOf = (plan: HiringPlan, month: string): number =>
  Math.max(
    0,
    plan.starting_headcount + sum(plan.hires.filter((hire) => hire.month <= month).map((hire) => hire.count)),
  );

const plansOf = (drivers: Drivers, department: Department) =>
  drivers.hiring.filter((plan) => plan.department === department);

export function headcountPlan(drivers: Drivers, months: readonly string[]): HeadcountRow[] {
  return months.map((month) => {
    const heads = (department: Department) =>
      sum(plansOf(drivers, department).map((plan) => headsOf(plan, month)));
    const row = Object.fromEntries(DEPARTMENTS.map((department) => [department, heads(department)]));
    return { month, ...row, total: sum(Object.values(row)) } as HeadcountRow;
  });
}

/** Loaded payroll cost of a department in a month, in cents. */
export function payrollOf(drivers: Drivers, month: string, department: Department): number {
  return sum(
    plansOf(drivers, department).map((plan) => headsOf(plan, month) * hundredths(plan.monthly_loaded_cost)),
  );
}

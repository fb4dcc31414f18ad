import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { seededRandom } from '../seed/random';
import { synthesiseActuals } from './actuals';
import type { Drivers } from './drivers';
import { sourceStatus } from './integrations';
import { hundredths, sum } from './money';
import { addMonths, monthRange } from './months';
import type { PlanOutput } from './output';
import { projectRecurring } from './recurring';
import { headcountPlan } from './headcount';
import { projectStatements } from './statements';

/** Changes whenever the same drivers and seed would give a different output. */
export const GENERATOR_VERSION = 'fpa-plan/1';

/** What a generation is computed from, and recorded with. */
export interface PlanInputs {
  drivers: Drivers;
  seed: string;
}

/**
 * The plan of one scenario: a pure function of its drivers and seed. Each part draws from its own
 * seeded sequence, so adding noise to one part never shifts another's.
 */
export function generatePlan({ drivers, seed }: PlanInputs): PlanOutput {
  const months = monthRange(drivers.start_month, drivers.horizon_months);
  const closedMonths = Math.min(drivers.closed_months, months.length);
  const recurring = projectRecurring(drivers, months, seededRandom(`${seed}:recurring`));
  const statements = projectStatements(drivers, recurring);
  const headcount = headcountPlan(drivers, months);
  const asOf = `${addMonths(drivers.start_month, closedMonths)}-01T00:00:00Z`;
  const closed = { recurring: recurring.slice(0, closedMonths), headcount: headcount.slice(0, closedMonths) };
  return {
    currency: drivers.currency,
    months,
    as_of: asOf,
    closed_months: closedMonths,
    ...statements,
    recurring,
    headcount,
    actuals: synthesiseActuals(
      statements.income,
      closedMonths,
      drivers.actuals_deviation_pct,
      seededRandom(`${seed}:actuals`),
    ),
    integrations: sourceStatus(asOf, closed, seededRandom(`${seed}:integrations`)),
  };
}

/** SHA-256 (hex) of the output's canonical JSON (RFC 8785): what an auditor recomputes and compares. */
export function outputSha256(output: PlanOutput): string {
  return createHash('sha256')
    .update(canonicalize(output) as string)
    .digest('hex');
}

/** Why drivers cannot make a plan (empty when they can): rules the schema alone cannot state. */
export function driverProblems(drivers: Drivers): string[] {
  const problems: string[] = [];
  if (drivers.closed_months > drivers.horizon_months) {
    problems.push('closed_months: must not exceed horizon_months');
  }
  const open = drivers.opening_balance;
  const assets = [open.cash, open.accounts_receivable, open.prepaid_expenses, open.fixed_assets_net];
  const claims = [
    open.accounts_payable,
    open.accrued_expenses,
    open.deferred_revenue,
    open.debt,
    open.paid_in_capital,
    open.retained_earnings,
  ];
  const difference = sum(assets.map(hundredths)) - sum(claims.map(hundredths));
  if (difference !== 0) {
    problems.push(`opening_balance: assets exceed liabilities and equity by ${difference / 100}`);
  }
  return problems;
}

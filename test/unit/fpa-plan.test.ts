import canonicalize from 'canonicalize';
import { hundredths, mulDiv } from '../../src/fpa/money';
import type { PlanOutput } from '../../src/fpa/output';
import { GENERATOR_VERSION, driverProblems, generatePlan, outputSha256 } from '../../src/fpa/plan';
import { checkGeneration } from '../../src/fpa/verify';
import { SCENARIOS } from '../../src/seed/fpa-data';

/** Output SHA-256 of each demo scenario: a change here means the plans changed (bump GENERATOR_VERSION). */
const GOLDEN: Record<string, string> = {
  base: 'acc8e83c7e7e757f5cddef43511955fdfcbb3821c1b331e827d9f9b323823038',
  upside: '5db753da0ec836c7665a427ab608fa7a07a726df284a3571ef64371156b8c67a',
  downside: 'fa7b796c7f2ec0ca72a97036daa8e7c244c10a3412d81e1f4bdd19fc5b558db8',
  efficiency: 'e9febe4d9d0a0f4ef41be78bcedd3b5ba1675da83f0e265e1f5a3ca4544e05da',
};

const plans = SCENARIOS.map((scenario) => ({
  id: scenario.id,
  drivers: scenario.drivers,
  output: generatePlan({ drivers: scenario.drivers, seed: scenario.seed }),
}));

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Each month of a plan with the month before it (the opening balance for the first). */
function monthsOf(output: PlanOutput) {
  return output.months.map((month, index) => ({
    month,
    income: output.income[index]!,
    balance: output.balance[index]!,
    cashflow: output.cashflow[index]!,
    recurring: output.recurring[index]!,
    before: index === 0 ? null : output.balance[index - 1]!,
    recurringBefore: index === 0 ? null : output.recurring[index - 1]!,
  }));
}

describe('money', () => {
  it('rounds half to even at the cent', () => {
    expect([mulDiv(5, 1, 10), mulDiv(15, 1, 10), mulDiv(25, 1, 10), mulDiv(26, 1, 10)]).toEqual([0, 2, 2, 3]);
    expect([mulDiv(-5, 1, 10), mulDiv(-15, 1, 10), mulDiv(-26, 1, 10)]).toEqual([0, -2, -3]);
  });

  it('divides large amounts exactly where doubles would not', () => {
    expect(mulDiv(9_007_199_254_740_991, 3, 3)).toBe(9_007_199_254_740_991);
    expect(() => mulDiv(9_007_199_254_740_991, 2, 1)).toThrow(RangeError);
  });

  it('reads decimals with at most two places as hundredths', () => {
    expect([hundredths(1250.5), hundredths(1.25), hundredths(0.07)]).toEqual([125050, 125, 7]);
    expect(() => hundredths(1.255)).toThrow(RangeError);
  });
});

describe.each(plans)('plan of scenario $id', ({ drivers, output }) => {
  it('covers the horizon from the start month, with actuals for the closed months', () => {
    expect(output.months).toHaveLength(drivers.horizon_months);
    expect(output.months[0]).toBe(drivers.start_month);
    for (const rows of [output.income, output.balance, output.cashflow, output.recurring, output.headcount]) {
      expect(rows.map((row) => row.month)).toEqual(output.months);
    }
    expect(output.actuals.map((row) => row.month)).toEqual(output.months.slice(0, drivers.closed_months));
  });

  it('adds up the income statement every month', () => {
    for (const { income: i } of monthsOf(output)) {
      expect(i.total_revenue).toBe(i.subscription_revenue + i.services_revenue);
      expect(i.gross_profit).toBe(i.total_revenue - i.cost_of_revenue);
      expect(i.total_operating_expenses).toBe(
        i.sales_and_marketing + i.research_and_development + i.general_and_administrative,
      );
      expect(i.ebitda).toBe(i.gross_profit - i.total_operating_expenses);
      expect(i.operating_income).toBe(i.ebitda - i.depreciation_and_amortization);
      expect(i.pre_tax_income).toBe(i.operating_income - i.interest_expense);
      expect(i.net_income).toBe(i.pre_tax_income - i.income_tax);
    }
  });

  it('balances the balance sheet to the cent every month', () => {
    for (const { month, balance: b } of monthsOf(output)) {
      const assets = b.cash + b.accounts_receivable + b.prepaid_expenses + b.fixed_assets_net;
      const liabilities = b.accounts_payable + b.accrued_expenses + b.deferred_revenue + b.debt;
      const equity = b.paid_in_capital + b.retained_earnings;
      expect([month, b.total_assets, b.total_liabilities, b.total_equity]).toEqual([
        month,
        assets,
        liabilities,
        equity,
      ]);
      expect([month, assets]).toEqual([month, liabilities + equity]);
      expect(b.total_liabilities_and_equity).toBe(liabilities + equity);
    }
  });

  it('explains the change in cash with the cash-flow statement every month', () => {
    const open = drivers.opening_balance;
    const opening = {
      cash: hundredths(open.cash),
      accounts_receivable: hundredths(open.accounts_receivable),
      prepaid_expenses: hundredths(open.prepaid_expenses),
      fixed_assets_net: hundredths(open.fixed_assets_net),
      accounts_payable: hundredths(open.accounts_payable),
      accrued_expenses: hundredths(open.accrued_expenses),
      deferred_revenue: hundredths(open.deferred_revenue),
      debt: hundredths(open.debt),
      paid_in_capital: hundredths(open.paid_in_capital),
    };
    for (const { month, income, balance: b, cashflow: c, before } of monthsOf(output)) {
      const a = before ?? opening;
      expect([month, c.net_income]).toEqual([month, income.net_income]);
      expect(c.depreciation_and_amortization).toBe(income.depreciation_and_amortization);
      expect(c.change_in_receivables).toBe(a.accounts_receivable - b.accounts_receivable);
      expect(c.change_in_prepaid_expenses).toBe(a.prepaid_expenses - b.prepaid_expenses);
      expect(c.change_in_payables).toBe(b.accounts_payable - a.accounts_payable);
      expect(c.change_in_accrued_expenses).toBe(b.accrued_expenses - a.accrued_expenses);
      expect(c.change_in_deferred_revenue).toBe(b.deferred_revenue - a.deferred_revenue);
      expect(c.operating_cash_flow).toBe(
        sum([
          c.net_income,
          c.depreciation_and_amortization,
          c.change_in_receivables,
          c.change_in_prepaid_expenses,
          c.change_in_payables,
          c.change_in_accrued_expenses,
          c.change_in_deferred_revenue,
        ]),
      );
      expect(c.investing_cash_flow).toBe(c.capital_expenditure);
      expect(b.fixed_assets_net).toBe(
        a.fixed_assets_net - c.capital_expenditure - c.depreciation_and_amortization,
      );
      expect(c.financing_cash_flow).toBe(c.equity_raised + c.debt_drawn + c.debt_repaid);
      expect(b.debt).toBe(a.debt + c.debt_drawn + c.debt_repaid);
      expect(b.paid_in_capital).toBe(a.paid_in_capital + c.equity_raised);
      expect(c.net_change_in_cash).toBe(
        c.operating_cash_flow + c.investing_cash_flow + c.financing_cash_flow,
      );
      expect([month, c.opening_cash, c.closing_cash]).toEqual([month, a.cash, a.cash + c.net_change_in_cash]);
      expect(b.cash).toBe(c.closing_cash);
      expect(c.net_burn).toBe(Math.max(0, -(c.operating_cash_flow + c.investing_cash_flow)));
    }
  });

  it('carries net income into retained earnings every month', () => {
    let retained = hundredths(drivers.opening_balance.retained_earnings);
    for (const { month, income, balance } of monthsOf(output)) {
      retained += income.net_income;
      expect([month, balance.retained_earnings]).toEqual([month, retained]);
    }
  });

  it('rolls MRR and customers forward every month, and bills the ending MRR', () => {
    for (const { month, recurring: r, recurringBefore, income } of monthsOf(output)) {
      const movements = r.new_mrr + r.expansion_mrr + r.reactivation_mrr - r.contraction_mrr - r.churned_mrr;
      expect([month, r.ending_mrr]).toEqual([month, r.beginning_mrr + movements]);
      expect(r.ending_customers).toBe(
        r.beginning_customers + r.new_customers + r.reactivated_customers - r.churned_customers,
      );
      expect(r.beginning_mrr).toBe(recurringBefore?.ending_mrr ?? hundredths(drivers.customers.starting_mrr));
      expect(r.beginning_customers).toBe(
        recurringBefore?.ending_customers ?? drivers.customers.starting_customers,
      );
      for (const amount of [
        r.new_mrr,
        r.expansion_mrr,
        r.contraction_mrr,
        r.churned_mrr,
        r.reactivation_mrr,
      ]) {
        expect(amount).toBeGreaterThanOrEqual(0);
      }
      expect(income.subscription_revenue).toBe(r.ending_mrr);
    }
  });

  it('keeps every amount an integer number of cents', () => {
    for (const rows of [output.income, output.balance, output.cashflow, output.recurring, output.actuals]) {
      for (const row of rows) {
        for (const [key, value] of Object.entries(row))
          if (key !== 'month') expect(Number.isSafeInteger(value)).toBe(true);
      }
    }
  });
});

describe('determinism', () => {
  it.each(plans)('recomputes $id byte for byte from its drivers and seed', ({ id }) => {
    const scenario = SCENARIOS.find((candidate) => candidate.id === id)!;
    const again = () => generatePlan({ drivers: structuredClone(scenario.drivers), seed: scenario.seed });
    expect(canonicalize(again())).toBe(canonicalize(again()));
    expect(JSON.stringify(again())).toBe(JSON.stringify(plans.find((plan) => plan.id === id)!.output));
  });

  it.each(plans)('gives $id its golden output hash', ({ id, output }) => {
    expect([GENERATOR_VERSION, id, outputSha256(output)]).toEqual([GENERATOR_VERSION, id, GOLDEN[id]]);
  });

  it('gives another seed other noise and other actuals', () => {
    const [base] = SCENARIOS;
    const reseeded = generatePlan({ drivers: base!.drivers, seed: 'another-seed' });
    expect(outputSha256(reseeded)).not.toBe(outputSha256(plans[0]!.output));
  });

  it('accepts every demo scenario\u2019s drivers', () => {
    for (const scenario of SCENARIOS)
      expect([scenario.id, driverProblems(scenario.drivers)]).toEqual([scenario.id, []]);
  });
});

describe('auditor check of a recorded generation', () => {
  const scenario = SCENARIOS[0]!;
  const inputs = { drivers: scenario.drivers, seed: scenario.seed };
  const output = generatePlan(inputs);
  const recorded = {
    scenario: 'base',
    generator_version: GENERATOR_VERSION,
    inputs,
    output_sha256: outputSha256(output),
    output,
  };

  it('confirms a generation whose output and recomputation match the recorded hash', () => {
    expect(checkGeneration(recorded, 7)).toMatchObject({ scenario: 'base', position: 7, result: 'ok' });
  });

  it('flags a stored output that was altered', () => {
    const altered = structuredClone(output);
    altered.income[3]!.net_income += 1;
    expect(checkGeneration({ ...recorded, output: altered }, 7).result).toBe('mismatch');
  });

  it('flags recorded inputs that do not give the recorded output', () => {
    const other = { ...inputs, seed: 'not-the-seed' };
    expect(checkGeneration({ ...recorded, inputs: other }, 7)).toMatchObject({
      result: 'mismatch',
      stored_output_sha256: recorded.output_sha256,
    });
  });

  it('cannot recompute what another generator version recorded', () => {
    expect(checkGeneration({ ...recorded, generator_version: 'fpa-plan/0' }, 7)).toMatchObject({
      result: 'unverifiable',
      recomputed_sha256: null,
    });
  });
});

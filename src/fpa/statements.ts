import type { Drivers } from './drivers';
import { fundingIn, projectIncome } from './income';
import { applyBp, hundredths, mulDiv, sum } from './money';
import type { BalanceRow, CashflowRow, IncomeRow, RecurringRow } from './output';

/** A payment as its effect on cash; `0 - x` rather than `-x`, which would record a zero as -0. */
const outflow = (amount: number) => 0 - amount;

function openingBalance(drivers: Drivers): BalanceRow {
  const open = drivers.opening_balance;
  return {
    month: '',
    cash: hundredths(open.cash),
    accounts_receivable: hundredths(open.accounts_receivable),
    prepaid_expenses: hundredths(open.prepaid_expenses),
    fixed_assets_net: hundredths(open.fixed_assets_net),
    total_assets: 0,
    accounts_payable: hundredths(open.accounts_payable),
    accrued_expenses: hundredths(open.accrued_expenses),
    deferred_revenue: hundredths(open.deferred_revenue),
    debt: hundredths(open.debt),
    total_liabilities: 0,
    paid_in_capital: hundredths(open.paid_in_capital),
    retained_earnings: hundredths(open.retained_earnings),
    total_equity: 0,
    total_liabilities_and_equity: 0,
  };
}

export interface Statements {
  income: IncomeRow[];
  balance: BalanceRow[];
  cashflow: CashflowRow[];
}

/**
 * The three statements, month by month. Working capital at month end follows the payment terms
 * (30-day months); the cash-flow statement reports every balance's change, and the balance sheet's
 * cash is its closing cash, so assets = liabilities + equity holds to the cent whenever the opening
 * balance does.
 */
export function projectStatements(drivers: Drivers, recurring: readonly RecurringRow[]): Statements {
  const terms = drivers.payment_terms;
  const statements: Statements = { income: [], balance: [], cashflow: [] };
  let previous = openingBalance(drivers);

  for (const { income, supplierCosts, payroll, capex } of projectIncome(drivers, recurring)) {
    const { month, net_income: netIncome, depreciation_and_amortization: amortisation } = income;
    const deferred = mulDiv(income.subscription_revenue, hundredths(terms.billed_in_advance_months), 100);
    const billings = income.total_revenue + deferred - previous.deferred_revenue;
    const receivables = Math.max(0, mulDiv(billings, terms.dso_days, 30));
    const prepaid = mulDiv(supplierCosts, hundredths(terms.prepaid_months), 100);
    const payables = mulDiv(supplierCosts, terms.dpo_days, 30);
    // Unpaid payroll, and the month's income tax, which is paid the month after.
    const accrued = applyBp(payroll, hundredths(terms.accrued_payroll_pct)) + income.income_tax;

    const operating = {
      change_in_receivables: previous.accounts_receivable - receivables,
      change_in_prepaid_expenses: previous.prepaid_expenses - prepaid,
      change_in_payables: payables - previous.accounts_payable,
      change_in_accrued_expenses: accrued - previous.accrued_expenses,
      change_in_deferred_revenue: deferred - previous.deferred_revenue,
    };
    const operatingCashFlow = netIncome + amortisation + sum(Object.values(operating));
    const financing = {
      equity_raised: fundingIn(drivers, month, 'equity'),
      debt_drawn: fundingIn(drivers, month, 'debt_draw'),
      debt_repaid: outflow(fundingIn(drivers, month, 'debt_repayment')),
    };
    const financingCashFlow = sum(Object.values(financing));
    const netChange = operatingCashFlow - capex + financingCashFlow;
    statements.income.push(income);
    statements.cashflow.push({
      month,
      net_income: netIncome,
      depreciation_and_amortization: amortisation,
      ...operating,
      operating_cash_flow: operatingCashFlow,
      capital_expenditure: outflow(capex),
      investing_cash_flow: outflow(capex),
      ...financing,
      financing_cash_flow: financingCashFlow,
      net_change_in_cash: netChange,
      opening_cash: previous.cash,
      closing_cash: previous.cash + netChange,
      net_burn: Math.max(0, capex - operatingCashFlow),
    });

    const assets = {
      cash: previous.cash + netChange,
      accounts_receivable: receivables,
      prepaid_expenses: prepaid,
      fixed_assets_net: previous.fixed_assets_net + capex - amortisation,
    };
    const liabilities = {
      accounts_payable: payables,
      accrued_expenses: accrued,
      deferred_revenue: deferred,
      debt: previous.debt + financing.debt_drawn + financing.debt_repaid,
    };
    const equity = {
      paid_in_capital: previous.paid_in_capital + financing.equity_raised,
      retained_earnings: previous.retained_earnings + netIncome,
    };
    previous = {
      month,
      ...assets,
      total_assets: sum(Object.values(assets)),
      ...liabilities,
      total_liabilities: sum(Object.values(liabilities)),
      ...equity,
      total_equity: sum(Object.values(equity)),
      total_liabilities_and_equity: sum(Object.values(liabilities)) + sum(Object.values(equity)),
    };
    statements.balance.push(previous);
  }
  return statements;
}

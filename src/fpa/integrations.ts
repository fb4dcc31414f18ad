import { isoTimestamp } from '../clock';
import type { SeededRandom } from '../seed/random';
import { sum } from './money';
import type { HeadcountRow, IntegrationRow, RecurringRow } from './output';

const HOUR = 3_600_000;

interface Source {
  system: IntegrationRow['system'];
  name: string;
  intervalHours: number;
  /** Records the source delivered for the closed months. */
  records(closed: { recurring: readonly RecurringRow[]; headcount: readonly HeadcountRow[] }): number;
}

const customersBilled = (rows: readonly RecurringRow[]) =>
  sum(rows.map((row) => row.ending_customers + row.new_customers));
const payslips = (rows: readonly HeadcountRow[]) => sum(rows.map((row) => row.total));

const SOURCES: readonly Source[] = [
  {
    system: 'erp',
    name: 'ERP general ledger',
    intervalHours: 24,
    // Invoice and payroll postings, plus the month-end journals (accruals, depreciation, tax).
    records: ({ recurring, headcount }) =>
      customersBilled(recurring) + payslips(headcount) + 40 * recurring.length,
  },
  {
    system: 'billing',
    name: 'Subscription billing',
    intervalHours: 1,
    records: ({ recurring }) => customersBilled(recurring),
  },
  {
    system: 'crm',
    name: 'CRM accounts and opportunities',
    intervalHours: 4,
    records: ({ recurring }) =>
      (recurring[recurring.length - 1]?.ending_customers ?? 0) +
      sum(recurring.map((row) => row.churned_customers)),
  },
  {
    system: 'hris',
    name: 'HRIS employee records',
    intervalHours: 24,
    records: ({ headcount }) => headcount[headcount.length - 1]?.total ?? 0,
  },
  {
    system: 'payroll',
    name: 'Payroll runs',
    intervalHours: 24 * 31,
    records: ({ headcount }) => payslips(headcount),
  },
  {
    system: 'bank',
    name: 'Bank statement feed',
    intervalHours: 24,
    records: ({ recurring, headcount }) =>
      customersBilled(recurring) + payslips(headcount) + 25 * recurring.length,
  },
];

const FAILURES = [
  'Last sync failed: the API credentials were rejected (HTTP 401); figures are from the previous sync',
  'Last sync failed: the source timed out after 120 s; figures are from the previous sync',
  'Last sync failed: the export file was incomplete; figures are from the previous sync',
];

/**
 * Status of the systems the plan draws on, as of the plan's as-of time: every number comes from the
 * plan's closed months and the seed, never from the wall clock. Failed beats stale (more than twice
 * the expected interval since the last sync), which beats degraded (records rejected), then ok.
 */
export function sourceStatus(
  asOf: string,
  closed: { recurring: readonly RecurringRow[]; headcount: readonly HeadcountRow[] },
  random: SeededRandom,
): IntegrationRow[] {
  return SOURCES.map((source) => {
    const failed = random.int(0, 99) < 8;
    const failure = FAILURES[random.int(0, FAILURES.length - 1)] as string;
    const freshness = random.int(0, source.intervalHours * 3);
    const rejected = random.int(0, 99) < 20 ? random.int(1, 40) : 0;
    const records = source.records(closed);
    const stale = freshness > source.intervalHours * 2;
    const state = failed ? 'failed' : stale ? 'stale' : rejected > 0 ? 'degraded' : 'ok';
    const messages = {
      failed: failure,
      stale: `No sync for ${freshness} h (expected every ${source.intervalHours} h)`,
      degraded: `Synced with ${rejected} record(s) rejected by validation`,
      ok: 'Synced',
    };
    return {
      system: source.system,
      name: source.name,
      expected_interval_hours: source.intervalHours,
      last_sync_at: isoTimestamp(new Date(new Date(asOf).getTime() - freshness * HOUR)),
      freshness_hours: freshness,
      state,
      records,
      rejected_records: Math.min(rejected, records),
      message: messages[state],
    };
  });
}

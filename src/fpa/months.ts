/** Calendar months as `YYYY-MM` strings, and the periods months roll up into. */

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export function addMonths(month: string, count: number): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (monthNumber - 1) + count;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The months from `start`, `count` of them. */
export const monthRange = (start: string, count: number): string[] =>
  Array.from({ length: count }, (_, index) => addMonths(start, index));

export const GRANULARITIES = ['month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** `2026-05` -> `2026-05`, `2026-Q2` or `2026`. */
export function periodOf(month: string, granularity: Granularity): string {
  if (granularity === 'month') return month;
  const year = month.slice(0, 4);
  if (granularity === 'year') return year;
  return `${year}-Q${Math.floor((Number(month.slice(5, 7)) - 1) / 3) + 1}`;
}

/** Consecutive months grouped by the period they fall in, in order. */
export function groupByPeriod<Row extends { month: string }>(
  rows: readonly Row[],
  granularity: Granularity,
): { period: string; rows: Row[] }[] {
  const groups: { period: string; rows: Row[] }[] = [];
  for (const row of rows) {
    const period = periodOf(row.month, granularity);
    const last = groups[groups.length - 1];
    if (last && last.period === period) last.rows.push(row);
    else groups.push({ period, rows: [row] });
  }
  return groups;
}

import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { MarketFigures } from '../../events/market';
import { MARKET_COLLECTIONS, type ObservationRecord } from '../../projections/market';
import type { Filter, ReadStore } from '../../projections/read-store';
import { median } from '../figures';
import { MARKETS, MARKET_CODES, fromMinor, toMinor } from '../markets';
import { figuresByMarket } from '../read-models';
import type { AnalysisPlan } from './plan';

export interface ResultRow {
  label: string;
  value: number;
  /** Currency of a price; absent for counts and indices. */
  currency?: string;
  /** A market's collection status, for coverage. */
  status?: string;
  observation_count: number;
}

export interface Citation {
  url: string;
  publisher: string;
  observation_count: number;
}

export interface AnalysisResult {
  rows: ResultRow[];
  /** Rows before the top-N cut. */
  total_rows: number;
  observations_read: number;
  /** The row limit cut the read short. */
  truncated: boolean;
  citations: Citation[];
  as_of: string | null;
}

export class QueryTimeout extends Error {
  constructor() {
    super('The analysis took longer than its time limit');
    this.name = 'QueryTimeout';
  }
}

const MAX_CITATIONS = 10;

interface Bounds {
  signal: AbortSignal;
  deadline: number;
}

function check(bounds: Bounds): void {
  bounds.signal.throwIfAborted();
  if (Date.now() > bounds.deadline) throw new QueryTimeout();
}

/** The observations in the plan's scope, at most `row_limit` of them (read page by page, bounded). */
async function scopedObservations(plan: AnalysisPlan, readStore: ReadStore, bounds: Bounds) {
  const filters: Filter[] = [];
  if (plan.scope === 'market') filters.push({ field: 'country', op: 'eq', value: plan.filters.country });
  if (plan.filters.treatment) filters.push({ field: 'treatment', op: 'eq', value: plan.filters.treatment });
  if (plan.filters.treatment_type)
    filters.push({ field: 'treatment_type', op: 'eq', value: plan.filters.treatment_type });
  const rows: ObservationRecord[] = [];
  let total = 0;
  const page = 2000;
  for (let offset = 0; offset < plan.bounds.row_limit; offset += page) {
    check(bounds);
    const found = await readStore.find(MARKET_COLLECTIONS.observations, {
      filters,
      limit: Math.min(page, plan.bounds.row_limit - offset),
      offset,
    });
    total = found.total;
    for (const item of found.items) rows.push(JSON.parse(item) as ObservationRecord);
    if (offset + page >= found.total) break;
    await yieldToLoop();
  }
  return { rows, truncated: total > rows.length };
}

function keyOf(plan: AnalysisPlan, row: ObservationRecord): string {
  switch (plan.dimension) {
    case 'country':
      return `${MARKETS[row.country as keyof typeof MARKETS].name} (${row.country})`;
    case 'treatment_type':
      return row.treatment_type;
    case 'treatment':
      return row.treatment_name;
    case 'competitor':
      return row.competitor_name;
    case 'city':
      return row.city;
  }
}

function fromObservations(plan: AnalysisPlan, observations: readonly ObservationRecord[]): ResultRow[] {
  const groups = new Map<string, ObservationRecord[]>();
  for (const row of observations) {
    const key = keyOf(plan, row);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups].map(([label, rows]) => {
    const count = rows.length;
    if (plan.metric === 'competitor_count') {
      return { label, value: new Set(rows.map((row) => row.competitor_id)).size, observation_count: count };
    }
    if (plan.metric === 'observation_count') return { label, value: count, observation_count: count };
    const currency = (rows[0] as ObservationRecord).currency;
    const value = fromMinor(median(rows.map((row) => toMinor(row.price, currency))), currency);
    return { label, value, currency, observation_count: count };
  });
}

function medianOf(values: readonly number[]): number {
  return Math.round(median(values.map((value) => Math.round(value * 10)))) / 10;
}

function fromFigures(plan: AnalysisPlan, figures: ReadonlyMap<string, MarketFigures>): ResultRow[] {
  const { country, treatment, treatment_type: type } = plan.filters;
  if (plan.metric === 'coverage') {
    return MARKET_CODES.map((code) => {
      const market = figures.get(code);
      return {
        label: `${MARKETS[code].name} (${code})`,
        status: market?.status ?? 'not_started',
        value: market?.treatments_complete ?? 0,
        observation_count: market?.observation_count ?? 0,
      };
    });
  }
  const matches = (row: { treatment: string; treatment_type: string }) =>
    (!treatment || row.treatment === treatment) && (!type || row.treatment_type === type);
  if (plan.dimension === 'country') {
    return MARKET_CODES.flatMap((code) =>
      (figures.get(code)?.treatments ?? [])
        .filter((row) => matches(row) && row.relative_price_level !== null)
        .map((row) => ({
          label: `${MARKETS[code].name} (${code})`,
          value: row.relative_price_level as number,
          observation_count: row.observation_count,
        })),
    );
  }
  const market = figures.get(country);
  if (plan.dimension === 'competitor') {
    const byCompetitor = new Map<string, { indices: number[]; count: number }>();
    for (const level of (market?.price_levels ?? []).filter(matches)) {
      const entry = byCompetitor.get(level.competitor_name) ?? { indices: [], count: 0 };
      entry.indices.push(level.price_index);
      entry.count += level.observation_count;
      byCompetitor.set(level.competitor_name, entry);
    }
    return [...byCompetitor].map(([label, entry]) => ({
      label,
      value: medianOf(entry.indices),
      observation_count: entry.count,
    }));
  }
  const rows = (market?.treatments ?? []).filter((row) => matches(row) && row.relative_price_level !== null);
  if (plan.dimension === 'treatment') {
    return rows.map((row) => ({
      label: row.name,
      value: row.relative_price_level as number,
      observation_count: row.observation_count,
    }));
  }
  const byType = new Map<string, { levels: number[]; count: number }>();
  for (const row of rows) {
    const entry = byType.get(row.treatment_type) ?? { levels: [], count: 0 };
    entry.levels.push(row.relative_price_level as number);
    entry.count += row.observation_count;
    byType.set(row.treatment_type, entry);
  }
  return [...byType].map(([label, entry]) => ({
    label,
    value: medianOf(entry.levels),
    observation_count: entry.count,
  }));
}

function citationsOf(observations: readonly ObservationRecord[]): Citation[] {
  const sources = new Map<string, Citation>();
  for (const row of observations) {
    const source = sources.get(row.evidence_url) ?? {
      url: row.evidence_url,
      publisher: row.publisher,
      observation_count: 0,
    };
    source.observation_count += 1;
    sources.set(row.evidence_url, source);
  }
  return [...sources.values()]
    .sort((a, b) => b.observation_count - a.observation_count || a.url.localeCompare(b.url))
    .slice(0, MAX_CITATIONS);
}

/**
 * Runs a plan over the read models, read-only and bounded: at most `row_limit` observations, the
 * top rows only, stopped by the time limit or by `signal` (the client went away).
 */
export async function runPlan(
  plan: AnalysisPlan,
  readStore: ReadStore,
  signal: AbortSignal,
): Promise<AnalysisResult> {
  const bounds = { signal, deadline: Date.now() + plan.bounds.time_limit_ms };
  const figures = await figuresByMarket(readStore);
  check(bounds);
  const asOf = figures.values().next().value?.as_of ?? null;
  const figureBased = plan.metric === 'price_index' || plan.metric === 'coverage';
  // Coverage cites the asked market's sources; everything else the observations behind its numbers.
  const scope: AnalysisPlan = plan.metric === 'coverage' ? { ...plan, scope: 'market' } : plan;
  const { rows: observations, truncated } = await scopedObservations(scope, readStore, bounds);
  check(bounds);
  // Prices in different currencies are not compared: they are ranked within their currency.
  const rows = (figureBased ? fromFigures(plan, figures) : fromObservations(plan, observations)).sort(
    (a, b) =>
      (a.currency ?? '').localeCompare(b.currency ?? '') ||
      b.value - a.value ||
      a.label.localeCompare(b.label),
  );
  return {
    rows: rows.slice(0, plan.bounds.top),
    total_rows: rows.length,
    observations_read: observations.length,
    truncated,
    citations: citationsOf(observations),
    as_of: asOf,
  };
}

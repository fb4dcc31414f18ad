import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { CollectionStatus, MarketFigures } from '../events/market';
import type { LocationRecord, ObservationRecord } from '../projections/market';
import { MARKETS, MARKET_CODES, fromMinor, toMinor, type MarketCode } from './markets';
import { TREATMENTS } from './treatments';

/** A treatment counts as complete in a market once this many competitors' prices are observed. */
export const COMPETITORS_FOR_COMPLETE = 3;
const DAY = 86_400_000;

/** The median of integers (minor units); an even count averages the middle two, rounded half up. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] as number;
  return Math.round(((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2);
}

/**
 * Relative price level: 100 x a price's median / the reference median, to one decimal. 100 is the
 * market median; 120 is 20% above it.
 */
export const priceIndex = (value: number, reference: number): number =>
  Math.round((1000 * value) / reference) / 10;

const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY);

function groupBy<T>(items: readonly T[], key: (item: T) => string | number): Map<string | number, T[]> {
  const groups = new Map<string | number, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function statusOf(observations: number, treatmentsComplete: number): CollectionStatus {
  if (observations === 0) return 'not_started';
  return treatmentsComplete === TREATMENTS.length ? 'complete' : 'partial';
}

function marketFigures(
  country: MarketCode,
  observations: readonly ObservationRecord[],
  locationCount: number,
  asOf: string | null,
): MarketFigures {
  const { currency } = MARKETS[country];
  const treatments: MarketFigures['treatments'] = [];
  const priceLevels: MarketFigures['price_levels'] = [];
  const byTreatment = groupBy(observations, (observation) => observation.treatment);
  for (const treatment of TREATMENTS) {
    const rows = byTreatment.get(treatment.code);
    if (!rows) continue;
    const marketMedian = median(rows.map((row) => toMinor(row.price, currency)));
    const byCompetitor = [...groupBy(rows, (row) => row.competitor_id)].sort(
      ([a], [b]) => Number(a) - Number(b),
    );
    treatments.push({
      treatment: treatment.code,
      name: treatment.name,
      treatment_type: treatment.type,
      currency,
      observation_count: rows.length,
      competitor_count: byCompetitor.length,
      market_median: fromMinor(marketMedian, currency),
      relative_price_level: null,
    });
    for (const [competitorId, own] of byCompetitor) {
      const competitorMedian = median(own.map((row) => toMinor(row.price, currency)));
      priceLevels.push({
        competitor_id: Number(competitorId),
        competitor_name: (own[0] as ObservationRecord).competitor_name,
        treatment: treatment.code,
        treatment_type: treatment.type,
        currency,
        observation_count: own.length,
        competitor_median: fromMinor(competitorMedian, currency),
        market_median: fromMinor(marketMedian, currency),
        price_index: priceIndex(competitorMedian, marketMedian),
      });
    }
  }
  const retrieved = observations.map((row) => row.retrieved_at.slice(0, 10)).sort();
  const newest = retrieved[retrieved.length - 1] ?? null;
  const oldest = retrieved[0] ?? null;
  const treatmentsComplete = treatments.filter(
    (row) => row.competitor_count >= COMPETITORS_FOR_COMPLETE,
  ).length;
  return {
    country,
    as_of: asOf,
    status: statusOf(observations.length, treatmentsComplete),
    observation_count: observations.length,
    competitor_count: new Set(observations.map((row) => row.competitor_id)).size,
    location_count: locationCount,
    source_count: new Set(observations.map((row) => row.evidence_url)).size,
    treatments_covered: treatments.length,
    treatments_complete: treatmentsComplete,
    newest_evidence_on: newest,
    oldest_evidence_on: oldest,
    freshness_days: newest && asOf ? days(newest, asOf) : null,
    oldest_evidence_days: oldest && asOf ? days(oldest, asOf) : null,
    treatments,
    price_levels: priceLevels,
  };
}

/**
 * A treatment's market median against the median of that treatment's market medians across the
 * markets that price in the same currency (no exchange rates are involved); null without a peer.
 */
function addRelativeLevels(markets: MarketFigures[]): void {
  const medians = new Map<string, number[]>();
  for (const market of markets) {
    for (const row of market.treatments) {
      const key = `${row.currency}:${row.treatment}`;
      medians.set(key, [...(medians.get(key) ?? []), toMinor(row.market_median, row.currency)]);
    }
  }
  for (const market of markets) {
    for (const row of market.treatments) {
      const peers = medians.get(`${row.currency}:${row.treatment}`) ?? [];
      row.relative_price_level =
        peers.length < 2 ? null : priceIndex(toMinor(row.market_median, row.currency), median(peers));
    }
  }
}

export type HashedFigures = MarketFigures & { sha256: string };

/** Every market's figures from the observations and locations; the same inputs give the same output. */
export function computeFigures(
  observations: readonly ObservationRecord[],
  locations: readonly Pick<LocationRecord, 'country'>[],
): HashedFigures[] {
  const captured = observations.map((row) => row.captured_at).sort();
  const asOf = captured.length > 0 ? (captured[captured.length - 1] as string).slice(0, 10) : null;
  const byCountry = groupBy(
    [...observations].sort((a, b) => a.id - b.id),
    (row) => row.country,
  );
  const locationsByCountry = groupBy(locations, (row) => row.country);
  const markets = MARKET_CODES.map((country) =>
    marketFigures(country, byCountry.get(country) ?? [], locationsByCountry.get(country)?.length ?? 0, asOf),
  );
  addRelativeLevels(markets);
  return markets.map((market) => ({
    ...market,
    sha256: createHash('sha256')
      .update(canonicalize(market) as string)
      .digest('hex'),
  }));
}

import type { MarketEventOf } from '../../events/market';
import { MARKETS, isMarketCode, respectsMinorUnits } from '../../market/markets';
import { treatmentOf } from '../../market/treatments';
import type { Decider } from '../decider';
import { DomainError } from '../errors';

type PriceObserved = MarketEventOf<'PriceObserved'>;

/** One observation as an import row or the demo data states it, before it is checked. */
export interface ObservationInput {
  country: string;
  competitor_id: number;
  location_id: number;
  treatment: string;
  price: number;
  currency: string;
  captured_at: string;
  evidence_url: string;
  /** Defaults to the evidence URL's host. */
  publisher?: string | null;
  /** Defaults to `captured_at`. */
  retrieved_at?: string | null;
}

/** What the checks know of the records observations refer to. */
export interface ObservationFacts {
  competitors: ReadonlyMap<number, { name: string }>;
  locations: ReadonlyMap<number, { competitor_id: number; country: string; city: string }>;
}

export interface RowProblem {
  field: string;
  message: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$/;

/** `2026-10-03` or `2026-10-03T08:00:00Z` -> the UTC timestamp, or undefined when not a real time. */
export function normaliseTime(text: string): string | undefined {
  if (!TIMESTAMP.test(text)) return undefined;
  const value = text.length === 10 ? `${text}T00:00:00Z` : text;
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || date.toISOString().replace('.000Z', 'Z') !== value) return undefined;
  return value;
}

function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const isId = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** Every rule an observation must keep; an empty list means it can be recorded. */
export function observationProblems(row: ObservationInput, facts: ObservationFacts): RowProblem[] {
  const problems: RowProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const country = String(row.country ?? '').toUpperCase();
  if (!isMarketCode(country))
    problem('country', `${JSON.stringify(row.country)} is not one of the 30 EEA markets`);
  else if (row.currency !== MARKETS[country].currency) {
    problem(
      'currency',
      `${JSON.stringify(row.currency)} is not the currency of ${country} (${MARKETS[country].currency})`,
    );
  }
  if (!treatmentOf(String(row.treatment ?? '')))
    problem('treatment', `${JSON.stringify(row.treatment)} is not in the treatment catalogue`);
  if (typeof row.price !== 'number' || !(row.price > 0)) problem('price', 'must be a number greater than 0');
  else if (!respectsMinorUnits(row.price, row.currency)) {
    problem('price', `has more decimals than ${JSON.stringify(row.currency)} allows`);
  }
  const captured = normaliseTime(String(row.captured_at ?? ''));
  if (!captured)
    problem('captured_at', 'must be a date (YYYY-MM-DD) or a UTC timestamp (YYYY-MM-DDTHH:MM:SSZ)');
  const retrieved = row.retrieved_at ? normaliseTime(row.retrieved_at) : captured;
  if (row.retrieved_at && !retrieved) problem('retrieved_at', 'must be a date or a UTC timestamp');
  else if (captured && retrieved && retrieved < captured) problem('retrieved_at', 'is before captured_at');
  if (!row.evidence_url) problem('evidence_url', 'is required: every observation keeps its public evidence');
  else if (!httpUrl(row.evidence_url)) problem('evidence_url', 'must be an http(s) URL');
  const competitor = facts.competitors.get(row.competitor_id);
  if (!isId(row.competitor_id)) problem('competitor_id', 'must be a competitor id (a positive integer)');
  else if (!competitor) problem('competitor_id', `competitor ${row.competitor_id} is not verified`);
  const location = facts.locations.get(row.location_id);
  if (!isId(row.location_id)) problem('location_id', 'must be a location id (a positive integer)');
  else if (!location) problem('location_id', `location ${row.location_id} is not geocoded`);
  else {
    if (competitor && location.competitor_id !== row.competitor_id) {
      problem('location_id', `location ${row.location_id} belongs to competitor ${location.competitor_id}`);
    }
    if (isMarketCode(country) && location.country !== country) {
      problem('location_id', `location ${row.location_id} is in ${location.country}, not ${country}`);
    }
  }
  return problems;
}

/** The event of an observation that keeps every rule (see `observationProblems`). */
export function observedEvent(id: number, row: ObservationInput, facts: ObservationFacts): PriceObserved {
  const treatment = treatmentOf(row.treatment) as NonNullable<ReturnType<typeof treatmentOf>>;
  const location = facts.locations.get(row.location_id) as { city: string };
  const captured = normaliseTime(row.captured_at) as string;
  return {
    type: 'PriceObserved',
    data: {
      id,
      competitor_id: row.competitor_id,
      competitor_name: (facts.competitors.get(row.competitor_id) as { name: string }).name,
      location_id: row.location_id,
      country: row.country.toUpperCase() as PriceObserved['data']['country'],
      city: location.city,
      treatment: treatment.code,
      treatment_name: treatment.name,
      treatment_type: treatment.type,
      price: row.price,
      currency: row.currency,
      captured_at: captured,
      evidence_url: row.evidence_url,
      publisher: row.publisher || new URL(row.evidence_url).host,
      retrieved_at: (row.retrieved_at && normaliseTime(row.retrieved_at)) || captured,
    },
  };
}

export type RecordObservations = {
  type: 'RecordObservations';
  /** The ids allocated to the rows, in order. */
  ids: readonly number[];
  rows: readonly ObservationInput[];
  facts: ObservationFacts;
};

/** A batch is recorded whole or not at all: one bad row rejects it, naming every bad row. */
export const batchDecider: Decider<RecordObservations, { exists: boolean }, PriceObserved> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ ids, rows, facts }, state) {
    if (state.exists) throw new DomainError('already_exists', 'This observation batch exists');
    if (rows.length === 0)
      throw new DomainError('validation_error', 'A batch holds at least one observation');
    const rejected = rows
      .map((row, index) => ({ row: index + 1, problems: observationProblems(row, facts) }))
      .filter((entry) => entry.problems.length > 0);
    if (rejected.length > 0) {
      throw new DomainError('validation_error', `${rejected.length} observation(s) break the rules`, {
        rows: rejected,
      });
    }
    return rows.map((row, index) => observedEvent(ids[index] as number, row, facts));
  },
};

import { isoDate, isoTimestamp } from '../clock';
import { geocodeLocation, recordObservations, verifyCompetitor } from '../commands/market/handlers';
import type { ObservationFacts, ObservationInput } from '../commands/market/observations';
import { MARKETS, MINOR_UNITS, type MarketCode } from '../market/markets';
import { TREATMENTS, TREATMENT_TYPES, type TreatmentType } from '../market/treatments';
import type { SeedContext } from './context';
import {
  DEMO_BASE_PRICE,
  DEMO_CITIES,
  DEMO_DEPTH,
  DEMO_PRICE_LEVEL,
  NAME_PLACES,
  NAME_SPECIALTIES,
  GENERAL_SPECIALTIES,
  NAME_SUFFIXES,
  STREETS,
} from './market-data';
import { sample, slugify, writeInGroups } from './toolkit';

const DAY = 86_400_000;
const COMPETITORS = 150;
/** Observations go to the log in batches of this many rows, one append each. */
const BATCH = 500;
const VERIFIED_FROM = Date.parse('2026-03-02T09:00:00Z');
const CAPTURE_FROM = Date.parse('2026-05-04T07:00:00Z');
const CAPTURE_TO = Date.parse('2026-11-16T18:00:00Z');

type Random = SeedContext['random'];
type Started = MarketCode & keyof typeof DEMO_CITIES;

interface CompetitorPlan {
  id: number;
  name: string;
  slug: string;
  home: Started;
  markets: Started[];
  types: TreatmentType[];
  /** Premium or budget positioning: a factor on the market's price. */
  positioning: number;
}

interface LocationPlan {
  id: number;
  competitor: CompetitorPlan;
  country: Started;
  city: string;
}

const STARTED = (Object.keys(DEMO_DEPTH) as Started[]).sort();
const COMPLETE = STARTED.filter((country) => DEMO_DEPTH[country] === 'complete');
/** Partial markets collect a share of the catalogue only, so they stay partial. */
const PARTIAL_TREATMENTS = 7;

function planCompetitors(random: Random): CompetitorPlan[] {
  const plans: CompetitorPlan[] = [];
  for (let index = 0; index < COMPETITORS; index++) {
    // Complete markets get every competitor's home twice as often as partial ones.
    const home = random.weighted(
      Object.fromEntries(STARTED.map((country) => [country, DEMO_DEPTH[country] === 'complete' ? 2 : 1])),
    ) as Started;
    const types = sample(random, TREATMENT_TYPES, random.chance(0.45) ? 1 : random.int(2, 3));
    const abroad = random.chance(0.3)
      ? sample(
          random,
          STARTED.filter((c) => c !== home),
          random.int(1, 3),
        )
      : [];
    plans.push({
      id: 0,
      name: '',
      slug: '',
      home,
      markets: [home, ...abroad],
      types,
      positioning: 0.78 + random.float() * 0.5,
    });
  }
  // A complete market has at least three competitors offering each treatment type.
  for (const country of COMPLETE) {
    for (const type of TREATMENT_TYPES) {
      const present = plans.filter((plan) => plan.markets.includes(country));
      const offering = present.filter((plan) => plan.types.includes(type));
      for (const plan of sample(
        random,
        present.filter((p) => !p.types.includes(type)),
        Math.max(0, 3 - offering.length),
      )) {
        plan.types.push(type);
      }
    }
  }
  // Named once their offer is settled: a one-specialty group carries it in its name.
  const names = new Set<string>();
  for (const plan of plans) {
    const words =
      plan.types.length === 1 ? NAME_SPECIALTIES[plan.types[0] as TreatmentType] : GENERAL_SPECIALTIES;
    do
      plan.name = `${random.pick(NAME_PLACES)} ${random.pick(words as readonly string[])} ${random.pick(NAME_SUFFIXES)}`;
    while (names.has(plan.name));
    names.add(plan.name);
    plan.slug = slugify(plan.name);
  }
  return plans;
}

function planLocations(random: Random, competitors: readonly CompetitorPlan[]): Omit<LocationPlan, 'id'>[] {
  return competitors.flatMap((competitor) =>
    competitor.markets.flatMap((country, index) => {
      const cities = DEMO_CITIES[country] ?? [];
      const count = index === 0 ? random.int(1, 5) : random.int(1, 2);
      return sample(random, cities, Math.min(count, cities.length)).map(([city]) => ({
        competitor,
        country,
        city,
      }));
    }),
  );
}

function roundPrice(random: Random, amount: number, currency: string): number {
  const step = amount >= 100_000 ? 1000 : amount >= 10_000 ? 100 : amount >= 1000 ? 10 : 5;
  const rounded = Math.max(step, Math.round(amount / step) * step);
  // Some clinics price just below the round figure (349.90), where the currency has minor units.
  return (MINOR_UNITS[currency] ?? 0) > 0 && step <= 10 && random.chance(0.2) ? rounded - 0.1 : rounded;
}

function planObservations(random: Random, locations: readonly LocationPlan[]): ObservationInput[] {
  const partialTreatments = new Map(
    STARTED.filter((country) => DEMO_DEPTH[country] === 'partial').map((country) => [
      country,
      new Set(sample(random, TREATMENTS, PARTIAL_TREATMENTS).map((treatment) => treatment.code)),
    ]),
  );
  const rows: ObservationInput[] = [];
  for (const location of locations) {
    const { competitor, country } = location;
    const { level, perEuro } = DEMO_PRICE_LEVEL[country] as { level: number; perEuro: number };
    const { currency } = MARKETS[country];
    const complete = DEMO_DEPTH[country] === 'complete';
    for (const treatment of TREATMENTS) {
      if (!competitor.types.includes(treatment.type)) continue;
      if (!complete && !partialTreatments.get(country)?.has(treatment.code)) continue;
      const snapshots = complete ? random.int(4, 8) : random.int(1, 4);
      const list = (DEMO_BASE_PRICE[treatment.code] as number) * level * perEuro * competitor.positioning;
      const path = `${country.toLowerCase()}/prices/${treatment.code}`;
      for (let snapshot = 0; snapshot < snapshots; snapshot++) {
        const captured = CAPTURE_FROM + random.float() * (CAPTURE_TO - CAPTURE_FROM);
        rows.push({
          country,
          competitor_id: competitor.id,
          location_id: location.id,
          treatment: treatment.code,
          price: roundPrice(random, list * (0.95 + random.float() * 0.1), currency),
          currency,
          captured_at: isoTimestamp(new Date(Math.floor(captured / 1000) * 1000)),
          evidence_url: `https://www.${competitor.slug}.example/${path}`,
          publisher: competitor.name,
          retrieved_at: null,
        });
      }
    }
  }
  return rows.sort((a, b) => (a.captured_at < b.captured_at ? -1 : a.captured_at > b.captured_at ? 1 : 0));
}

/**
 * The demo market: 150 verified clinic groups across the 30 EEA markets with uneven depth (ten
 * complete, fourteen partial, six not started), about 500 geocoded locations and about 10,000 price
 * observations, each with its evidence page. Observations are recorded in batches of 500.
 */
export async function seedMarket(seed: SeedContext): Promise<void> {
  const { random } = seed;
  const competitors = planCompetitors(random);
  const verified = await writeInGroups(
    seed,
    competitors,
    (_plan) => new Date(VERIFIED_FROM + random.int(0, 50) * DAY),
    (commands, plan) =>
      verifyCompetitor(commands, {
        name: plan.name,
        website: `https://www.${plan.slug}.example/`,
        headquarters_country: plan.home,
        verified_on: isoDate(commands.clock.now()),
        source_url: `https://www.${plan.slug}.example/about`,
      }),
  );
  competitors.forEach((plan, index) => (plan.id = (verified[index] as { id: number }).id));

  const planned = planLocations(random, competitors);
  const geocoded = await writeInGroups(
    seed,
    planned,
    () => new Date(VERIFIED_FROM + random.int(51, 60) * DAY),
    (commands, plan) => {
      const [, lat, lng] = (DEMO_CITIES[plan.country] ?? []).find(([city]) => city === plan.city) as [
        string,
        number,
        number,
      ];
      return geocodeLocation(commands, {
        competitor_id: plan.competitor.id,
        name: `${plan.competitor.name} ${plan.city}`,
        address: `${random.int(1, 180)} ${random.pick(STREETS)}, ${plan.city}`,
        city: plan.city,
        country: plan.country,
        lat: Math.round((lat + (random.float() - 0.5) * 0.08) * 1e5) / 1e5,
        lng: Math.round((lng + (random.float() - 0.5) * 0.12) * 1e5) / 1e5,
        source_url: `https://www.${plan.competitor.slug}.example/locations/${slugify(plan.city)}`,
        geocoded_on: isoDate(commands.clock.now()),
      });
    },
  );
  const locations = planned.map((plan, index) => ({ ...plan, id: (geocoded[index] as { id: number }).id }));

  const facts: ObservationFacts = {
    competitors: new Map(competitors.map((plan) => [plan.id, { name: plan.name }])),
    locations: new Map(
      locations.map((plan) => [
        plan.id,
        { competitor_id: plan.competitor.id, country: plan.country, city: plan.city },
      ]),
    ),
  };
  const rows = planObservations(random, locations);
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    // A batch is recorded when its last price was read, an hour later.
    seed.at(new Date(Date.parse((batch[batch.length - 1] as ObservationInput).captured_at) + 3_600_000));
    await recordObservations(seed.commands, batch, facts);
  }
}

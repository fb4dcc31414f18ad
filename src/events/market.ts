import { z } from 'zod';
import { MARKET_CODES } from '../market/markets';
import { SESSION_ID } from '../market/session';
import { TREATMENT_TYPES } from '../market/treatments';
import { defineEvent, type EventsOf } from './catalog';

const id = z.number().int().positive();
const country = z.enum(MARKET_CODES);
const url = z.string().url();
const timestamp = z.string();
const date = z.string().meta({ description: 'YYYY-MM-DD' });

export const COLLECTION_STATUSES = ['not_started', 'partial', 'complete'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

/** The assistant's workspaces: which figures a question is read against by default. */
export const WORKSPACES = ['pricing', 'competitors', 'coverage'] as const;
export type Workspace = (typeof WORKSPACES)[number];
export const ANSWER_STATUSES = ['answered', 'refused', 'failed', 'cancelled'] as const;

const TreatmentFigures = z.object({
  treatment: z.string(),
  name: z.string(),
  treatment_type: z.enum(TREATMENT_TYPES),
  currency: z.string(),
  observation_count: z.number().int(),
  competitor_count: z.number().int(),
  market_median: z.number(),
  /** Against the median of the same treatment's market medians in markets of the same currency. */
  relative_price_level: z.number().nullable(),
});

const PriceLevel = z.object({
  competitor_id: id,
  competitor_name: z.string(),
  treatment: z.string(),
  treatment_type: z.enum(TREATMENT_TYPES),
  currency: z.string(),
  observation_count: z.number().int(),
  competitor_median: z.number(),
  market_median: z.number(),
  price_index: z.number(),
});

export const MarketFigures = z.object({
  country,
  as_of: date.nullable(),
  status: z.enum(COLLECTION_STATUSES),
  observation_count: z.number().int(),
  competitor_count: z.number().int(),
  location_count: z.number().int(),
  source_count: z.number().int(),
  treatments_covered: z.number().int(),
  treatments_complete: z.number().int(),
  newest_evidence_on: date.nullable(),
  oldest_evidence_on: date.nullable(),
  freshness_days: z.number().int().nullable(),
  oldest_evidence_days: z.number().int().nullable(),
  treatments: z.array(TreatmentFigures),
  price_levels: z.array(PriceLevel),
});
export type MarketFigures = z.infer<typeof MarketFigures>;

const Citation = z.object({ url, publisher: z.string(), observation_count: z.number().int() });

/**
 * No personal data is declared here: competitors and their locations are businesses, and users appear
 * only by id (see docs/PERSONAL-DATA.md).
 */
export const marketEvents = [
  defineEvent(
    'CompetitorVerified',
    z.object({
      id,
      name: z.string().min(1),
      website: url,
      headquarters_country: country,
      verified_on: date,
      source_url: url,
    }),
  ),
  defineEvent(
    'LocationGeocoded',
    z.object({
      id,
      competitor_id: id,
      competitor_name: z.string(),
      name: z.string().min(1),
      address: z.string(),
      city: z.string().min(1),
      country,
      lat: z.number().min(-90).max(90),
      lng: z.number().min(-180).max(180),
      source_url: url,
      geocoded_on: date,
    }),
  ),
  defineEvent(
    'PriceObserved',
    z.object({
      id,
      competitor_id: id,
      competitor_name: z.string(),
      location_id: id,
      country,
      city: z.string(),
      treatment: z.string(),
      treatment_name: z.string(),
      treatment_type: z.enum(TREATMENT_TYPES),
      price: z.number().positive(),
      currency: z.string().length(3),
      captured_at: timestamp,
      evidence_url: url,
      publisher: z.string().min(1),
      retrieved_at: timestamp,
    }),
  ),
  defineEvent('MarketFiguresComputed', MarketFigures.extend({ sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  defineEvent(
    'ThreadStarted',
    z.object({ id: z.string(), user_id: z.string(), workspace: z.enum(WORKSPACES), started_at: timestamp }),
  ),
  defineEvent(
    'QuestionAsked',
    z.object({ message_id: z.string(), question: z.string(), country, asked_at: timestamp }),
  ),
  defineEvent(
    'AnswerGiven',
    z.object({
      message_id: z.string(),
      status: z.enum(ANSWER_STATUSES),
      answer: z.string(),
      plan: z.record(z.string(), z.unknown()).nullable(),
      citations: z.array(Citation),
      answered_at: timestamp,
    }),
  ),
  defineEvent(
    'SessionStarted',
    z.object({ session_id: z.string().regex(SESSION_ID), user_id: z.string(), expires_at: timestamp }),
  ),
  defineEvent('SessionEnded', z.object({ session_id: z.string().regex(SESSION_ID), user_id: z.string() })),
] as const;

export type MarketEvent = EventsOf<typeof marketEvents>;
export type MarketEventOf<Type extends MarketEvent['type']> = Extract<MarketEvent, { type: Type }>;

export const marketCategories = {
  competitor: 'market.competitor',
  location: 'market.location',
  /** Observations arrive in batches; a batch's stream is numbered by the last observation id it holds. */
  batch: 'market.batch',
} as const;

export const marketStreams = {
  competitor: (competitorId: number) => `market.competitor-${competitorId}`,
  location: (locationId: number) => `market.location-${locationId}`,
  batch: (lastObservationId: number) => `market.batch-${lastObservationId}`,
  figures: 'market.figures',
  thread: (threadId: string) => `market.thread-${threadId}`,
  /** A session's sign-in and sign-out; the id is the one its cookie carries. */
  session: (sessionId: string) => `market.session-${sessionId}`,
};

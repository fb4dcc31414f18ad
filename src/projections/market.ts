import { z } from 'zod';
import type { StoredEvent } from '../events/envelope';
import { ANSWER_STATUSES, MarketFigures, WORKSPACES, type MarketEvent } from '../events/market';
import { MARKET_CODES } from '../market/markets';
import { TREATMENT_TYPES } from '../market/treatments';
import { id, oneOf, text, timestamp, date } from './fields';
import { idFromStream, type DocumentProjection, type Projector } from './projection';
import type { CollectionDefinition } from './read-store';

export const CompetitorRecord = z
  .object({
    id,
    name: text,
    website: text,
    headquarters_country: oneOf(MARKET_CODES),
    verified_on: date,
    source_url: text.meta({ description: 'Public page the verification rests on' }),
    countries: z.array(text).meta({ description: 'Markets where it has geocoded locations' }),
    location_count: z.number().int(),
    observation_count: z.number().int(),
  })
  .meta({ id: 'Competitor' });

export const LocationRecord = z
  .object({
    id,
    competitor_id: id,
    competitor_name: text,
    name: text,
    address: text,
    city: text,
    country: oneOf(MARKET_CODES),
    lat: z.number(),
    lng: z.number(),
    source_url: text,
    geocoded_on: date,
    observation_count: z.number().int(),
  })
  .meta({ id: 'Location' });

export const ObservationRecord = z
  .object({
    id,
    competitor_id: id,
    competitor_name: text,
    location_id: id,
    country: oneOf(MARKET_CODES),
    city: text,
    treatment: text.meta({ description: 'Treatment code from the catalogue' }),
    treatment_name: text,
    treatment_type: oneOf(TREATMENT_TYPES),
    price: z.number().meta({ description: 'Decimal amount in `currency`, within its ISO 4217 minor units' }),
    currency: text.meta({ description: 'ISO 4217, the currency of the market' }),
    captured_at: timestamp,
    evidence_url: text.meta({ description: 'The public page the price was read from' }),
    publisher: text,
    retrieved_at: timestamp,
  })
  .meta({ id: 'Observation' });

/** An evidence source as stored; freshness is added when read, against the data's as-of date. */
export const SourceDocument = z.object({
  url: text,
  publisher: text,
  country: oneOf(MARKET_CODES),
  competitor_id: id,
  first_retrieved_at: timestamp,
  retrieved_at: timestamp,
  observation_count: z.number().int(),
});

export const FiguresRecord = MarketFigures.extend({ sha256: text }).meta({ id: 'MarketFigures' });

export const MessageRecord = z.object({
  message_id: text,
  question: text,
  country: text,
  asked_at: timestamp,
  status: oneOf(ANSWER_STATUSES).nullable(),
  answer: text.nullable(),
  plan: z.record(z.string(), z.unknown()).nullable(),
  citations: z.array(z.object({ url: text, publisher: text, observation_count: z.number().int() })),
  answered_at: timestamp.nullable(),
});

export const ThreadRecord = z
  .object({
    id: text,
    user_id: text,
    workspace: oneOf(WORKSPACES),
    started_at: timestamp,
    updated_at: timestamp,
    messages: z.array(MessageRecord),
  })
  .meta({ id: 'Thread' });

/** A signed-in session, kept so the access check can refuse a cookie once it is signed out. */
export type SessionRecord = {
  id: string;
  user_id: string;
  /** `null` for a session whose start was not recorded (a cookie minted by the CLI). */
  expires_at: string | null;
  ended_at: string | null;
};

export type CompetitorRecord = z.infer<typeof CompetitorRecord>;
export type LocationRecord = z.infer<typeof LocationRecord>;
export type ObservationRecord = z.infer<typeof ObservationRecord>;
export type SourceDocument = z.infer<typeof SourceDocument>;
export type FiguresRecord = z.infer<typeof FiguresRecord>;
export type ThreadRecord = z.infer<typeof ThreadRecord>;

export const MARKET_COLLECTIONS = {
  competitors: 'market.competitors',
  locations: 'market.locations',
  observations: 'market.observations',
  sources: 'market.sources',
  figures: 'market.figures',
  threads: 'market.threads',
  sessions: 'market.sessions',
} as const;

export const marketCollections: readonly CollectionDefinition[] = [
  {
    name: MARKET_COLLECTIONS.competitors,
    idKind: 'integer',
    searchFields: ['name', 'website'],
    filterFields: ['headquarters_country'],
  },
  {
    name: MARKET_COLLECTIONS.locations,
    idKind: 'integer',
    searchFields: ['name', 'city', 'address', 'competitor_name'],
    filterFields: ['country', 'competitor_id', 'city'],
  },
  {
    name: MARKET_COLLECTIONS.observations,
    idKind: 'integer',
    searchFields: ['treatment_name', 'competitor_name', 'city'],
    filterFields: ['country', 'treatment', 'treatment_type', 'competitor_id'],
  },
  {
    name: MARKET_COLLECTIONS.sources,
    idKind: 'string',
    searchFields: ['url', 'publisher'],
    filterFields: ['country', 'competitor_id'],
  },
  { name: MARKET_COLLECTIONS.figures, idKind: 'string', searchFields: [], filterFields: [] },
  { name: MARKET_COLLECTIONS.threads, idKind: 'string', searchFields: [], filterFields: ['user_id'] },
  { name: MARKET_COLLECTIONS.sessions, idKind: 'string', searchFields: [], filterFields: ['user_id'] },
];

type Event = StoredEvent & MarketEvent;
type Of<Type extends Event['type']> = Extract<Event, { type: Type }>;

const competitors: DocumentProjection<CompetitorRecord> = {
  collection: MARKET_COLLECTIONS.competitors,
  handles: ['CompetitorVerified', 'LocationGeocoded', 'PriceObserved'],
  documentId: (event) =>
    event.type === 'CompetitorVerified'
      ? idFromStream(event)
      : (event as Of<'PriceObserved'>).data.competitor_id,
  evolve(doc, stored) {
    const event = stored as Event;
    if (event.type === 'CompetitorVerified') {
      return { ...event.data, countries: [], location_count: 0, observation_count: 0 };
    }
    if (!doc) return null;
    if (event.type === 'LocationGeocoded') {
      const countries = [...new Set([...doc.countries, event.data.country])].sort();
      return { ...doc, countries, location_count: doc.location_count + 1 };
    }
    return { ...doc, observation_count: doc.observation_count + 1 };
  },
};

const locations: DocumentProjection<LocationRecord> = {
  collection: MARKET_COLLECTIONS.locations,
  handles: ['LocationGeocoded', 'PriceObserved'],
  documentId: (event) =>
    event.type === 'LocationGeocoded' ? idFromStream(event) : (event as Of<'PriceObserved'>).data.location_id,
  evolve(doc, stored) {
    const event = stored as Event;
    if (event.type === 'LocationGeocoded') return { ...event.data, observation_count: 0 };
    return doc && { ...doc, observation_count: doc.observation_count + 1 };
  },
};

const observations: DocumentProjection<ObservationRecord> = {
  collection: MARKET_COLLECTIONS.observations,
  handles: ['PriceObserved'],
  documentId: (event) => (event as Of<'PriceObserved'>).data.id,
  evolve: (_doc, event) => (event as Of<'PriceObserved'>).data,
};

const sources: DocumentProjection<SourceDocument> = {
  collection: MARKET_COLLECTIONS.sources,
  handles: ['PriceObserved'],
  documentId: (event) => (event as Of<'PriceObserved'>).data.evidence_url,
  evolve(doc, stored) {
    const { data } = stored as Of<'PriceObserved'>;
    if (!doc) {
      return {
        url: data.evidence_url,
        publisher: data.publisher,
        country: data.country,
        competitor_id: data.competitor_id,
        first_retrieved_at: data.retrieved_at,
        retrieved_at: data.retrieved_at,
        observation_count: 1,
      };
    }
    return {
      ...doc,
      first_retrieved_at:
        data.retrieved_at < doc.first_retrieved_at ? data.retrieved_at : doc.first_retrieved_at,
      retrieved_at: data.retrieved_at > doc.retrieved_at ? data.retrieved_at : doc.retrieved_at,
      observation_count: doc.observation_count + 1,
    };
  },
};

const figures: DocumentProjection<FiguresRecord> = {
  collection: MARKET_COLLECTIONS.figures,
  handles: ['MarketFiguresComputed'],
  documentId: (event) => (event as Of<'MarketFiguresComputed'>).data.country,
  evolve: (_doc, event) => (event as Of<'MarketFiguresComputed'>).data,
};

const threads: DocumentProjection<ThreadRecord> = {
  collection: MARKET_COLLECTIONS.threads,
  handles: ['ThreadStarted', 'QuestionAsked', 'AnswerGiven'],
  documentId: (event) => event.stream.slice('market.thread-'.length),
  ownUpdatedAt: true,
  evolve(doc, stored) {
    const event = stored as Event;
    const at = event.metadata.occurred_at;
    if (event.type === 'ThreadStarted') return { ...event.data, updated_at: at, messages: [] };
    if (!doc) return null;
    if (event.type === 'QuestionAsked') {
      const message = {
        ...event.data,
        status: null,
        answer: null,
        plan: null,
        citations: [],
        answered_at: null,
      };
      return { ...doc, updated_at: at, messages: [...doc.messages, message] };
    }
    if (event.type !== 'AnswerGiven') return doc;
    const { message_id, ...answer } = event.data;
    const messages = doc.messages.map((message) =>
      message.message_id === message_id ? { ...message, ...answer } : message,
    );
    return { ...doc, updated_at: at, messages };
  },
};

const sessions: DocumentProjection<SessionRecord> = {
  collection: MARKET_COLLECTIONS.sessions,
  handles: ['SessionStarted', 'SessionEnded'],
  documentId: (event) => (event as Of<'SessionStarted' | 'SessionEnded'>).data.session_id,
  evolve(doc, stored) {
    const event = stored as Of<'SessionStarted' | 'SessionEnded'>;
    const { session_id: id, user_id } = event.data;
    if (event.type === 'SessionStarted') {
      return { id, user_id, expires_at: event.data.expires_at, ended_at: null };
    }
    return { id, user_id, expires_at: doc?.expires_at ?? null, ended_at: event.metadata.occurred_at };
  },
};

export const marketProjector: Projector = {
  name: 'market',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [competitors, locations, observations, sources, figures, threads, sessions],
};

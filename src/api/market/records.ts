import { z } from 'zod';
import type { FeedResource } from '../../changes/change';
import { TREATMENT_CODES, TREATMENT_TYPES, treatmentOf } from '../../market/treatments';
import { figuresByMarket, readAll } from '../../market/read-models';
import {
  CompetitorRecord,
  LocationRecord,
  MARKET_COLLECTIONS,
  marketProjector,
  ObservationRecord,
  type CompetitorRecord as Competitor,
  type LocationRecord as Location,
} from '../../projections/market';
import { ApiError, validationError } from '../kit/errors';
import { PageMeta } from '../kit/list-order';
import { withRecordTimes } from '../kit/record-times';
import type { ModuleRoute } from '../kit/module';
import { caseInsensitiveEnum, queryFilters } from '../kit/parameters';
import { asOfAnswer, moduleRecord, TimeTravelQuery, travelledAnswer, travels } from '../kit/time-travel';
import { countryParameter, listBody, listSchema, ordering, paging, storedPage } from './parameters';
import { shortened } from '../kit/validation';

const invalid = { description: 'Invalid parameter (unknown market code, bad paging)' };
const competitorId = () =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'Input should be a competitor id (a positive integer)')
    .transform(Number);

const CompetitorQuery = z.strictObject({
  ...paging(),
  ...ordering(MARKET_COLLECTIONS.competitors),
  q: z.string().optional().meta({ description: 'Case-insensitive search in name and website' }),
  country: countryParameter().optional().meta({ description: 'Competitors with a location in this market' }),
});

const competitors: ModuleRoute<z.infer<typeof CompetitorQuery>> = {
  method: 'get',
  path: '/api/competitors',
  operation: 'listCompetitors',
  summary: 'Search verified competitors',
  tags: ['competitors'],
  query: CompetitorQuery,
  responses: {
    200: {
      description: 'A page of competitors, by id',
      schema: listSchema(CompetitorRecord, 'CompetitorList'),
    },
    422: invalid,
  },
  async handle({ query }, { readStore }) {
    const page = storedPage(MARKET_COLLECTIONS.competitors, query);
    const q = query.q?.trim() || undefined;
    const { country } = query;
    if (!country) {
      const found = await readStore.find(MARKET_COLLECTIONS.competitors, { q, ...page });
      return {
        status: 200,
        body: listBody(
          found.items.map((item) => JSON.parse(item) as Competitor),
          found.total,
          page,
          found.next,
        ),
      };
    }
    if (page.sort || page.after) {
      throw validationError([
        {
          loc: ['query', 'country'],
          msg: 'A list of one market is paged by offset, in id order: it takes neither sort nor after',
          type: 'sort_field',
          input: country,
        },
      ]);
    }
    // Operating markets are a list per competitor; 150-odd records are filtered here.
    const all = (await readAll<Competitor>(readStore, MARKET_COLLECTIONS.competitors, [], { q })).filter(
      (competitor) => competitor.countries.includes(country),
    );
    return {
      status: 200,
      body: listBody(all.slice(page.offset, page.offset + page.limit), all.length, page),
    };
  },
};

const PriceRow = z.object({
  country: z.string(),
  treatment: z.string(),
  treatment_type: z.string(),
  currency: z.string(),
  observation_count: z.number().int(),
  competitor_median: z.number(),
  market_median: z.number(),
  price_index: z.number().meta({ description: '100 x competitor median / market median' }),
});

const CompetitorDetail = CompetitorRecord.extend({
  locations: z.array(LocationRecord),
  prices: z.array(PriceRow),
}).meta({ id: 'CompetitorDetail' });

const competitor: ModuleRoute<TimeTravelQuery> = {
  method: 'get',
  path: '/api/competitors/:competitor_id',
  operation: 'getCompetitor',
  summary:
    'One competitor: its locations, treatment prices and relative price levels; with as_of, as_of_position or valid_at, the competitor record alone as it was then',
  tags: ['competitors'],
  params: z.object({
    competitor_id: z.number().int().min(1).max(999_999_999).meta({ description: 'Competitor id' }),
  }),
  query: TimeTravelQuery,
  responses: {
    200: {
      description:
        'The competitor (as of a point in time: its record under data, with meta naming the cut; locations and prices are views of today)',
      schema: z.union([withRecordTimes(CompetitorDetail), asOfAnswer(CompetitorRecord, 'CompetitorAsOf')]),
    },
    404: { description: 'No such competitor (then)' },
    422: invalid,
  },
  async handle({ params, query }, services) {
    const { readStore } = services;
    const parsed = competitorId().safeParse(params.competitor_id);
    if (!parsed.success) {
      throw new ApiError(
        'validation_error',
        'competitor_id: Input should be a competitor id (a positive integer)',
        {
          issues: [
            {
              loc: ['path', 'competitor_id'],
              msg: 'Input should be a positive integer',
              type: 'int_parsing',
              input: params.competitor_id,
            },
          ],
        },
      );
    }
    if (travels(query)) {
      const record = moduleRecord(
        { id: 'market', projector: marketProjector },
        MARKET_COLLECTIONS.competitors,
        parsed.data,
        { name: 'Competitor', path: 'competitors' },
      );
      return travelledAnswer(services, record, query, (doc) => doc);
    }
    const doc = await readStore.get(MARKET_COLLECTIONS.competitors, parsed.data);
    if (!doc)
      throw new ApiError('not_found', `Competitor ${shortened(params.competitor_id as string)} not found`);
    const record = JSON.parse(doc) as Competitor;
    const locations = await readAll<Location>(readStore, MARKET_COLLECTIONS.locations, [
      { field: 'competitor_id', op: 'eq', value: record.id },
    ]);
    const figures = await figuresByMarket(readStore);
    const prices = record.countries.flatMap((country) =>
      (figures.get(country as never)?.price_levels ?? [])
        .filter((level) => level.competitor_id === record.id)
        .map(({ competitor_id: _id, competitor_name: _name, ...level }) => ({ country, ...level })),
    );
    return { status: 200, body: { ...record, locations, prices } };
  },
};

const LocationQuery = z.strictObject({
  ...paging(1000),
  ...ordering(MARKET_COLLECTIONS.locations),
  country: countryParameter().optional(),
  competitor: competitorId()
    .optional()
    .meta({ type: 'integer', description: 'Locations of this competitor' }),
  format: z
    .enum(['json', 'geojson'])
    .optional()
    .meta({ description: '`geojson`: a GeoJSON FeatureCollection (default `json`)' }),
});

function feature(location: Location) {
  const { lat, lng, ...properties } = location;
  return {
    type: 'Feature',
    id: location.id,
    geometry: { type: 'Point', coordinates: [lng, lat] },
    properties,
  };
}

const LocationFeatures = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z.array(
      z.object({
        type: z.literal('Feature'),
        id: z.number().int(),
        geometry: z.object({
          type: z.literal('Point'),
          coordinates: z.array(z.number()).length(2).meta({ description: '[longitude, latitude]' }),
        }),
        properties: withRecordTimes(LocationRecord.omit({ lat: true, lng: true })),
      }),
    ),
    meta: PageMeta,
  })
  .meta({ id: 'LocationFeatureCollection' });

const locations: ModuleRoute<z.infer<typeof LocationQuery>> = {
  method: 'get',
  path: '/api/locations',
  operation: 'listLocations',
  summary: 'Geocoded provider locations for the map (list or GeoJSON)',
  tags: ['locations'],
  query: LocationQuery,
  responses: {
    200: {
      description: 'A page of locations; with `format=geojson` a FeatureCollection carrying the same `meta`',
      schema: z.union([listSchema(LocationRecord, 'LocationList'), LocationFeatures]),
    },
    422: invalid,
  },
  async handle({ query }, { readStore }) {
    const page = storedPage(MARKET_COLLECTIONS.locations, query);
    const filters = queryFilters(query, { country: 'country', competitor: 'competitor_id' });
    const found = await readStore.find(MARKET_COLLECTIONS.locations, { filters, ...page });
    const rows = found.items.map((item) => JSON.parse(item) as Location);
    const { meta } = listBody([], found.total, page, found.next);
    if (query.format === 'geojson') {
      return {
        status: 200,
        body: { type: 'FeatureCollection', features: rows.map(feature), meta },
      };
    }
    return { status: 200, body: { data: rows, meta } };
  },
};

const ObservationQuery = z.strictObject({
  ...paging(),
  ...ordering(MARKET_COLLECTIONS.observations),
  country: countryParameter().optional(),
  treatment: caseInsensitiveEnum(TREATMENT_CODES).optional().meta({ description: 'Treatment code' }),
  treatment_type: caseInsensitiveEnum(TREATMENT_TYPES).optional(),
  competitor: competitorId()
    .optional()
    .meta({ type: 'integer', description: 'Observations of this competitor' }),
});

const observations: ModuleRoute<z.infer<typeof ObservationQuery>> = {
  method: 'get',
  path: '/api/observations',
  operation: 'listObservations',
  summary: 'Observed treatment prices with their currency and evidence link',
  tags: ['observations'],
  query: ObservationQuery,
  responses: {
    200: {
      description: 'A page of observations, by id',
      schema: listSchema(ObservationRecord, 'ObservationList'),
    },
    422: invalid,
  },
  async handle({ query }, { readStore }) {
    const page = storedPage(MARKET_COLLECTIONS.observations, query);
    const filters = queryFilters(
      { ...query, treatment: query.treatment && (treatmentOf(query.treatment)?.code ?? '') },
      {
        country: 'country',
        treatment: 'treatment',
        treatment_type: 'treatment_type',
        competitor: 'competitor_id',
      },
    );
    const found = await readStore.find(MARKET_COLLECTIONS.observations, { filters, ...page });
    return {
      status: 200,
      body: listBody(
        found.items.map((item) => JSON.parse(item) as unknown),
        found.total,
        page,
        found.next,
      ),
    };
  },
};

export const recordRoutes = [competitors, competitor, locations, observations] as ModuleRoute[];

/** Competitors, locations and observations in the change feed, as their lists present them. */
export const recordChanges: FeedResource[] = [
  { path: 'competitors', name: 'Competitor', collection: MARKET_COLLECTIONS.competitors },
  { path: 'locations', name: 'Location', collection: MARKET_COLLECTIONS.locations },
  { path: 'observations', name: 'Observation', collection: MARKET_COLLECTIONS.observations },
].map((resource) => ({ ...resource, present: (doc) => doc }));

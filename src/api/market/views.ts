import { z } from 'zod';
import { COLLECTION_STATUSES, type MarketFigures } from '../../events/market';
import { MARKETS, MARKET_CODES, type MarketCode } from '../../market/markets';
import { asOfDate, countOf, figuresByMarket, readAll } from '../../market/read-models';
import {
  MARKET_COLLECTIONS,
  type CompetitorRecord,
  type FiguresRecord,
  type SourceDocument,
} from '../../projections/market';
import type { Filter } from '../../projections/read-store';
import type { ModuleRoute } from '../kit/module';
import { queryFilters } from '../kit/parameters';
import { countryParameter, listBody, listSchema, ordering, paging, storedPage } from './parameters';

const DAY = 86_400_000;
const invalid = { description: 'Invalid parameter (unknown market code, bad paging)' };

/** A market before any figures were computed for it: nothing collected yet. */
function emptyFigures(country: MarketCode): MarketFigures {
  return {
    country,
    as_of: null,
    status: 'not_started',
    observation_count: 0,
    competitor_count: 0,
    location_count: 0,
    source_count: 0,
    treatments_covered: 0,
    treatments_complete: 0,
    newest_evidence_on: null,
    oldest_evidence_on: null,
    freshness_days: null,
    oldest_evidence_days: null,
    treatments: [],
    price_levels: [],
  };
}

const CountryQuery = z.strictObject({ country: countryParameter().optional() });

const Overview = z
  .object({
    country: z.string().nullable(),
    as_of: z.string().nullable().meta({ description: 'Day of the newest observation' }),
    competitors: z
      .number()
      .int()
      .meta({ description: 'Verified competitors (with a location in the market)' }),
    locations: z.number().int(),
    observations: z.number().int(),
    sources: z.number().int().meta({ description: 'Retained evidence sources' }),
    markets: z.record(z.enum(COLLECTION_STATUSES), z.number().int()),
  })
  .meta({ id: 'MarketOverview' });

const overview: ModuleRoute<z.infer<typeof CountryQuery>> = {
  method: 'get',
  path: '/api/overview',
  operation: 'getOverview',
  summary: 'Verified competitors, locations, observations and retained sources, for one market or all',
  tags: ['overview'],
  query: CountryQuery,
  responses: { 200: { description: 'Overview', schema: Overview }, 422: invalid },
  async handle({ query }, { readStore }) {
    const country = query.country;
    const filters: Filter[] = country ? [{ field: 'country', op: 'eq', value: country }] : [];
    const competitors = await readAll<CompetitorRecord>(readStore, MARKET_COLLECTIONS.competitors);
    const figures = await figuresByMarket(readStore);
    const markets = Object.fromEntries(COLLECTION_STATUSES.map((status) => [status, 0])) as Record<
      string,
      number
    >;
    for (const code of country ? [country] : MARKET_CODES) {
      const status = figures.get(code)?.status ?? 'not_started';
      markets[status] = (markets[status] ?? 0) + 1;
    }
    return {
      status: 200,
      body: {
        country: country ?? null,
        as_of: await asOfDate(readStore),
        competitors: country
          ? competitors.filter((competitor) => competitor.countries.includes(country)).length
          : competitors.length,
        locations: await countOf(readStore, MARKET_COLLECTIONS.locations, filters),
        observations: await countOf(readStore, MARKET_COLLECTIONS.observations, filters),
        sources: await countOf(readStore, MARKET_COLLECTIONS.sources, filters),
        markets,
      },
    };
  },
};

interface TreemapNode {
  name: string;
  code?: string;
  size: number;
  colour: number | null;
  children?: TreemapNode[];
}

const TreemapNodeSchema: z.ZodType<TreemapNode> = z
  .object({
    name: z.string(),
    code: z.string().optional(),
    size: z.number().int().meta({ description: 'Observation count' }),
    colour: z.number().nullable().meta({ description: 'Relative price level (100 = peer median)' }),
    get children() {
      return z.array(TreemapNodeSchema).optional();
    },
  })
  .meta({ id: 'TreemapNode' });

/** The median of the children's colours, weighted by nothing: a parent is as dear as its typical child. */
function middle(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (known.length === 0) return null;
  const half = Math.floor(known.length / 2);
  const value =
    known.length % 2 ? (known[half] as number) : ((known[half - 1] as number) + (known[half] as number)) / 2;
  return Math.round(value * 10) / 10;
}

function marketNode(figures: MarketFigures): TreemapNode {
  const types = new Map<string, TreemapNode[]>();
  for (const row of figures.treatments) {
    const leaf = {
      name: row.name,
      code: row.treatment,
      size: row.observation_count,
      colour: row.relative_price_level,
    };
    types.set(row.treatment_type, [...(types.get(row.treatment_type) ?? []), leaf]);
  }
  const children = [...types].map(([type, leaves]) => ({
    name: type,
    size: leaves.reduce((sum, leaf) => sum + leaf.size, 0),
    colour: middle(leaves.map((leaf) => leaf.colour)),
    children: leaves,
  }));
  return {
    name: MARKETS[figures.country].name,
    code: figures.country,
    size: figures.observation_count,
    colour: middle(children.map((child) => child.colour)),
    children,
  };
}

const treemap: ModuleRoute<z.infer<typeof CountryQuery>> = {
  method: 'get',
  path: '/api/treemap',
  operation: 'getTreemap',
  summary: 'Country > treatment type > treatment, sized by observations, coloured by relative price level',
  tags: ['treemap'],
  query: CountryQuery,
  responses: {
    200: {
      description:
        "Root node; a leaf's colour is its market median against the median of the same treatment's " +
        'market medians in the markets sharing its currency (null without such a peer)',
      schema: TreemapNodeSchema,
    },
    422: invalid,
  },
  async handle({ query }, { readStore }) {
    const figures = await figuresByMarket(readStore);
    const markets = (query.country ? [query.country] : MARKET_CODES)
      .map((code) => figures.get(code))
      .filter((market): market is FiguresRecord => market !== undefined && market.observation_count > 0)
      .map(marketNode);
    const root = {
      name: 'EEA',
      size: markets.reduce((sum, market) => sum + market.size, 0),
      colour: null,
      children: markets,
    };
    return { status: 200, body: root };
  },
};

const CoverageRow = z
  .object({
    country: z.string(),
    name: z.string(),
    currency: z.string(),
    status: z.enum(COLLECTION_STATUSES),
    observation_count: z.number().int(),
    competitor_count: z.number().int(),
    location_count: z.number().int(),
    source_count: z.number().int(),
    treatments_covered: z.number().int(),
    treatments_complete: z
      .number()
      .int()
      .meta({ description: 'Treatments with prices of at least 3 competitors' }),
    newest_evidence_on: z.string().nullable(),
    oldest_evidence_on: z.string().nullable(),
    freshness_days: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Age of the newest evidence at the as-of date' }),
    oldest_evidence_days: z.number().int().nullable(),
    as_of: z.string().nullable(),
    sha256: z.string().optional().meta({ description: "SHA-256 of the market's computed figures" }),
  })
  .meta({ id: 'MarketCoverage' });

/** A market's figures without its per-treatment rows: what the coverage table shows. */
const depthOf = ({ treatments: _treatments, price_levels: _levels, ...depth }: MarketFigures) => depth;

const coverage: ModuleRoute<z.infer<typeof CountryQuery>> = {
  method: 'get',
  path: '/api/coverage',
  operation: 'listCoverage',
  summary: 'Collection status and evidence depth of the 30 EEA markets',
  tags: ['coverage'],
  query: CountryQuery,
  responses: {
    200: { description: 'One row per market', schema: listSchema(CoverageRow, 'MarketCoverageList') },
    422: invalid,
  },
  async handle({ query }, { readStore }) {
    const figures = await figuresByMarket(readStore);
    const rows = (query.country ? [query.country] : MARKET_CODES).map((code) => {
      return {
        ...depthOf(figures.get(code) ?? emptyFigures(code)),
        name: MARKETS[code].name,
        currency: MARKETS[code].currency,
      };
    });
    return { status: 200, body: listBody(rows, rows.length, { limit: rows.length, offset: 0 }) };
  },
};

const EvidenceQuery = z.strictObject({
  ...paging(),
  ...ordering(MARKET_COLLECTIONS.sources),
  country: countryParameter().optional(),
  competitor: z.string().regex(/^\d+$/, 'Input should be a competitor id').transform(Number).optional(),
  q: z.string().optional().meta({ description: 'Case-insensitive search in URL and publisher' }),
});

const EvidenceRow = z
  .object({
    url: z.string(),
    publisher: z.string(),
    country: z.string(),
    competitor_id: z.number().int(),
    first_retrieved_at: z.string(),
    retrieved_at: z.string(),
    freshness_days: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Days from the last retrieval to the as-of date' }),
    observation_count: z.number().int().meta({ description: 'Observations citing this source' }),
  })
  .meta({ id: 'EvidenceSource' });

const evidence: ModuleRoute<z.infer<typeof EvidenceQuery>> = {
  method: 'get',
  path: '/api/evidence',
  operation: 'listEvidence',
  summary: "Retained public sources, with freshness against the data's as-of date",
  tags: ['evidence'],
  query: EvidenceQuery,
  responses: {
    200: { description: 'A page of sources, by URL', schema: listSchema(EvidenceRow, 'EvidenceList') },
    422: invalid,
  },
  async handle({ query }, { readStore }) {
    const page = storedPage(MARKET_COLLECTIONS.sources, query);
    const filters = queryFilters(query, { country: 'country', competitor: 'competitor_id' });
    const found = await readStore.find(MARKET_COLLECTIONS.sources, {
      filters,
      q: query.q?.trim() || undefined,
      ...page,
    });
    const asOf = await asOfDate(readStore);
    const data = found.items.map((item) => {
      const source = JSON.parse(item) as SourceDocument;
      const freshness =
        asOf === null
          ? null
          : Math.round((Date.parse(asOf) - Date.parse(source.retrieved_at.slice(0, 10))) / DAY);
      return { ...source, freshness_days: freshness };
    });
    return { status: 200, body: listBody(data, found.total, page, found.next) };
  },
};

export const viewRoutes = [overview, treemap, coverage, evidence] as ModuleRoute[];

import type { Workspace } from '../../events/market';
import type { MarketCode } from '../markets';
import { TREATMENTS, TREATMENT_TYPES, type TreatmentType } from '../treatments';

/** What the assistant can compute: the allowlist a plan is built from, and nothing else. */
export const METRICS = [
  'median_price',
  'price_index',
  'observation_count',
  'competitor_count',
  'coverage',
] as const;
export const DIMENSIONS = ['country', 'treatment_type', 'treatment', 'competitor', 'city'] as const;
export type Metric = (typeof METRICS)[number];
export type Dimension = (typeof DIMENSIONS)[number];

/** Bounds every plan carries: observations read, rows answered, time spent. */
export const ROW_LIMIT = 20_000;
export const TOP_ROWS = 25;
export const QUERY_TIME_LIMIT_MS = 5_000;

export interface AnalysisPlan {
  metric: Metric;
  dimension: Dimension;
  filters: { country: MarketCode; treatment: string | null; treatment_type: TreatmentType | null };
  /** `eea`: compares markets (dimension country); `market`: within the asked market. */
  scope: 'market' | 'eea';
  bounds: { row_limit: number; top: number; time_limit_ms: number };
}

export type Planned = { ok: true; plan: AnalysisPlan } | { ok: false; reason: string };

const METRIC_RULES: readonly [Metric, RegExp][] = [
  ['coverage', /\bcoverage\b|\bcollection status\b|\bcollected\b|\bcomplete\b|\bnot started\b/],
  [
    'price_index',
    /\bprice (index|level)s?\b|\brelative price\b|\bindex\b|\bexpensive\b|\bcheap(er|est)?\b|\bpremium\b|\bdearest\b/,
  ],
  [
    'competitor_count',
    /\b(how many|number of|count of) (competitors|clinics|clinic groups|providers)\b|\bcompetitor count\b/,
  ],
  [
    'observation_count',
    /\b(how many|number of|count of) (observations|prices|data points)\b|\bobservation count\b|\bobservations\b/,
  ],
  ['median_price', /\bmedian\b|\bprices?\b|\bcosts?\b|\bhow much\b|\bfees?\b|\bcharge\b/],
];

const DIMENSION_RULES: readonly [Dimension, RegExp][] = [
  [
    'country',
    /\b(by|per|across|between|each|every|which|compare|all) (countries|country|markets|market)\b|\bcountries\b|\bmarkets\b/,
  ],
  ['treatment_type', /\btreatment types?\b|\b(by|per) type\b|\bcategor(y|ies)\b/],
  ['city', /\bcit(y|ies)\b/],
  [
    'competitor',
    /\b(by|per|each|which) (competitor|clinic|provider|group)s?\b|\bcompetitors\b|\bclinic groups\b|\bclinics\b|\bproviders\b/,
  ],
  ['treatment', /\b(by|per|each|which) treatments?\b|\btreatments\b/],
];

const TREATMENT_WORDS: readonly [string, RegExp][] = [
  ['dental-implant', /\bimplants?\b/],
  ['dental-crown', /\bcrowns?\b/],
  ['root-canal', /\broot canals?\b/],
  ['teeth-whitening', /\bwhitening\b/],
  ['botulinum-one-area', /\bbotox\b|\bbotulinum\b/],
  ['filler-1ml', /\bfillers?\b|\bhyaluronic\b/],
  ['chemical-peel', /\bpeels?\b/],
  ['laser-hair-legs', /\bhair removal\b/],
  ['laser-resurfacing', /\bresurfacing\b/],
  ['lasik-both-eyes', /\blasik\b/],
  ['cataract-one-eye', /\bcataracts?\b/],
  ['ivf-cycle', /\bivf\b|\bin vitro\b/],
];

const TYPE_WORDS: readonly [TreatmentType, RegExp][] = [
  ['Dental', /\bdental\b|\bdentistry\b|\bteeth\b/],
  ['Aesthetic', /\baesthetics?\b|\binjectables?\b/],
  ['Laser', /\blaser\b/],
  ['Eye surgery', /\beye\b|\bvision\b/],
  ['Fertility', /\bfertility\b/],
];

/** Words of figures the data set does not hold; naming them gets a refusal that says so. */
const OUTSIDE =
  /\b(revenue|turnover|profits?|margins?|patients?|salar(y|ies)|staff|employees|reviews?|ratings?|market share|forecasts?|predict\w*|weather|stock)\b/;
/** Attempts to hand the service query text or reach its storage. */
const QUERY_TEXT =
  /\b(select|insert|update|delete|drop|alter)\b.*\b(from|into|table|set|where)\b|\b(sql|json_extract|sqlite|mongodb)\b|;|--/;

/** Which dimensions each metric can be broken down by. */
export const SUPPORTED: Readonly<Record<Metric, readonly Dimension[]>> = {
  median_price: ['treatment', 'competitor', 'city', 'country'],
  price_index: ['competitor', 'treatment', 'treatment_type', 'country'],
  observation_count: ['treatment', 'treatment_type', 'competitor', 'city', 'country'],
  competitor_count: ['treatment', 'treatment_type', 'city', 'country'],
  coverage: ['country'],
};

const DEFAULT_DIMENSION: Readonly<Record<Workspace, Readonly<Record<Metric, Dimension>>>> = {
  pricing: {
    median_price: 'treatment',
    price_index: 'treatment',
    observation_count: 'treatment',
    competitor_count: 'treatment',
    coverage: 'country',
  },
  competitors: {
    median_price: 'competitor',
    price_index: 'competitor',
    observation_count: 'competitor',
    competitor_count: 'city',
    coverage: 'country',
  },
  coverage: {
    median_price: 'treatment',
    price_index: 'treatment',
    observation_count: 'treatment_type',
    competitor_count: 'treatment_type',
    coverage: 'country',
  },
};

export const HELP =
  `I can answer with these metrics: ${METRICS.join(', ').replace(/_/g, ' ')}; ` +
  `broken down by: ${DIMENSIONS.join(', ').replace(/_/g, ' ')}; for one market, ` +
  `optionally one treatment (${TREATMENTS.map((treatment) => treatment.code).join(', ')}) ` +
  `or treatment type (${TREATMENT_TYPES.join(', ')}). ` +
  'For example: "Median price of dental implants by competitor" or "Which markets are complete?".';

const label = (text: string) => text.replace(/_/g, ' ');

/**
 * Turns a question into an analysis plan by fixed rules (no model involved): the first metric and
 * dimension whose words it uses, the treatment or type it names, the asked market, and the bounds.
 */
export function planQuestion(question: string, workspace: Workspace, country: MarketCode): Planned {
  const text = question.toLowerCase().replace(/\s+/g, ' ');
  if (QUERY_TEXT.test(text)) {
    return { ok: false, reason: `I only run my own bounded analyses and never take query text. ${HELP}` };
  }
  const outside = OUTSIDE.exec(text);
  if (outside) return { ok: false, reason: `The data holds no ${outside[0]} figures. ${HELP}` };
  const metric = METRIC_RULES.find(([, rule]) => rule.test(text))?.[0];
  if (!metric) return { ok: false, reason: `That question is outside what I can analyse. ${HELP}` };
  // The words that chose the metric ("how many clinics") do not choose the dimension too.
  const rest = text.replace(METRIC_RULES.find(([name]) => name === metric)?.[1] as RegExp, ' ');
  const named = DIMENSION_RULES.find(([, rule]) => rule.test(rest))?.[0];
  const dimension = metric === 'coverage' ? 'country' : (named ?? DEFAULT_DIMENSION[workspace][metric]);
  if (!SUPPORTED[metric].includes(dimension)) {
    return {
      ok: false,
      reason: `${label(metric)} cannot be broken down by ${label(dimension)}; use ${SUPPORTED[metric].map(label).join(', ')}. ${HELP}`,
    };
  }
  const treatment = TREATMENT_WORDS.find(([, rule]) => rule.test(text))?.[0] ?? null;
  const treatmentType = treatment ? null : (TYPE_WORDS.find(([, rule]) => rule.test(text))?.[0] ?? null);
  // Medians over different treatments, or across currencies, mean nothing without one treatment.
  if (metric === 'median_price' && dimension !== 'treatment' && !treatment) {
    return {
      ok: false,
      reason: `Name one treatment to compare median prices by ${label(dimension)} (for example "median price of LASIK by ${label(dimension)}"). ${HELP}`,
    };
  }
  if (metric === 'price_index' && dimension === 'country' && !treatment) {
    return { ok: false, reason: `Name one treatment to compare price levels across markets. ${HELP}` };
  }
  return {
    ok: true,
    plan: {
      metric,
      dimension,
      filters: { country, treatment, treatment_type: treatmentType },
      scope: dimension === 'country' ? 'eea' : 'market',
      // Coverage always shows every market.
      bounds: {
        row_limit: ROW_LIMIT,
        top: metric === 'coverage' ? 30 : TOP_ROWS,
        time_limit_ms: QUERY_TIME_LIMIT_MS,
      },
    },
  };
}

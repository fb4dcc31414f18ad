import { MARKETS } from '../markets';
import { TREATMENTS, treatmentOf } from '../treatments';
import type { AnalysisResult, ResultRow } from './execute';
import type { AnalysisPlan } from './plan';

const METRIC_TITLES = {
  median_price: 'Median price',
  price_index: 'Relative price level (100 = median)',
  observation_count: 'Observations',
  competitor_count: 'Competitors with prices',
  coverage: 'Treatments with prices of 3+ competitors',
} as const;

/** `1450.5` -> `1,450.50`; the same on every machine (no locale data). */
function amount(value: number, currency?: string): string {
  const decimals = currency === 'ISK' ? 0 : currency ? 2 : Number.isInteger(value) ? 0 : 1;
  const [whole, fraction] = value.toFixed(decimals).split('.');
  const grouped = (whole as string).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${grouped}${fraction ? `.${fraction}` : ''}${currency ? ` ${currency}` : ''}`;
}

function subject(plan: AnalysisPlan): string {
  const { country, treatment, treatment_type: type } = plan.filters;
  const what = treatment
    ? (treatmentOf(treatment)?.name ?? treatment)
    : type
      ? `${type} treatments`
      : 'all treatments';
  const where = plan.scope === 'eea' ? 'across the EEA markets' : `in ${MARKETS[country].name}`;
  return `${what} ${where}`;
}

const line = (row: ResultRow, index: number) =>
  row.status
    ? `${index + 1}. ${row.label}: ${row.status.replace('_', ' ')}, ${row.value} of ${TREATMENTS.length} treatments complete (${row.observation_count} observations)`
    : `${index + 1}. ${row.label}: ${amount(row.value, row.currency)} (${row.observation_count} observations)`;

/** The answer's text: what was computed, over what, and the rows, highest first. */
export function answerText(plan: AnalysisPlan, result: AnalysisResult): string {
  const title = METRIC_TITLES[plan.metric];
  if (result.rows.length === 0) {
    return `No data yet for ${METRIC_TITLES[plan.metric].toLowerCase()} of ${subject(plan)}: nothing has been collected for it.`;
  }
  const head =
    plan.metric === 'coverage'
      ? `Collection status of the 30 EEA markets (a market is complete once every treatment has prices of 3 or more competitors)`
      : `${title} of ${subject(plan)} by ${plan.dimension.replace('_', ' ')}`;
  const observations =
    plan.metric === 'coverage'
      ? result.rows.reduce((sum, row) => sum + row.observation_count, 0)
      : result.observations_read;
  const basis = `Based on ${observations} observations${result.as_of ? ` as of ${result.as_of}` : ''}${
    result.truncated ? `, the first ${plan.bounds.row_limit} only` : ''
  }.`;
  const currencies = new Set(result.rows.map((row) => row.currency).filter(Boolean));
  const ranked = currencies.size > 1 ? " Prices are in each market's currency and ranked within it." : '';
  const shown =
    result.total_rows > result.rows.length ? ` Top ${result.rows.length} of ${result.total_rows}:` : '';
  const index =
    plan.metric === 'price_index'
      ? ' An index is 100 x a median price / the reference median (the market median for competitors; the median of the same-currency markets for treatments and markets).'
      : '';
  return `${head}. ${basis}${ranked}${index}${shown}\n${result.rows.map(line).join('\n')}`;
}

/** A Vega-Lite bar chart of the result rows. */
export function visualOf(plan: AnalysisPlan, result: AnalysisResult): Record<string, unknown> {
  const title = METRIC_TITLES[plan.metric];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    description: `${title} of ${subject(plan)}`,
    data: {
      values: result.rows.map(({ label, value, currency, observation_count }) => ({
        label,
        value,
        currency: currency ?? null,
        observation_count,
      })),
    },
    mark: 'bar',
    encoding: {
      y: { field: 'label', type: 'nominal', sort: '-x', title: plan.dimension.replace('_', ' ') },
      x: { field: 'value', type: 'quantitative', title },
      tooltip: [
        { field: 'label', type: 'nominal' },
        { field: 'value', type: 'quantitative' },
        { field: 'observation_count', type: 'quantitative' },
      ],
    },
  };
}

/** The answer in the pieces the stream sends as `token` events: a few words each. */
export function tokens(text: string, wordsPerToken = 4): string[] {
  const words = text.split(/(?<=\s)/);
  const pieces: string[] = [];
  for (let index = 0; index < words.length; index += wordsPerToken)
    pieces.push(words.slice(index, index + wordsPerToken).join(''));
  return pieces;
}

import type { RequestListener } from 'node:http';
import request from 'supertest';
import { createModuleApp } from '../../src/api/kit/app';
import { marketModule } from '../../src/api/market';
import { geocodeLocation, recordObservations, verifyCompetitor } from '../../src/commands/market/handlers';
import type { ObservationInput } from '../../src/commands/market/observations';
import { signSession } from '../../src/market/session';
import type { SeedContext } from '../../src/seed/context';
import { NOW, TOKEN, type ModuleHarness } from './module-harness';

/** The market's data endpoints: each needs a credential (a session cookie or a bearer token). */
export const DATA_ENDPOINTS = [
  '/api/overview',
  '/api/treemap',
  '/api/competitors',
  '/api/competitors/1',
  '/api/locations',
  '/api/observations',
  '/api/coverage',
  '/api/evidence',
  '/api/threads',
];

export const SECRET = 'market-test-secret-0123456789abcdef';

/** The market app with sessions signed by SECRET (and the integrator token, unless `null`). */
export const marketApp = (
  harness: ModuleHarness<unknown>,
  apiToken: string | null = TOKEN,
): RequestListener =>
  createModuleApp(marketModule, harness.suite, { apiToken: apiToken ?? undefined, sessionSecret: SECRET });

/** A `Cookie` header for a user, valid for an hour after the harness clock's NOW. */
export const cookieFor = (userId: string, expiresAt = new Date(NOW.getTime() + 3_600_000)) =>
  `svc_session=${signSession(SECRET, userId, expiresAt)}`;

export const observation = (overrides: Partial<ObservationInput>): ObservationInput => ({
  country: 'DE',
  competitor_id: 1,
  location_id: 1,
  treatment: 'dental-implant',
  price: 1000,
  currency: 'EUR',
  captured_at: '2026-10-01',
  evidence_url: 'https://www.alpha-dental.example/de/prices/dental-implant',
  ...overrides,
});

/**
 * Three clinic groups: Alpha Dental (1, Berlin) and Beta Smile (2, Munich) in Germany, Gamma Care (3,
 * Vienna) in Austria. Dental implant prices: Alpha 1000 and 1200 (median 1100), Beta 1500, 1600 and
 * 1700 (median 1600): the German market median is 1500. Gamma in Austria: 1300.
 */
export async function writeMarketFixtures(seed: SeedContext): Promise<void> {
  const competitor = (name: string, country: 'DE' | 'AT') =>
    verifyCompetitor(seed.commands, {
      name,
      website: `https://www.${name.toLowerCase().replace(' ', '-')}.example/`,
      headquarters_country: country,
      verified_on: '2026-09-01',
      source_url: `https://www.${name.toLowerCase().replace(' ', '-')}.example/about`,
    });
  await competitor('Alpha Dental', 'DE');
  await competitor('Beta Smile', 'DE');
  await competitor('Gamma Care', 'AT');
  const location = (competitorId: number, city: string, country: 'DE' | 'AT', lat: number, lng: number) =>
    geocodeLocation(seed.commands, {
      competitor_id: competitorId,
      name: `Clinic ${city}`,
      address: `1 Main Street, ${city}`,
      city,
      country,
      lat,
      lng,
      source_url: `https://maps.example/${city}`,
      geocoded_on: '2026-09-02',
    });
  await location(1, 'Berlin', 'DE', 52.52, 13.4);
  await location(2, 'Munich', 'DE', 48.14, 11.58);
  await location(3, 'Vienna', 'AT', 48.21, 16.37);
  const beta = 'https://www.beta-smile.example/de/prices/dental-implant';
  await recordObservations(seed.commands, [
    observation({ price: 1000, captured_at: '2026-10-01' }),
    observation({ price: 1200, captured_at: '2026-10-05' }),
    observation({
      competitor_id: 2,
      location_id: 2,
      price: 1500,
      evidence_url: beta,
      captured_at: '2026-10-02',
    }),
    observation({
      competitor_id: 2,
      location_id: 2,
      price: 1600,
      evidence_url: beta,
      captured_at: '2026-10-10',
    }),
    observation({
      competitor_id: 2,
      location_id: 2,
      price: 1700,
      evidence_url: beta,
      captured_at: '2026-10-20',
    }),
    observation({
      country: 'AT',
      competitor_id: 3,
      location_id: 3,
      price: 1300,
      evidence_url: 'https://www.gamma-care.example/at/prices/dental-implant',
      captured_at: '2026-10-15',
    }),
  ]);
}

/** Arbitrary JSON, as the tests read it (like supertest's `res.body`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The events of a server-sent event stream, in order, with their JSON data; `headers` carry the credential. */
export async function streamEvents(
  app: RequestListener,
  body: object,
  headers: Record<string, string>,
): Promise<{
  status: number;
  headers: Record<string, string>;
  events: { event: string; data: Json }[];
  body: Json;
}> {
  const res = await request(app)
    .post('/api/assistant/stream')
    .set(headers)
    .send(body)
    .buffer(true)
    .parse((response, done) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done(null, text));
    });
  const text = typeof res.body === 'string' ? res.body : '';
  const events = text
    .split('\n\n')
    .filter((block) => block.startsWith('event:'))
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: (eventLine as string).slice(7), data: JSON.parse((dataLine as string).slice(6)) };
    });
  let json: unknown = undefined;
  if (res.status !== 200) json = JSON.parse(text);
  return { status: res.status, headers: res.headers as Record<string, string>, events, body: json };
}

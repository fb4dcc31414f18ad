import request from 'supertest';
import { createIdentity } from '../../src/api/kit/identity';
import { createModuleApp } from '../../src/api/kit/app';
import { marketModule } from '../../src/api/market';
import type { Principal } from '../../src/iam/principal';
import {
  cookieFor,
  DATA_ENDPOINTS,
  marketApp,
  SECRET,
  streamEvents,
  writeMarketFixtures,
} from '../support/market-fixtures';
import { TOKEN, openModule, type ModuleHarness } from '../support/module-harness';
import { expectEnvelope } from './spec';

let harness: ModuleHarness<void>;
beforeAll(async () => {
  harness = await openModule(marketModule, { fixtures: writeMarketFixtures });
});
afterAll(() => harness.close());

/** API keys by their tokens: a market reader, and an HR writer who holds no market role. */
const KEYS: Record<string, Principal> = {
  'market-reader-token-0123456789': {
    id: 'key:market-reader',
    kind: 'key',
    name: 'Rita Reader',
    roles: ['market:reader'],
    person: 'rita',
  },
  'hr-writer-token-0123456789': {
    id: 'key:hr-writer',
    kind: 'key',
    roles: ['hrm:writer'],
    person: 'hr-writer',
  },
};
const [READER, HR_WRITER] = Object.keys(KEYS) as [string, string];

/** The market with the API token (unless `null`) and the keys above. */
const appWith = (apiToken: string | null = TOKEN) =>
  createModuleApp(marketModule, harness.suite, {
    apiToken: apiToken ?? undefined,
    sessionSecret: SECRET,
    identity: createIdentity({
      apiToken: apiToken ?? undefined,
      authenticators: [async (token) => KEYS[token] ?? null],
    }),
  });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('a bearer credential on the market', () => {
  it.each(DATA_ENDPOINTS)('GET %s answers the API token and a market reader', async (path) => {
    const app = appWith();
    await request(app).get(path).set(bearer(TOKEN)).expect(200);
    await request(app).get(path).set(bearer(READER)).expect(200);
  });

  it('pages competitors with their total, as a session user sees them', async () => {
    const app = appWith();
    const byBearer = await request(app).get('/api/competitors?limit=1').set(bearer(READER)).expect(200);
    const bySession = await request(app)
      .get('/api/competitors?limit=1')
      .set('Cookie', cookieFor('alice'))
      .expect(200);
    expect(byBearer.body).toEqual(bySession.body);
    expect(byBearer.body.data).toHaveLength(1);
    expect(byBearer.body.meta.total).toBeGreaterThan(1);
  });

  it('answers 403 naming the role to a credential without a market role', async () => {
    const res = await request(appWith()).get('/api/competitors').set(bearer(HR_WRITER));
    expectEnvelope(res, 403, 'forbidden');
    expect(res.body.error.details).toEqual({ required_role: 'market:reader' });
  });

  it('judges a request by its bearer credential alone: a wrong one is 401 beside a valid cookie', async () => {
    const res = await request(appWith())
      .get('/api/overview')
      .set(bearer('not-a-credential-of-anyone'))
      .set('Cookie', cookieFor('alice'));
    expectEnvelope(res, 401, 'unauthorized');
  });

  it('answers 401, not 503, to a bearer credential while no API token is configured; cookies still open', async () => {
    const app = appWith(null);
    expectEnvelope(await request(app).get('/api/overview').set(bearer(TOKEN)), 401, 'unauthorized');
    await request(app).get('/api/overview').set(bearer(READER)).expect(200);
    await request(app).get('/api/overview').set('Cookie', cookieFor('alice')).expect(200);
  });

  it('keeps a principal`s chat history apart from every session user`s', async () => {
    const app = appWith();
    const question = { question: 'Median price by treatment', country: 'DE', workspace: 'pricing' };
    expect((await streamEvents(app, question, bearer(TOKEN))).status).toBe(200);
    const mine = await request(app).get('/api/threads').set(bearer(TOKEN)).expect(200);
    expect(mine.body.data).toEqual([expect.objectContaining({ user_id: 'token:admin' })]);
    const others = await request(app).get('/api/threads').set('Cookie', cookieFor('token')).expect(200);
    expect(others.body.data).toEqual([]);
    // Asking is a write: a reader may read the market, not ask its assistant.
    expect((await streamEvents(app, question, bearer(READER))).status).toBe(403);
  });

  it('describes the two credentials as alternatives, and the role each operation needs', async () => {
    const doc = (await request(marketApp(harness)).get('/api/openapi.json').expect(200)).body;
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/competitors'].get.security).toEqual([{ sessionCookie: [] }, { bearerAuth: [] }]);
    expect(doc.paths['/api/competitors'].get['x-required-role']).toBe('market:reader');
    expect(doc.paths['/api/assistant/stream'].post['x-required-role']).toBe('market:writer');
    expect(doc.paths['/api/competitors'].get.responses).toHaveProperty('403');
  });
});

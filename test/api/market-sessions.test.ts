import request from 'supertest';
import { createModuleApp } from '../../src/api/kit/app';
import { marketModule } from '../../src/api/market';
import { signSession } from '../../src/market/session';
import {
  cookieFor,
  DATA_ENDPOINTS,
  marketApp,
  SECRET,
  writeMarketFixtures,
} from '../support/market-fixtures';
import { NOW, TOKEN, openModule, type ModuleHarness } from '../support/module-harness';
import { expectEnvelope } from './spec';

let harness: ModuleHarness<void>;
beforeAll(async () => {
  harness = await openModule(marketModule, { fixtures: writeMarketFixtures });
});
afterAll(() => harness.close());

/** A user's session events of one type, in log order. */
const sessionEvents = async (type: 'SessionStarted' | 'SessionEnded', userId: string) =>
  (await harness.suite.eventStore.queryLog({ type, after: 0, limit: 100 })).filter(
    (event) => (event.data as { user_id: string }).user_id === userId,
  );

describe('the session cookie', () => {
  it.each(DATA_ENDPOINTS)('GET %s answers 401 without a cookie and 200 with one', async (path) => {
    const app = marketApp(harness);
    expectEnvelope(await request(app).get(path), 401, 'unauthorized');
    await request(app).get(path).set('Cookie', cookieFor('alice')).expect(200);
  });

  it('answers 401 to the assistant without a cookie, before reading the question', async () => {
    const res = await request(marketApp(harness))
      .post('/api/assistant/stream')
      .send({ question: 'Median price by treatment', country: 'DE', workspace: 'pricing' });
    expectEnvelope(res, 401, 'unauthorized');
  });

  it('rejects a tampered cookie: another user id under the old signature', async () => {
    const [, signature] = cookieFor('alice').split('.');
    const payload = Buffer.from(JSON.stringify({ u: 'mallory', e: NOW.getTime() / 1000 + 3600 })).toString(
      'base64url',
    );
    const res = await request(marketApp(harness))
      .get('/api/overview')
      .set('Cookie', `svc_session=${payload}.${signature}`);
    expectEnvelope(res, 401, 'unauthorized');
  });

  it('rejects a cookie signed with another secret, and garbage', async () => {
    const foreign = signSession(
      'another-secret-0123456789abcdef012345',
      'alice',
      new Date(NOW.getTime() + 3_600_000),
    );
    for (const value of [foreign, 'garbage', '', 'a.b.c']) {
      expectEnvelope(
        await request(marketApp(harness)).get('/api/overview').set('Cookie', `svc_session=${value}`),
        401,
        'unauthorized',
      );
    }
  });

  it('rejects an expired cookie (the clock is the server`s)', async () => {
    const expired = cookieFor('alice', new Date(NOW.getTime() - 1000));
    expectEnvelope(
      await request(marketApp(harness)).get('/api/overview').set('Cookie', expired),
      401,
      'unauthorized',
    );
  });

  it('finds the cookie among others', async () => {
    await request(marketApp(harness))
      .get('/api/overview')
      .set('Cookie', `theme=dark; ${cookieFor('alice')}; x=1`)
      .expect(200);
  });

  it('keeps health, index and descriptions public and describes the cookie scheme', async () => {
    const app = marketApp(harness);
    await request(app).get('/api/v1/health').expect(200);
    await request(app).get('/api/').expect(200);
    const doc = (await request(app).get('/api/openapi.json').expect(200)).body;
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'svc_session',
    });
    for (const path of DATA_ENDPOINTS.filter((p) => !p.endsWith('/1')))
      expect(doc.paths[path].get.security).toEqual([{ sessionCookie: [] }, { bearerAuth: [] }]);
    expect(doc.paths['/api/competitors/{competitor_id}']).toBeDefined();
    expect(doc.paths['/api/assistant/stream'].post).toBeDefined();
    expect(doc.paths['/api/session'].post.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/session'].delete.security).toEqual([]);
  });
});

describe('POST /api/session', () => {
  const signIn = (
    app = marketApp(harness),
    token: string | null = TOKEN,
    body: object = { user_id: 'bob' },
  ) => {
    const req = request(app).post('/api/session');
    return (token === null ? req : req.set('Authorization', `Bearer ${token}`)).send(body);
  };

  it('signs a user in: 201 with an HttpOnly, SameSite=Lax cookie that opens the data endpoints', async () => {
    const res = await signIn().expect(201);
    expect(res.body).toEqual({ user_id: 'bob', expires_at: '2026-11-21T17:30:00Z' });
    const [cookie] = res.headers['set-cookie'] as unknown as string[];
    expect(cookie).toMatch(/^svc_session=[\w-]+\.[\w-]+; HttpOnly; SameSite=Lax; Path=\/; Max-Age=28800$/);
    await request(marketApp(harness))
      .get('/api/overview')
      .set('Cookie', (cookie as string).split(';')[0] as string)
      .expect(200);
  });

  it('takes a lifetime within bounds', async () => {
    const res = await signIn(undefined, TOKEN, { user_id: 'bob', ttl_seconds: 600 }).expect(201);
    expect(res.headers['set-cookie']?.[0]).toMatch(/Max-Age=600$/);
    expectEnvelope(
      await signIn(undefined, TOKEN, { user_id: 'bob', ttl_seconds: 10 }),
      422,
      'validation_error',
    );
  });

  it('answers 401 for a missing or wrong token, before looking at the body', async () => {
    expectEnvelope(await signIn(undefined, null), 401, 'unauthorized');
    expectEnvelope(await signIn(undefined, 'wrong-token'), 401, 'unauthorized');
    expectEnvelope(await signIn(undefined, null, { role: 'admin' }), 401, 'unauthorized');
  });

  it('answers 503 while no API token is configured, whatever the body', async () => {
    expectEnvelope(await signIn(marketApp(harness, null), TOKEN), 503, 'writes_disabled');
    expectEnvelope(await signIn(marketApp(harness, null), TOKEN, {}), 503, 'writes_disabled');
  });

  it.each([
    [{}],
    [{ user_id: '' }],
    [{ user_id: 'has space' }],
    [{ user_id: 'bob', role: 'admin' }],
    [{ user_id: 42 }],
  ])('rejects the body %j with 422', async (body) => {
    expectEnvelope(await signIn(undefined, TOKEN, body), 422, 'validation_error');
  });

  it('DELETE ends the session for good: the same cookie then answers 401', async () => {
    const res = await signIn(undefined, TOKEN, { user_id: 'erin' }).expect(201);
    const cookie = ((res.headers['set-cookie'] as unknown as string[])[0] as string).split(';')[0] as string;
    await request(marketApp(harness)).get('/api/threads').set('Cookie', cookie).expect(200);

    const out = await request(marketApp(harness)).delete('/api/session').set('Cookie', cookie).expect(200);
    expect(out.headers['set-cookie']?.[0]).toMatch(/^svc_session=; .*Max-Age=0$/);
    for (const path of ['/api/threads', '/api/overview']) {
      expectEnvelope(await request(marketApp(harness)).get(path).set('Cookie', cookie), 401, 'unauthorized');
    }
    const [ended] = await sessionEvents('SessionEnded', 'erin');
    expect(ended?.metadata.actor).toBe('user:erin');
  });

  it('answers 503 to signing a live session out while writes are disabled', async () => {
    const res = await request(marketApp(harness, null))
      .delete('/api/session')
      .set('Cookie', cookieFor('gina'));
    expectEnvelope(res, 503, 'writes_disabled');
  });

  it('ends a session once, and ends a cookie the CLI minted too', async () => {
    const minted = `svc_session=${signSession(SECRET, 'frank', new Date(NOW.getTime() + 60_000))}`;
    const signOut = () =>
      request(marketApp(harness)).delete('/api/session').set('Cookie', minted).expect(200);
    await signOut();
    const head = await harness.suite.eventStore.headPosition();
    await signOut();
    expect(await harness.suite.eventStore.headPosition()).toBe(head);
    expectEnvelope(
      await request(marketApp(harness)).get('/api/threads').set('Cookie', minted),
      401,
      'unauthorized',
    );
  });

  it('DELETE signs out: the cookie is cleared', async () => {
    const head = await harness.suite.eventStore.headPosition();
    const res = await request(marketApp(harness)).delete('/api/session').expect(200);
    expect(res.body).toEqual({ signed_out: true });
    expect(res.headers['set-cookie']?.[0]).toBe('svc_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0');
    expect(await harness.suite.eventStore.headPosition()).toBe(head);
  });

  it('with SUITE_COOKIE_SECURE the cookie is Secure and __Host- prefixed, and only that name opens a session', async () => {
    const secure = createModuleApp(marketModule, harness.suite, {
      apiToken: TOKEN,
      sessionSecret: SECRET,
      secureCookies: true,
    });
    const res = await signIn(secure).expect(201);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0] as string;
    expect(cookie).toMatch(
      /^__Host-svc_session=[\w-]+\.[\w-]+; Secure; HttpOnly; SameSite=Lax; Path=\/; Max-Age=28800$/,
    );
    const value = cookie.slice(0, cookie.indexOf(';'));
    await request(secure).get('/api/overview').set('Cookie', value).expect(200);
    const plain = value.replace('__Host-', '');
    expectEnvelope(await request(secure).get('/api/overview').set('Cookie', plain), 401, 'unauthorized');
    const out = await request(secure).delete('/api/session').set('Cookie', value).expect(200);
    expect(out.headers['set-cookie']?.[0]).toBe(
      '__Host-svc_session=; Secure; HttpOnly; SameSite=Lax; Path=/; Max-Age=0',
    );
    expectEnvelope(await request(secure).get('/api/overview').set('Cookie', value), 401, 'unauthorized');
  });

  it('records the sign-in: who signed whom in until when, never the cookie', async () => {
    const res = await signIn(undefined, TOKEN, { user_id: 'dora' }).expect(201);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0] as string;
    const [event] = await sessionEvents('SessionStarted', 'dora');
    expect(event).toMatchObject({
      data: { user_id: 'dora', expires_at: '2026-11-21T17:30:00Z' },
      metadata: { actor: 'token:admin' },
    });
    const value = cookie.slice('svc_session='.length, cookie.indexOf(';'));
    expect(JSON.stringify(event)).not.toContain(value.split('.')[1]);
  });

  it('uses the configured secret: a cookie minted elsewhere with it is accepted', async () => {
    const minted = signSession(SECRET, 'carol', new Date(NOW.getTime() + 60_000));
    await request(marketApp(harness)).get('/api/threads').set('Cookie', `svc_session=${minted}`).expect(200);
  });
});

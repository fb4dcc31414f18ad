import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { openEsm, type EsmHarness } from '../support/esm-harness';
import { auth } from './spec';

let h: EsmHarness;
beforeAll(async () => {
  h = await openEsm();
  await request(h.app)
    .post('/api/v1/requests')
    .set(auth)
    .send({ title: 'Laptop for Ana', status: 'Open', priority: 'High' })
    .expect(201);
});
afterAll(() => h.close());

const STRONG_TAG = /^"[\w-]+"$/;

const read = (path: string, headers: Record<string, string> = {}) =>
  request(h.app).get(path).set(auth).set(headers);

describe('conditional reads', () => {
  it.each(['/api/v1/requests/1', '/api/v1/requests', '/api/', '/api/openapi.json'])(
    'GET %s carries a strong ETag and answers If-None-Match with it 304 and no body',
    async (path) => {
      const first = await read(path).expect(200);
      expect(first.headers.etag).toMatch(STRONG_TAG);
      expect(first.headers['cache-control']).toBe('private, no-cache');

      const again = await read(path, { 'If-None-Match': first.headers.etag as string }).expect(304);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['cache-control']).toBe('private, no-cache');
      expect(again.text).toBe('');
    },
  );

  it('answers a changed record 200 with a new ETag', async () => {
    const before = await read('/api/v1/requests/1').expect(200);
    const listBefore = await read('/api/v1/requests').expect(200);
    await request(h.app).patch('/api/v1/requests/1').set(auth).send({ status: 'Closed' }).expect(200);

    const after = await read('/api/v1/requests/1', { 'If-None-Match': before.headers.etag as string });
    expect(after.status).toBe(200);
    expect(after.body.status).toBe('Closed');
    expect(after.headers.etag).toMatch(STRONG_TAG);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const list = await read('/api/v1/requests', { 'If-None-Match': listBefore.headers.etag as string });
    expect(list.status).toBe(200);
    expect(list.headers.etag).not.toBe(listBefore.headers.etag);
  });

  it('takes *, a list of tags and weak tags (weak comparison)', async () => {
    const { etag } = (await read('/api/v1/requests/1').expect(200)).headers as { etag: string };
    await read('/api/v1/requests/1', { 'If-None-Match': '*' }).expect(304);
    await read('/api/v1/requests/1', { 'If-None-Match': `"other", ${etag}` }).expect(304);
    await read('/api/v1/requests/1', { 'If-None-Match': `W/${etag}` }).expect(304);
    await read('/api/v1/requests/1', { 'If-None-Match': '"other", W/"another"' }).expect(200);
  });

  it('answers HEAD with the GET ETag and Content-Length, and 304 when it matches', async () => {
    const got = await read('/api/v1/requests').expect(200);
    const head = await request(h.app).head('/api/v1/requests').set(auth).expect(200);
    expect(head.headers.etag).toBe(got.headers.etag);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(got.text));
    await request(h.app)
      .head('/api/v1/requests')
      .set(auth)
      .set('If-None-Match', got.headers.etag as string)
      .expect(304);
  });

  it('gives errors and writes no ETag', async () => {
    const missing = await read('/api/v1/requests/999', { 'If-None-Match': '*' }).expect(404);
    expect(missing.headers.etag).toBeUndefined();
    const refused = await read('/api/v1/requests?limit=0').expect(422);
    expect(refused.headers.etag).toBeUndefined();
    const written = await request(h.app)
      .post('/api/v1/requests')
      .set(auth)
      .send({ title: 'Broken mouse', status: 'Open', priority: 'Low' })
      .expect(201);
    expect(written.headers.etag).toBeUndefined();
  });
});

const AUDITOR = 'auditor-token-42';

describe("the audit API's reads", () => {
  it.each(['/api/v1/events?limit=5', '/api/v1/verify', '/api/openapi.json'])(
    'GET %s carries an ETag and answers 304 while unchanged',
    async (path) => {
      const audit = createAuditApp(h.suite, AUDITOR);
      const get = (headers: Record<string, string> = {}) =>
        request(audit).get(path).set('Authorization', `Bearer ${AUDITOR}`).set(headers);
      const first = await get().expect(200);
      expect(first.headers.etag).toMatch(STRONG_TAG);
      await get({ 'If-None-Match': first.headers.etag as string }).expect(304);
    },
  );

  it('leaves a read that is not to be kept (no-store: who a credential names) without an ETag', async () => {
    const audit = createAuditApp(h.suite, AUDITOR);
    const onAudit = await request(audit).get('/api/v1/me').set('Authorization', `Bearer ${AUDITOR}`);
    const onModule = await read('/api/v1/me');
    for (const me of [onAudit, onModule]) {
      expect(me.status).toBe(200);
      expect(me.headers['cache-control']).toBe('no-store');
      expect(me.headers.etag).toBeUndefined();
    }
  });
});

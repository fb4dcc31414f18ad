import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { marketModule } from '../../src/api/market';
import { MAX_JSON_NESTING } from '../../src/json-nesting';
import { TOKEN, openEsm, type EsmHarness } from '../support/esm-harness';
import { openModule, type ModuleHarness } from '../support/module-harness';
import { cookieFor, marketApp } from '../support/market-fixtures';
import { expectEnvelope } from './spec';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('JSON nesting on the service desk writes', () => {
  let h: EsmHarness;
  beforeAll(async () => {
    h = await openEsm();
  });
  afterAll(() => h.close());

  const post = (body: string) =>
    request(h.app)
      .post('/api/v1/requests')
      .set('Authorization', `Bearer ${TOKEN}`)
      .set('Content-Type', 'application/json')
      .send(body);
  const request_ = (fields: object) =>
    JSON.stringify({ title: 'Deep', status: 'Open', priority: 'Low', ...fields });

  it.each([
    ['arrays 50,000 levels deep', nested(50_000)],
    ['objects 15,000 levels deep', deepObject(15_000)],
    [`arrays ${MAX_JSON_NESTING + 1} levels deep`, nested(MAX_JSON_NESTING + 1)],
    ['a field holding an array 100 levels deep', `{"title":${nested(100)},"status":"Open"}`],
  ])('refuses a body of %s with 400 nesting_too_deep, appending nothing', async (_label, body) => {
    const head = await h.suite.eventStore.headPosition();
    const res = await post(body);
    expectEnvelope(res, 400, 'nesting_too_deep');
    expect(res.body.error.details).toEqual({ max_depth: MAX_JSON_NESTING });
    expect(await h.suite.eventStore.headPosition()).toBe(head);
    await request(h.app).get('/api/v1/health').expect(200);
  });

  it(`parses a body nested ${MAX_JSON_NESTING} levels deep and validates it`, async () => {
    const res = await post(nested(MAX_JSON_NESTING));
    expectEnvelope(res, 422, 'validation_error');
  });

  it('never echoes a nested value it refuses, and answers small', async () => {
    const res = await post(request_({ title: JSON.parse(nested(60)), priority: 'x'.repeat(5_000) }));
    expectEnvelope(res, 422, 'validation_error');
    expect(res.text.length).toBeLessThan(2_000);
    for (const issue of res.body.error.details.issues) expect(issue.input).toBeUndefined();
  });

  it('lists the first 20 problems of a huge invalid body and counts the rest', async () => {
    const keys = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`extra_${index}`, index]));
    const res = await post(request_(keys));
    expectEnvelope(res, 422, 'validation_error');
    expect(res.body.error.details.issues).toHaveLength(20);
    expect(res.body.error.message).toMatch(/and 4980 more$/);
    expect(res.text.length).toBeLessThan(4_000);
  });

  it('refuses a form_data holding JSON nested deeper than the limit, appending nothing', async () => {
    const head = await h.suite.eventStore.headPosition();
    const res = await post(request_({ form_data: nested(32_000) }));
    expectEnvelope(res, 422, 'validation_error');
    expect(res.body.error.message).toMatch(/^form_data: /);
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });

  it('accepts a form_data holding JSON within the limit, and searches its values', async () => {
    const form = JSON.stringify({ answers: { device: ['Zebrapad'] } });
    const created = await post(request_({ form_data: form })).expect(201);
    const found = await request(h.app).get('/api/v1/requests?q=zebrapad').expect(200);
    expect(found.body.data.map((record: { id: number }) => record.id)).toEqual([created.body.id]);
  });

  it('refuses a body that is not valid UTF-8 with 400', async () => {
    const server = createServer(h.app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/requests`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'malformed_json' } });
    } finally {
      server.close();
    }
  });
});

describe('JSON nesting on the market assistant stream (a session cookie is all it takes)', () => {
  let harness: ModuleHarness<undefined>;
  beforeAll(async () => {
    harness = await openModule(marketModule);
  });
  afterAll(() => harness.close());

  it('refuses a body nested 50,000 levels deep with 400, and keeps serving', async () => {
    const app = marketApp(harness);
    const res = await request(app)
      .post('/api/assistant/stream')
      .set('Cookie', cookieFor('eve'))
      .set('Content-Type', 'application/json')
      .send(nested(50_000));
    expectEnvelope(res, 400, 'nesting_too_deep');
    await request(app).get('/api/v1/health').expect(200);
  });
});

import request from 'supertest';
import { clmModule } from '../../src/api/clm';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { ACME, GLOBEX, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';
import { expectEnvelope } from './spec';

let h: ModuleHarness<ClmFixtures>;
let closed: ModuleHarness<ClmFixtures>;
beforeAll(async () => {
  h = await openModule(clmModule, { fixtures: clmFixtures });
  closed = await openModule(clmModule, { fixtures: clmFixtures, token: null });
});
afterAll(async () => {
  await h.close();
  await closed.close();
});

interface Call {
  name: string;
  method: 'get' | 'post';
  path: (f: ClmFixtures) => string;
  body?: (f: ClmFixtures) => object;
}

const read = (name: string, path: Call['path']): Call => ({ name: `GET ${name}`, method: 'get', path });

const READS: Call[] = [
  read('/api/v1/contracts', () => '/api/v1/contracts'),
  read('/api/v1/contracts/{id}', (f) => `/api/v1/contracts/${f.approved}`),
  read('/api/v1/obligations', () => '/api/v1/obligations'),
  read('/api/v1/obligations/{id}', (f) => `/api/v1/obligations/${f.overdue}`),
  read('/api/v1/counterparties', () => '/api/v1/counterparties'),
  read('/api/v1/counterparties/{id}', (f) => `/api/v1/counterparties/${f.nordwind}`),
  read('/api/v1/members', () => '/api/v1/members'),
  read('/api/v1/members/{id}', () => '/api/v1/members/m-acme-owner'),
  read('/api/v1/workspaces', () => '/api/v1/workspaces'),
  read('/api/v1/workspaces/{id}', () => `/api/v1/workspaces/${ACME}`),
];
const WRITES: Call[] = [
  {
    name: 'POST /api/v1/obligations',
    method: 'post',
    path: () => '/api/v1/obligations',
    body: (f) => ({ contract_id: f.active, title: 'Audit', due_date: '2027-01-15' }),
  },
  {
    name: 'POST /contracts/{id}/signatures',
    method: 'post',
    path: (f) => `/contracts/${f.approved}/signatures`,
    body: () => ({ provider: 'docusign' }),
  },
];
const ALL = [...READS, ...WRITES];

function call(
  harness: ModuleHarness<ClmFixtures>,
  { method, path, body }: Call,
  headers: Record<string, string>,
) {
  const req = request(harness.app)[method](path(harness.fixtures)).set(headers);
  return body ? req.send(body(harness.fixtures)) : req;
}

const bearer = { Authorization: `Bearer ${TOKEN}` };
const acmeOwner = { ...bearer, 'X-Svc-Organisation': ACME, 'X-Svc-Actor': 'm-acme-owner' };

describe('before an API token is configured', () => {
  it.each(ALL)('answers $name with 503 api_disabled, even with every header', async (endpoint) => {
    const res = await call(closed, endpoint, acmeOwner);
    expectEnvelope(res, 503, 'api_disabled');
  });

  it('appends nothing', async () => {
    const head = await closed.suite.eventStore.headPosition();
    for (const endpoint of WRITES) await call(closed, endpoint, acmeOwner);
    expect(await closed.suite.eventStore.headPosition()).toBe(head);
  });

  it('keeps health (writes_enabled false), the index and the descriptions public', async () => {
    expect((await request(closed.app).get('/api/v1/health').expect(200)).body).toMatchObject({
      product: 'Contract lifecycle',
      writes_enabled: false,
    });
    for (const path of ['/api/', '/api/openapi.json', '/swagger.json'])
      await request(closed.app).get(path).expect(200);
    await request(closed.app).get('/api/docs/').expect(200);
  });
});

describe('with a token configured', () => {
  it('reports writes enabled in health without credentials', async () => {
    expect((await request(h.app).get('/api/v1/health').expect(200)).body.writes_enabled).toBe(true);
  });

  it.each(ALL)('answers $name without a token with 401 and WWW-Authenticate', async (endpoint) => {
    const res = await call(h, endpoint, { 'X-Svc-Organisation': ACME, 'X-Svc-Actor': 'm-acme-owner' });
    expectEnvelope(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it.each(ALL)('answers $name with a wrong token with 401', async (endpoint) => {
    const res = await call(h, endpoint, { ...acmeOwner, Authorization: 'Bearer not-the-token' });
    expectEnvelope(res, 401, 'unauthorized');
  });

  it.each(ALL)('answers $name without X-Svc-Organisation with 400 missing_header', async (endpoint) => {
    const res = await call(h, endpoint, { ...bearer, 'X-Svc-Actor': 'm-acme-owner' });
    expectEnvelope(res, 400, 'missing_header');
    expect(res.body.error.details).toEqual({ header: 'X-Svc-Organisation' });
  });

  it.each(ALL)('answers $name for an unknown workspace with 403 forbidden', async (endpoint) => {
    const res = await call(h, endpoint, { ...acmeOwner, 'X-Svc-Organisation': 'ws-initech' });
    expectEnvelope(res, 403, 'forbidden');
  });

  it('treats a blank X-Svc-Organisation as missing', async () => {
    const res = await call(h, READS[0] as Call, { ...bearer, 'X-Svc-Organisation': '  ' });
    expectEnvelope(res, 400, 'missing_header');
  });

  it('serves reads without an actor', async () => {
    for (const endpoint of READS) {
      const res = await call(h, endpoint, { ...bearer, 'X-Svc-Organisation': ACME });
      expect([endpoint.name, res.status]).toEqual([endpoint.name, 200]);
    }
  });
});

describe('the actor of a write', () => {
  const acme = { ...bearer, 'X-Svc-Organisation': ACME };

  it.each(WRITES)('$name without X-Svc-Actor is 400 missing_header', async (endpoint) => {
    const res = await call(h, endpoint, acme);
    expectEnvelope(res, 400, 'missing_header');
    expect(res.body.error.details).toEqual({ header: 'X-Svc-Actor' });
  });

  it.each(WRITES)('$name by a member of another workspace is 403', async (endpoint) => {
    expectEnvelope(await call(h, endpoint, { ...acme, 'X-Svc-Actor': 'm-globex-owner' }), 403, 'forbidden');
  });

  it.each(WRITES)('$name by an unknown member is 403', async (endpoint) => {
    expectEnvelope(await call(h, endpoint, { ...acme, 'X-Svc-Actor': 'm-nobody' }), 403, 'forbidden');
  });

  it.each(WRITES)('$name by a viewer is 403, naming the role', async (endpoint) => {
    const res = await call(h, endpoint, { ...acme, 'X-Svc-Actor': 'm-acme-viewer' });
    expectEnvelope(res, 403, 'forbidden');
    expect(res.body.error.details).toMatchObject({ role: 'viewer' });
  });

  it('appends nothing for a refused write', async () => {
    const head = await h.suite.eventStore.headPosition();
    for (const endpoint of WRITES) {
      await call(h, endpoint, { ...acme, 'X-Svc-Actor': 'm-acme-viewer' });
      await call(h, endpoint, { ...acme, 'X-Svc-Organisation': GLOBEX, 'X-Svc-Actor': 'm-acme-owner' });
    }
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });

  it.each(['m-acme-owner', 'm-acme-editor'])('lets the %s write', async (actor) => {
    const res = await call(h, WRITES[0] as Call, { ...acme, 'X-Svc-Actor': actor });
    expect(res.status).toBe(201);
  });
});

describe('the description', () => {
  it('names the bearer scheme and both headers on the data endpoints', async () => {
    const doc = (await request(h.app).get('/api/openapi.json').expect(200)).body;
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const headersOf = (path: string, method: string) =>
      (doc.paths[path][method].parameters as { in: string; name: string }[])
        .filter((parameter) => parameter.in === 'header')
        .map((parameter) => parameter.name);
    // Reads also take X-Min-Position and If-None-Match, as every module's reads do.
    expect(headersOf('/api/v1/contracts', 'get')).toEqual([
      'X-Svc-Organisation',
      'X-Min-Position',
      'If-None-Match',
    ]);
    expect(headersOf('/api/v1/counterparties', 'get')).toEqual([
      'X-Svc-Organisation',
      'X-Min-Position',
      'If-None-Match',
    ]);
    expect(headersOf('/api/v1/obligations', 'post')).toEqual(['X-Svc-Organisation', 'X-Svc-Actor']);
    expect(headersOf('/contracts/{id}/signatures', 'post')).toEqual(['X-Svc-Organisation', 'X-Svc-Actor']);
    for (const [path, method] of [
      ['/api/v1/contracts', 'get'],
      ['/api/v1/contracts/{id}', 'get'],
      ['/api/v1/obligations', 'get'],
      ['/api/v1/obligations', 'post'],
      ['/api/v1/counterparties/{id}', 'get'],
      ['/contracts/{id}/signatures', 'post'],
    ] as const) {
      expect([path, doc.paths[path][method].security]).toEqual([path, [{ bearerAuth: [] }]]);
      expect(Object.keys(doc.paths[path][method].responses)).toEqual(
        expect.arrayContaining(['400', '401', '403', '503']),
      );
    }
  });
});

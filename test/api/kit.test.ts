import type { RequestListener } from 'node:http';
import request from 'supertest';
import { createModuleApp } from '../../src/api/kit/app';
import { esmModule } from '../../src/api/esm';
import type { ReadStore } from '../../src/projections/read-store';
import { REQUEST_PRIORITIES, REQUEST_STATUSES } from '../../src/events/esm';
import { SERVER_SECRET, TOKEN, openEsm, type EsmHarness } from '../support/esm-harness';
import { HEALTH, expectEnvelope, expectShape } from './spec';

type Doc = Record<string, unknown>;
type Operation = { security?: Record<string, string[]>[] };

const ENDPOINTS: [string, string][] = [
  ['get', '/api/'],
  ['get', '/api/v1/health'],
  ['get', '/api/v1/services'],
  ['get', '/api/v1/services/{item_id}'],
  ['get', '/api/v1/requests'],
  ['post', '/api/v1/requests'],
  ['get', '/api/v1/requests/{item_id}'],
  ['patch', '/api/v1/requests/{item_id}'],
  ['get', '/api/v1/knowledge'],
  ['get', '/api/v1/knowledge/{item_id}'],
  ['get', '/api/v1/departments'],
  ['get', '/api/v1/departments/{item_id}'],
];

describe('service desk API kit', () => {
  let h: EsmHarness;
  beforeAll(async () => {
    h = await openEsm();
  });
  afterAll(() => h.close());

  describe('index and health', () => {
    it('serves the API index as a JSON object', async () => {
      const res = await request(h.app).get('/api/').expect(200);
      expect(res.type).toBe('application/json');
      expect(typeof res.body).toBe('object');
      expect(Array.isArray(res.body)).toBe(false);
      expect(res.body).toMatchObject({ version: '1.0.0' });
    });

    it('reports health with version 1.0.0 and writes enabled when a token is configured', async () => {
      const res = await request(h.app).get('/api/v1/health').expect(200);
      expectShape(res.body, HEALTH);
      expect(res.body).toMatchObject({ version: '1.0.0', writes_enabled: true });
    });

    it('reports writes disabled in health when no token is configured', async () => {
      const open = await openEsm({ token: null });
      try {
        const res = await request(open.app).get('/api/v1/health').expect(200);
        expectShape(res.body, HEALTH);
        expect(res.body).toMatchObject({ version: '1.0.0', writes_enabled: false });
      } finally {
        await open.close();
      }
    });
  });

  describe('routing', () => {
    it('answers an unknown route with a 404 route_not_found envelope', async () => {
      const res = await request(h.app).get('/api/v1/nothing-here');
      expectEnvelope(res, 404, 'route_not_found');
    });

    it('answers an unknown route outside /api with the same envelope', async () => {
      expectEnvelope(await request(h.app).get('/elsewhere'), 404, 'route_not_found');
    });

    it('answers a wrong method on a known path with 405 and an Allow header', async () => {
      const res = await request(h.app).delete('/api/v1/services');
      expectEnvelope(res, 405, 'method_not_allowed');
      expect(res.headers.allow?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD']);
    });

    it('lists both write methods in Allow for a wrong method on the requests collection', async () => {
      const res = await request(h.app).put('/api/v1/requests');
      expectEnvelope(res, 405, 'method_not_allowed');
      expect(res.headers.allow?.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST']));
    });

    it('answers a wrong method on an item path with 405', async () => {
      const res = await request(h.app).delete('/api/v1/requests/1');
      expectEnvelope(res, 405, 'method_not_allowed');
      expect(res.headers.allow?.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'PATCH']));
    });
  });

  describe('malformed URLs', () => {
    const MALFORMED = [
      ['an escape that is not hex', '?q=%zz'],
      ['a cut escape', '?q=%E2%8'],
      ['a byte that is not UTF-8', '?q=%FF'],
      ['an encoded lone surrogate', '?q=%ED%A0%80'],
    ];

    it.each(MALFORMED)(
      'answers 400 malformed_url to a query with %s, on every path',
      async (_what, query) => {
        const answers = [
          await request(h.app).get(`/api/${query}`),
          await request(h.app).get(`/api/v1/health${query}`),
          await request(h.app).get(`/livez${query}`),
          await request(h.app).get(`/readyz${query}`),
          await request(h.app).get(`/api/v1/requests${query}`),
          await request(h.app).post(`/api/v1/requests${query}`).set('Authorization', `Bearer ${TOKEN}`),
          await request(h.app).get(`/nowhere${query}`),
        ];
        for (const res of answers) {
          expectEnvelope(res, 400, 'malformed_url');
          expect(res.headers['x-request-id']).toMatch(/\S/);
        }
      },
    );

    it('answers 400 malformed_url to a path that does not decode, before looking for a record', async () => {
      expectEnvelope(await request(h.app).get('/api/v1/requests/%FF'), 400, 'malformed_url');
      expectEnvelope(await request(h.app).get('/api/v1/proposals/%zz'), 400, 'malformed_url');
    });

    it('takes well-encoded escapes, reserved characters among them, as the values they spell', async () => {
      await request(h.app).get('/api/v1/services?q=%2F%25%20%C3%A9').expect(200);
      const res = await request(h.app).get('/api/v1/services?q=System%20acc%65ss').expect(200);
      expect(res.body.data.map((service: { name: string }) => service.name)).toEqual(['System access']);
    });
  });

  describe('request ids', () => {
    it('returns a generated X-Request-Id on every response', async () => {
      const first = await request(h.app).get('/api/v1/health');
      const second = await request(h.app).get('/api/v1/nothing-here');
      expect(first.headers['x-request-id']).toMatch(/\S/);
      expect(second.headers['x-request-id']).toMatch(/\S/);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it('echoes a sane client X-Request-Id', async () => {
      const res = await request(h.app).get('/api/v1/health').set('X-Request-Id', 'client-req.42:a');
      expect(res.headers['x-request-id']).toBe('client-req.42:a');
    });

    it('replaces an unsafe client X-Request-Id with its own', async () => {
      const res = await request(h.app).get('/api/v1/health').set('X-Request-Id', 'bad id <script>');
      expect(res.headers['x-request-id']).toMatch(/\S/);
      expect(res.headers['x-request-id']).not.toBe('bad id <script>');
    });
  });

  describe('a read store that fails', () => {
    const failing = (fail: () => never): RequestListener => {
      const readStore: ReadStore = { ...h.suite.readStore, get: fail, find: fail, findJson: fail };
      return createModuleApp(
        esmModule,
        { ...h.suite, readStore },
        { apiToken: TOKEN, sessionSecret: SERVER_SECRET },
      );
    };
    const broken = () => {
      throw new Error('disk I/O error');
    };

    it.each([
      ['at once', broken],
      ['later', () => Promise.reject(new Error('disk I/O error')) as never],
    ])('answers reads with a 500 envelope without details when it fails %s', async (_when, fail) => {
      const app = failing(fail as () => never);
      for (const path of ['/api/v1/requests', '/api/v1/requests/1']) {
        const res = await request(app).get(path);
        expectEnvelope(res, 500, 'internal_error');
        expect(JSON.stringify(res.body)).not.toContain('disk I/O');
        expect(res.headers['x-request-id']).toMatch(/\S/);
      }
    });
  });

  describe('descriptions', () => {
    let runtime: Doc;
    beforeAll(async () => {
      runtime = (await request(h.app).get('/api/openapi.json').expect(200)).body;
    });

    const paths = (doc: Doc) => doc.paths as Record<string, Record<string, Operation>>;
    const schemas = (doc: Doc) => (doc.components as { schemas: Record<string, Doc> }).schemas;

    it('serves an OpenAPI 3.1 description at /api/openapi.json with version 1.0.0', () => {
      expect(runtime.openapi).toMatch(/^3\.1\./);
      expect(runtime.info).toMatchObject({ version: '1.0.0' });
    });

    it('describes every endpoint of the service desk', () => {
      for (const [method, path] of ENDPOINTS) expect(paths(runtime)[path]?.[method]).toBeDefined();
    });

    it('declares the bearerAuth security scheme and requires it on the writes only', () => {
      const components = runtime.components as { securitySchemes: Record<string, Doc> };
      expect(components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      for (const [method, path] of ENDPOINTS) {
        const security = paths(runtime)[path]?.[method]?.security ?? [];
        const bearer = security.some((requirement) => 'bearerAuth' in requirement);
        expect([method, path, bearer]).toEqual([method, path, method !== 'get']);
      }
    });

    it('lists the Request status and priority enums', () => {
      const properties = schemas(runtime).Request?.properties as Record<string, { enum?: string[] }>;
      expect(properties.status?.enum).toEqual([...REQUEST_STATUSES]);
      expect(properties.priority?.enum).toEqual([...REQUEST_PRIORITIES]);
    });

    it('serves an OpenAPI 3.0 compatibility description at /swagger.json', async () => {
      const compat = (await request(h.app).get('/swagger.json').expect(200)).body as Doc;
      expect(compat.openapi).toMatch(/^3\.0\.\d+$/);
      expect(compat.info).toMatchObject({ version: '1.0.0' });
      for (const [method, path] of ENDPOINTS) expect(paths(compat)[path]?.[method]).toBeDefined();
    });

    it('serves the licence terms the 3.0.3 form names, in plain text', async () => {
      const compat = (await request(h.app).get('/swagger.json').expect(200)).body as Doc;
      const { url } = (compat.info as { license: { url: string } }).license;
      const res = await request(h.app).get(url).expect(200);
      expect(res.type).toBe('text/plain');
      expect(res.text).toMatch(/^Proprietary: all rights reserved\./);
    });

    it('serves Swagger UI HTML at /api/docs/', async () => {
      const res = await request(h.app).get('/api/docs/').expect(200);
      expect(res.type).toBe('text/html');
      expect(res.text).toMatch(/swagger-ui/i);
    });
  });
});

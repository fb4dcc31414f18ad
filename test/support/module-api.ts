import request from 'supertest';
import { z } from 'zod';
import type { ModuleDefinition } from '../../src/api/kit/module';
import { withRecordTimes } from '../../src/api/kit/record-times';
import { expectEnvelope, namedFields } from '../api/spec';
import { TOKEN, type ModuleHarness } from './module-harness';

type Row = Record<string, unknown> & { id: number };

export interface ReadCase {
  path: string;
  /** How many records the fixtures hold. */
  total: number;
  /** A query in mixed case and the `field` value of the one record it must find. */
  search: { q: string; field: string; value: unknown };
}

/**
 * Every record answered matches the resource's declared record schema, with the times every record
 * carries, and no extra field.
 */
export function expectRecord(module: ModuleDefinition, path: string, record: unknown): void {
  const resource = module.resources.find((candidate) => candidate.path === path);
  const parsed = z.strictObject(resource ? withRecordTimes(resource.record).shape : {}).safeParse(record);
  expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
}

/** The envelope of a 422 read error, and the locations it names. */
export function expectInvalid(res: request.Response, ...locs: (string | number)[][]): void {
  expectEnvelope(res, 422, 'validation_error');
  const issues = res.body.error.details.issues as { loc: (string | number)[] }[];
  expect(issues.map((issue) => issue.loc)).toEqual(locs);
}

/**
 * The reads every resource answers the same way: the collection envelope, paging, `q`, by id,
 * 404 and 422 (as the error envelope, these modules' read errors).
 */
export function describeReads(
  module: ModuleDefinition,
  harness: () => ModuleHarness<unknown>,
  cases: readonly ReadCase[],
): void {
  const list = (path: string, query: Record<string, string | number> = {}) =>
    request(harness().app).get(`/api/v1/${path}`).query(query);

  describe.each(cases)('GET /api/v1/$path', ({ path, total, search }) => {
    it('answers the collection envelope with default limit 50 and offset 0', async () => {
      const res = await list(path).expect(200);
      expect(res.type).toBe('application/json');
      expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
      expect(res.body.meta).toEqual({
        total,
        limit: 50,
        offset: 0,
        next: total > 50 ? expect.any(String) : null,
      });
      expect(res.body.data).toHaveLength(Math.min(total, 50));
    });

    it('answers records of the declared shape, in id order', async () => {
      const rows = (await list(path, { limit: 200 }).expect(200)).body.data as Row[];
      for (const row of rows) expectRecord(module, path, row);
      const ids = rows.map((row) => row.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('honours limit and offset and keeps the total', async () => {
      const all = (await list(path, { limit: 200 }).expect(200)).body.data as Row[];
      const res = await list(path, { limit: 2, offset: 1 }).expect(200);
      expect(res.body.data).toEqual(all.slice(1, 3));
      expect(res.body.meta).toEqual({
        total,
        limit: 2,
        offset: 1,
        next: total > 3 ? expect.any(String) : null,
      });
    });

    it('answers an empty page past the end with the total intact', async () => {
      const res = await list(path, { offset: 10_000 }).expect(200);
      expect(res.body).toEqual({ data: [], meta: { total, limit: 50, offset: 10_000, next: null } });
    });

    it('searches case-insensitively with q and counts only the matches', async () => {
      const res = await list(path, { q: search.q }).expect(200);
      expect(res.body.data.map((row: Row) => row[search.field])).toEqual([search.value]);
      expect(res.body.meta.total).toBe(1);
    });

    it('finds nothing for a q that matches no record', async () => {
      const res = await list(path, { q: 'zzzz-no-such-text' }).expect(200);
      expect(res.body).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0, next: null } });
    });

    it('returns one record by id, equal to its list entry', async () => {
      const all = (await list(path, { limit: 200 }).expect(200)).body.data as Row[];
      const wanted = all[all.length - 1] as Row;
      const res = await request(harness().app).get(`/api/v1/${path}/${wanted.id}`).expect(200);
      expect(res.body).toEqual(wanted);
    });

    it('answers an unknown id with a 404 error envelope', async () => {
      expectEnvelope(await request(harness().app).get(`/api/v1/${path}/999999`), 404, 'not_found');
    });

    it.each(['abc', '1.5'])('rejects the non-integer id %s with a 422 error envelope', async (id) => {
      expectInvalid(await request(harness().app).get(`/api/v1/${path}/${id}`), ['path', 'id']);
    });

    it('rejects bad paging parameters with a 422 error envelope naming each', async () => {
      expectInvalid(await list(path, { limit: 0, offset: -1 }), ['query', 'limit'], ['query', 'offset']);
      expectInvalid(await list(path, { limit: 201 }), ['query', 'limit']);
    });
  });
}

/** The values of `field` in the list answered for `query` (every match on one page). */
export async function listed(
  app: ModuleHarness<unknown>['app'],
  path: string,
  query: Record<string, string | number>,
  field = 'id',
): Promise<unknown[]> {
  const res = await request(app)
    .get(`/api/v1/${path}`)
    .query({ limit: 200, ...query })
    .expect(200);
  expect(res.body.meta.total).toBe(res.body.data.length);
  return (res.body.data as Row[]).map((row) => row[field]);
}

export interface WriteCase {
  method: 'post' | 'patch';
  /** The path of a write that would succeed (the record it targets exists). */
  path: () => string;
  body: () => object;
  /** A module with no token configured, whose writes answer 503. */
  openWithoutToken: () => Promise<ModuleHarness<unknown>>;
}

/** What every write answers before it decides anything: 503, 401 and the strict body (422). */
export function describeWriteGuards(harness: () => ModuleHarness<unknown>, write: WriteCase): void {
  const send = (app: ModuleHarness<unknown>['app'], body: object, token: string | null = TOKEN) => {
    const req = request(app)[write.method](write.path());
    return (token === null ? req : req.set('Authorization', `Bearer ${token}`)).send(body);
  };

  describe(`${write.method.toUpperCase()} guards`, () => {
    it('answers 503 writes_disabled when no token is configured', async () => {
      const closed = await write.openWithoutToken();
      try {
        expectEnvelope(await send(closed.app, write.body()), 503, 'writes_disabled');
        expect((await request(closed.app).get('/api/v1/health')).body.writes_enabled).toBe(false);
      } finally {
        await closed.close();
      }
    });

    it('answers 401 with WWW-Authenticate for a missing token, and appends nothing', async () => {
      const head = await harness().suite.eventStore.headPosition();
      const res = await send(harness().app, write.body(), null);
      expectEnvelope(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(await harness().suite.eventStore.headPosition()).toBe(head);
    });

    it('answers 401 for a wrong token', async () => {
      expectEnvelope(await send(harness().app, write.body(), 'not-the-token'), 401, 'unauthorized');
    });

    it('rejects an unknown field with 422, naming it', async () => {
      const res = await send(harness().app, { ...write.body(), colour: 'blue' });
      expectEnvelope(res, 422, 'validation_error');
      expect(namedFields(res)).toEqual(['colour']);
      expect(res.body.error.message).toMatch(/colour/);
    });

    it('rejects a body that is not a JSON object with 422', async () => {
      expectEnvelope(await send(harness().app, []), 422, 'validation_error');
    });
  });
}

type Doc = Record<string, unknown>;

/** Health, the API index and the three description endpoints, generated from the declaration. */
export function describeModuleBasics(module: ModuleDefinition, harness: () => ModuleHarness<unknown>): void {
  describe(`${module.title}: health, index and descriptions`, () => {
    const get = (path: string) => request(harness().app).get(path);
    const paths = (doc: Doc) => doc.paths as Record<string, Record<string, unknown>>;
    const endpoints = [
      ...module.resources.flatMap((resource) => [
        ['get', `/api/v1/${resource.path}`],
        ['get', `/api/v1/${resource.path}/{id}`],
      ]),
      ...module.writes.map((write) => [write.method, write.path.replace(/:(\w+)/g, '{$1}')]),
    ] as [string, string][];

    it('reports health with the product, version 1.0.0 and writes enabled', async () => {
      const res = await get('/api/v1/health').expect(200);
      expect(res.body).toEqual({
        status: 'ok',
        product: module.title,
        version: '1.0.0',
        writes_enabled: true,
        projections: 'ok',
      });
    });

    it('lists every resource with its filters and search fields, and every write, in the API index', async () => {
      const res = await get('/api/').expect(200);
      expect(res.body.resources.map((resource: { name: string }) => resource.name)).toEqual(
        module.resources.map((resource) => resource.path),
      );
      for (const resource of res.body.resources) {
        expect(resource.item).toBe(`/api/v1/${resource.name}/{id}`);
        expect(resource.search_fields.length).toBeGreaterThan(0);
      }
      expect(res.body.writes).toHaveLength(module.writes.length);
    });

    it('describes every endpoint in OpenAPI 3.1 and 3.0, with bearer auth on the writes only', async () => {
      const runtime = (await get('/api/openapi.json').expect(200)).body as Doc;
      const compat = (await get('/swagger.json').expect(200)).body as Doc;
      expect(runtime.openapi).toMatch(/^3\.1\./);
      expect(compat.openapi).toBe('3.0.3');
      for (const [method, path] of endpoints) {
        const operation = paths(runtime)[path]?.[method] as { security?: unknown[] } | undefined;
        expect([method, path, operation !== undefined]).toEqual([method, path, true]);
        expect(paths(compat)[path]?.[method]).toBeDefined();
        expect([path, (operation?.security ?? []).length > 0]).toEqual([path, method !== 'get']);
      }
    });

    it('serves the interactive documentation', async () => {
      const res = await get('/api/docs/').expect(200);
      expect(res.type).toBe('text/html');
    });
  });
}

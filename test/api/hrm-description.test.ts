import request from 'supertest';
import { openHrm, type HrmHarness } from '../support/hrm-harness';
import { expectEnvelope } from './spec';

type Doc = { info: { version: string; description: string }; openapi: string; paths: Record<string, object> };

const RESOURCES = [
  'employees',
  'departments',
  'leave',
  'attendance',
  'jobs',
  'candidates',
  'applications',
  'organizations',
  'brands',
  'career-sites',
  'organization-teams',
  'job-distributions',
];

let h: HrmHarness;
beforeAll(async () => {
  h = await openHrm();
});
afterAll(() => h.close());

describe('HR module description', () => {
  it('reports health with version v1', async () => {
    const res = await request(h.app).get('/api/v1/health').expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      product: 'HR and recruitment',
      version: 'v1',
      writes_enabled: true,
      projections: 'ok',
    });
  });

  it('lists the twelve resources with their filters and the three writes in the API index', async () => {
    const res = await request(h.app).get('/api/').expect(200);
    expect(res.body.resources.map((resource: { name: string }) => resource.name)).toEqual(RESOURCES);
    const leave = res.body.resources.find((resource: { name: string }) => resource.name === 'leave');
    expect(leave).toMatchObject({
      item: '/api/v1/leave/{id}',
      filters: ['status', 'employee_id', 'department_id', 'leave_type', 'from', 'to'],
    });
    expect(
      res.body.writes.map((write: { method: string; path: string }) => `${write.method} ${write.path}`),
    ).toEqual(['POST /api/v1/leave', 'PATCH /api/v1/leave/{id}', 'POST /api/v1/attendance']);
  });

  it('states version v1 and the schema refresh date in both descriptions', async () => {
    const runtime = (await request(h.app).get('/api/openapi.json').expect(200)).body as Doc;
    const stable = (await request(h.app).get('/swagger.json').expect(200)).body as Doc;
    expect(runtime.openapi).toBe('3.1.0');
    expect(stable.openapi).toBe('3.0.3');
    for (const doc of [runtime, stable]) {
      expect(doc.info.version).toBe('v1');
      expect(doc.info.description).toMatch(/version v1/);
      expect(doc.info.description).toMatch(/2026-08-08/);
      for (const resource of RESOURCES) {
        expect(Object.keys(doc.paths)).toEqual(
          expect.arrayContaining([`/api/v1/${resource}`, `/api/v1/${resource}/{id}`]),
        );
      }
      expect(Object.keys(doc.paths['/api/v1/leave/{id}'] ?? {})).toEqual(
        expect.arrayContaining(['get', 'patch']),
      );
    }
  });

  it('serves the interactive documentation', async () => {
    const res = await request(h.app).get('/api/docs/').expect(200);
    expect(res.type).toBe('text/html');
  });

  it('answers other methods on a resource with 405 and unknown routes with 404', async () => {
    const res = await request(h.app).delete('/api/v1/leave/1');
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toMatch(/PATCH/);
    expectEnvelope(await request(h.app).get('/api/v1/payroll'), 404, 'route_not_found');
  });
});

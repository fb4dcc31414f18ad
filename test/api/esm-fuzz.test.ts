import fc from 'fast-check';
import request from 'supertest';
import { openEsm, TOKEN, type EsmHarness } from '../support/esm-harness';

let h: EsmHarness;
beforeAll(async () => {
  h = await openEsm();
});
afterAll(() => h.close());

const RESOURCES = ['services', 'requests', 'knowledge', 'departments'];

/** An answer is never a 5xx, and every error is in the error envelope or the 422 `detail` shape. */
function expectWellFormed(response: request.Response): void {
  expect(response.status).toBeLessThan(500);
  if (response.status < 400) return;
  if (response.status === 422 && response.body.detail) {
    for (const detail of response.body.detail)
      expect(detail).toMatchObject({ loc: expect.any(Array), msg: expect.any(String) });
    return;
  }
  expect(response.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts:\d+/);
}

const text = fc.oneof(
  fc.string(),
  fc.constantFrom('', '-1', '0', '201', '1.5', '%', '"', "'", '9'.repeat(30), 'Open'),
);

describe('bad input never breaks the service desk', () => {
  it('answers any query on any list with a page or a well-formed 422', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RESOURCES),
        fc.dictionary(fc.constantFrom('limit', 'offset', 'q', 'status', 'priority', 'service_id', 'x'), text),
        async (resource, query) => {
          const response = await request(h.app).get(`/api/v1/${resource}`).query(query);
          expectWellFormed(response);
          if (response.status === 200) expect(response.body.meta.total).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers any id on any resource with the record, a 404 or a 422', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...RESOURCES), text, async (resource, id) => {
        const response = await request(h.app).get(`/api/v1/${resource}/${encodeURIComponent(id)}`);
        expectWellFormed(response);
      }),
      { numRuns: 150 },
    );
  });

  it('answers any JSON body to the writes with a record or a well-formed error', async () => {
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          title: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
          status: fc.oneof(fc.constantFrom('Open', 'open', 'Closed', 'Pending Approval'), fc.string()),
          priority: fc.oneof(fc.constantFrom('Low', 'HIGH', 'Urgent'), fc.string()),
          service_id: fc.oneof(fc.integer(), fc.constant(null), fc.string()),
          form_data: fc.oneof(fc.string(), fc.constant(null), fc.object()),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('post', 'patch'), async (payload, method) => {
        const path = method === 'post' ? '/api/v1/requests' : '/api/v1/requests/1';
        const response = await request(h.app)
          [method](path)
          .set('Authorization', `Bearer ${TOKEN}`)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(payload));
        expectWellFormed(response);
        if (response.status === 201)
          expect(response.body).toMatchObject({ id: expect.any(Number), status: expect.any(String) });
      }),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import request from 'supertest';
import { fpaModule } from '../../src/api/fpa';
import { openModule, type ModuleHarness } from '../support/module-harness';

let h: ModuleHarness<unknown>;
beforeAll(async () => {
  h = await openModule(fpaModule, { demo: true });
});
afterAll(() => h.close());

/** An answer is never a 5xx, and every error is the error envelope. */
function expectWellFormed(response: request.Response): void {
  expect(response.status).toBeLessThan(500);
  if (response.status < 400) return;
  expect(Object.keys(response.body)).toEqual(['error']);
  expect(response.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
}

const text = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    '-1',
    '0',
    '201',
    '1.5',
    '2026-00',
    '2026-07',
    '2027-12',
    '2030-01',
    'QUARTER',
    'base',
    '%',
  ),
);
const PARAMETERS = [
  'from',
  'to',
  'granularity',
  'statement',
  'limit',
  'offset',
  'scenario',
  'line',
  'period',
  'state',
];

describe('bad input never breaks the planning routes', () => {
  it('answers any query on any route with figures or a well-formed error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/api/v1/statements/base',
          '/api/v1/recurring/upside',
          '/api/v1/variances',
          '/api/v1/integrations',
        ),
        fc.dictionary(fc.constantFrom(...PARAMETERS), text),
        async (path, query) => expectWellFormed(await request(h.app).get(path).query(query)),
      ),
      { numRuns: 200 },
    );
  });

  it('answers any scenario id with its figures or a 404', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('statements', 'recurring', 'scenarios', 'plans'),
        text,
        async (path, id) => {
          const response = await request(h.app).get(`/api/v1/${path}/${encodeURIComponent(id)}`);
          expectWellFormed(response);
          expect([200, 404]).toContain(response.status);
        },
      ),
      { numRuns: 100 },
    );
  });
});

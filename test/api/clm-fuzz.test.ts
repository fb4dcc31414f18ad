import fc from 'fast-check';
import request from 'supertest';
import { clmModule } from '../../src/api/clm';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { ACME, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';

/**
 * Past the access check: a workspace member sends any query, id and body to every endpoint and gets
 * an answer or a well-formed error envelope, never a 5xx.
 */
let h: ModuleHarness<ClmFixtures>;
beforeAll(async () => {
  h = await openModule(clmModule, { fixtures: clmFixtures });
});
afterAll(() => h.close());

const member = {
  Authorization: `Bearer ${TOKEN}`,
  'X-Svc-Organisation': ACME,
  'X-Svc-Actor': 'm-acme-owner',
};
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '0', '-1', '201', '2026-02-30', '2026-12-01', 'OPEN', 'overdue', 'docusign', '%ZZ'),
);
const id = fc.oneof(text, fc.constant('CONTRACT'));

const ENDPOINTS = [
  ['get', '/api/v1/contracts', ['q', 'status', 'type', 'counterparty_id']],
  ['get', '/api/v1/contracts/:id', []],
  ['get', '/api/v1/obligations', ['q', 'status', 'contract_id', 'due_before']],
  ['get', '/api/v1/obligations/:id', []],
  ['get', '/api/v1/counterparties', ['q', 'country']],
  ['post', '/api/v1/obligations', []],
  ['post', '/contracts/:id/signatures', []],
] as const;

const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      contract_id: fc.oneof(text, fc.constant('CONTRACT')),
      title: text,
      due_date: text,
      provider: fc.oneof(text, fc.constantFrom('docusign', 'dropbox_sign')),
      signers: fc.array(fc.record({ name: text, email: fc.oneof(text, fc.emailAddress()) }), {
        maxLength: 3,
      }),
      subject: text,
    },
    { requiredKeys: [] },
  ),
);

describe.each(ENDPOINTS)('%s %s', (method, path, filters) => {
  it('answers any input with a record, a page or a well-formed error', async () => {
    const contract = () => h.fixtures.approved;
    await fc.assert(
      fc.asyncProperty(
        id,
        fc.dictionary(fc.constantFrom('limit', 'offset', ...filters), text),
        fc.option(body),
        async (rawId, query, payload) => {
          const target = rawId === 'CONTRACT' ? contract() : encodeURIComponent(rawId);
          let call = request(h.app)[method](path.replace(':id', target)).set(member).query(query);
          if (method === 'post' && payload !== null) {
            const json = JSON.stringify(payload).replace('"CONTRACT"', JSON.stringify(contract()));
            call = call.set('Content-Type', 'application/json').send(json);
          }
          const res = await call;
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.body).toMatchObject({
              error: { code: expect.any(String), message: expect.any(String) },
            });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

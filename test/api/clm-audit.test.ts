import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { clmModule } from '../../src/api/clm';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { ACME, GLOBEX, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';

const AUDITOR = 'auditor-token-42';

let h: ModuleHarness<ClmFixtures>;
let audit: ReturnType<typeof createAuditApp>;
beforeAll(async () => {
  h = await openModule(clmModule, { fixtures: clmFixtures });
  audit = createAuditApp(h.suite, AUDITOR);
});
afterAll(() => h.close());

const listed = async (workspace: string, resource: string) => {
  const res = await request(h.app)
    .get(`/api/v1/${resource}`)
    .set({ Authorization: `Bearer ${TOKEN}`, 'X-Svc-Organisation': workspace })
    .query({ limit: 200 })
    .expect(200);
  return res.body.data as { id: string }[];
};

describe('GET /api/v1/history/clm/{resource}/{id}', () => {
  it.each(['contracts', 'obligations', 'counterparties', 'members', 'workspaces'])(
    'finds the history of every %s record by the id its list shows, in each workspace',
    async (resource) => {
      for (const workspace of [ACME, GLOBEX]) {
        const records = await listed(workspace, resource);
        expect(records.length).toBeGreaterThan(0);
        for (const { id } of records) {
          const res = await request(audit)
            .get(`/api/v1/history/clm/${resource}/${encodeURIComponent(id)}`)
            .set('Authorization', `Bearer ${AUDITOR}`)
            .expect(200);
          const steps = res.body.data.events as { record: { id: string; workspace_id?: string } }[];
          expect(steps.at(-1)?.record).toMatchObject({ id });
          if (resource !== 'workspaces') expect(steps.at(-1)?.record.workspace_id).toBe(workspace);
        }
      }
    },
  );

  it('answers 404 for an id no list shows', async () => {
    const res = await request(audit)
      .get('/api/v1/history/clm/contracts/1')
      .set('Authorization', `Bearer ${AUDITOR}`)
      .expect(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

import request from 'supertest';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity } from '../../src/api/kit/identity';
import { requireApproval } from '../../src/approvals/policies';
import { issueKey, keyAuthenticator } from '../../src/iam';
import { createSeedContext } from '../../src/seed/context';
import { openEsm, SERVER_SECRET, TOKEN, type EsmHarness } from '../support/esm-harness';
import { auth, validRequest } from './spec';

let h: EsmHarness;
let app: ReturnType<typeof createModuleApp>;
let clerk: { Authorization: string };
beforeEach(async () => {
  h = await openEsm();
  const operator = createSeedContext(h.suite.eventStore, h.suite.ids, 'operator').commands;
  await requireApproval(operator, esmModule, 'PATCH /api/v1/requests/{item_id}', 'esm:approver');
  await requireApproval(operator, esmModule, 'POST /api/v1/agents', 'esm:approver');
  const issued = await issueKey(
    operator,
    { name: 'Desk clerk', member: null, workspace: null, expiresIn: null, roles: ['esm:writer'] },
    SERVER_SECRET,
  );
  clerk = { Authorization: `Bearer ${issued.token}` };
  await h.suite.runtime.waitFor(await h.suite.eventStore.headPosition());
  const identity = createIdentity({
    apiToken: TOKEN,
    authenticators: [keyAuthenticator(h.suite.readStore, SERVER_SECRET, h.suite.clock)],
  });
  app = createModuleApp(esmModule, h.suite, { apiToken: TOKEN, sessionSecret: SERVER_SECRET, identity });
});
afterEach(() => h.close());

async function create(): Promise<number> {
  const body = { ...validRequest, priority: 'Low', service_id: h.fixtures.laptopService };
  return (await request(app).post('/api/v1/requests').set(auth).send(body).expect(201)).body.id as number;
}
const propose = async (id: number, body: object) =>
  (await request(app).patch(`/api/v1/requests/${id}`).set(clerk).send(body).expect(202)).body.id as string;

describe('proposals with their context', () => {
  it('names the proposer, links the record and previews the change against its values now', async () => {
    const id = await create();
    const proposal = await propose(id, { priority: 'Urgent', assignee_id: h.fixtures.agent });
    const res = await request(app).get(`/api/v1/proposals/${proposal}`).set(auth).expect(200);
    expect(res.body).toMatchObject({
      id: proposal,
      proposed_by: expect.stringMatching(/^key:/),
      proposer_name: 'Desk clerk',
      target: {
        resource: 'requests',
        id,
        href: `/api/v1/requests/${id}`,
        record: { id, priority: 'Low', assignee_id: null, assignee_name: null },
      },
      preview: [
        { field: 'priority', before: 'Low', after: 'Urgent' },
        { field: 'assignee_id', before: null, after: h.fixtures.agent },
      ],
      age_seconds: 0,
      conflicts: [],
    });
  });

  it('names the other proposals pending on the same record, and counts the pending ones', async () => {
    const id = await create();
    const other = await create();
    const first = await propose(id, { priority: 'High' });
    const second = await propose(id, { priority: 'Urgent' });
    const elsewhere = await propose(other, { priority: 'High' });
    const page = (await request(app).get('/api/v1/proposals?status=pending').set(auth).expect(200)).body;
    const conflicts = Object.fromEntries(
      page.data.map((item: { id: string; conflicts: string[] }) => [item.id, item.conflicts]),
    );
    expect(conflicts).toEqual({ [first]: [second], [second]: [first], [elsewhere]: [] });
    const count = await request(app).get('/api/v1/proposals?status=pending&limit=1').set(auth).expect(200);
    expect(count.body.meta.total).toBe(3);
    await request(app)
      .post(`/api/v1/proposals/${first}/reject`)
      .set(auth)
      .send({ reason: 'Not urgent' })
      .expect(200);
    const after = (await request(app).get(`/api/v1/proposals/${second}`).set(auth)).body;
    expect(after.conflicts).toEqual([]);
  });

  it('has no target for a write that creates a record, and previews its fields against nothing', async () => {
    const held = await request(app).post('/api/v1/agents').set(clerk).send({ name: 'Ada' }).expect(202);
    const res = await request(app).get(`/api/v1/proposals/${held.body.id}`).set(auth).expect(200);
    expect(res.body).toMatchObject({
      target: null,
      preview: [{ field: 'name', before: null, after: 'Ada' }],
    });
  });
});

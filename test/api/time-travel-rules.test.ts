import type { RequestListener } from 'node:http';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { clmModule } from '../../src/api/clm';
import { esmModule } from '../../src/api/esm';
import { hrmModule } from '../../src/api/hrm';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';

/** What a read as of a point in time refuses, keeps to the caller's scope, and tells of business time. */

jest.setTimeout(180_000);

const AUDITOR = 'time-travel-rules-auditor';
const auth = { Authorization: `Bearer ${TOKEN}` };
const auditor = { Authorization: `Bearer ${AUDITOR}` };

interface Step {
  event: { type: string; position: number; data: Record<string, unknown>; metadata: { occurred_at: string } };
  record: Record<string, unknown> | null;
}

const dayBefore = (date: string) => new Date(Date.parse(date) - 86_400_000).toISOString().slice(0, 10);

describe('an HR employee who left', () => {
  let harness: ModuleHarness<undefined>;
  let audit: RequestListener;
  beforeAll(async () => {
    harness = await openModule(hrmModule, { demo: true });
    audit = createAuditApp(harness.suite, AUDITOR);
  });
  afterAll(() => harness.close());

  async function leaver() {
    const page = await harness.suite.readStore.find('hrm.employees', {
      filters: [{ field: 'status', op: 'eq', value: 'Left' }],
      limit: 1,
      offset: 0,
    });
    const employee = JSON.parse(page.items[0] as string) as { id: number; relieving_date: string };
    const history = await request(audit).get(`/api/v1/history/hrm/employees/${employee.id}`).set(auditor);
    return { employee, steps: history.body.data.events as Step[] };
  }

  it('is not Left valid_at a day before their leaving date, and Left valid_at when their leaving occurred', async () => {
    const { employee, steps } = await leaver();
    const read = (valid_at: string) =>
      request(harness.app).get(`/api/v1/employees/${employee.id}`).query({ valid_at }).set(auth).expect(200);
    const before = await read(dayBefore(employee.relieving_date));
    expect(before.body.data.status).not.toBe('Left');
    expect(before.body.data.relieving_date).toBeNull();
    expect(before.body.meta.valid_at).toBe(dayBefore(employee.relieving_date));
    const left = steps.find(
      (step) => step.event.type === 'EmployeeStatusChanged' && step.record?.status === 'Left',
    );
    const leftAt = (left as Step).event.metadata.occurred_at;
    expect((await read(leftAt)).body.data.status).toBe('Left');
  });

  it('combines valid_at with as_of_position: what was true then, as known by then', async () => {
    const { employee, steps } = await leaver();
    const joined = (steps[0] as Step).event.position;
    const answer = await request(harness.app)
      .get(`/api/v1/employees/${employee.id}`)
      .query({ as_of_position: joined, valid_at: '2100-01-01' })
      .set(auth)
      .expect(200);
    expect(answer.body).toEqual({
      data: (steps[0] as Step).record,
      meta: { as_of_position: joined, valid_at: '2100-01-01', position: joined },
    });
  });

  it('reads a time to come as now, the read model itself', async () => {
    const { employee } = await leaver();
    const plain = await request(harness.app).get(`/api/v1/employees/${employee.id}`).set(auth).expect(200);
    const later = await request(harness.app)
      .get(`/api/v1/employees/${employee.id}`)
      .query({ as_of: '2999-01-01T00:00:00Z' })
      .set(auth)
      .expect(200);
    expect(later.body.data).toEqual(plain.body);
    expect(later.body.meta.position).toBeGreaterThan(0);
  });

  it('refuses what it cannot read, naming the parameter in the envelope', async () => {
    const { employee } = await leaver();
    const head = await harness.suite.eventStore.headPosition();
    const refused = async (query: Record<string, string | number>) => {
      const res = await request(harness.app)
        .get(`/api/v1/employees/${employee.id}`)
        .query(query)
        .set(auth)
        .expect(422);
      expect(res.body.error.code).toBe('validation_error');
      return res.body.error.details.issues as { loc: string[]; msg: string }[];
    };
    expect((await refused({ as_of: 'yesterday' }))[0]?.loc).toEqual(['query', 'as_of']);
    expect((await refused({ valid_at: '2026-02-30' }))[0]?.loc).toEqual(['query', 'valid_at']);
    expect((await refused({ as_of_position: -1 }))[0]?.loc).toEqual(['query', 'as_of_position']);
    expect((await refused({ as_of_position: head + 1 }))[0]?.loc).toEqual(['query', 'as_of_position']);
    const both = await refused({ as_of: '2026-07-14', as_of_position: 1 });
    expect(both[0]?.msg).toMatch(/as_of and as_of_position/);
  });

  it('cuts the record history as it cuts the read, and names the cut in meta', async () => {
    const { employee, steps } = await leaver();
    const path = `/api/v1/history/hrm/employees/${employee.id}`;
    const joined = (steps[0] as Step).event.position;
    const cut = await request(audit).get(path).query({ as_of_position: joined }).set(auditor).expect(200);
    expect(cut.body.data.events).toEqual(steps.filter((step) => step.event.position <= joined));
    expect(cut.body.meta).toEqual({ as_of_position: joined, position: joined });
    const valid = await request(audit)
      .get(path)
      .query({ valid_at: dayBefore(employee.relieving_date) })
      .set(auditor)
      .expect(200);
    expect(valid.body.data.events.at(-1).record.status).not.toBe('Left');
    await request(audit)
      .get(path)
      .query({ as_of_position: joined - 1 })
      .set(auditor)
      .expect(404);
    const both = await request(audit)
      .get(path)
      .query({ as_of: '2026-07-14', as_of_position: 1 })
      .set(auditor);
    expect(both.status).toBe(422);
    expect(both.body.error.code).toBe('validation_error');
  });
});

describe('the service desk', () => {
  let harness: ModuleHarness<undefined>;
  beforeAll(async () => {
    harness = await openModule(esmModule, { demo: true });
  });
  afterAll(() => harness.close());

  it('answers its 422 detail naming the parameter', async () => {
    const res = await request(harness.app)
      .get('/api/v1/requests/1')
      .query({ as_of: '14/07/2026' })
      .expect(422);
    expect(res.body.detail[0].loc).toEqual(['query', 'as_of']);
  });

  it('keeps a plain read byte for byte, the names it joins in after the stored record', async () => {
    const stored = (await harness.suite.readStore.get('esm.requests', 1)) as string;
    const res = await request(harness.app).get('/api/v1/requests/1').expect(200);
    expect(res.text).toBe(`${stored.slice(0, -1)},"assignee_name":null,"requester_name":null}`);
  });
});

describe('contracts, scoped to a workspace', () => {
  let harness: ModuleHarness<undefined>;
  beforeAll(async () => {
    harness = await openModule(clmModule, { demo: true });
  });
  afterAll(() => harness.close());

  it('answers a contract of another workspace 404, as of any time', async () => {
    const page = await harness.suite.readStore.find('clm.contracts', { limit: 1, offset: 0 });
    const contract = JSON.parse(page.items[0] as string) as { id: string; workspace_id: string };
    const read = (workspace: string) =>
      request(harness.app)
        .get(`/api/v1/contracts/${contract.id}`)
        .query({ as_of: '2999-01-01' })
        .set({ ...auth, 'X-Svc-Organisation': workspace });
    expect((await read(contract.workspace_id)).status).toBe(200);
    const other = await read(`${contract.workspace_id}-other`);
    expect([403, 404]).toContain(other.status);
  });
});

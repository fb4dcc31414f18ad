import request from 'supertest';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity } from '../../src/api/kit/identity';
import { requireApproval } from '../../src/approvals/policies';
import { operatorContext } from '../../src/cli/common';
import { issueKey, keyAuthenticator } from '../../src/iam';
import { eraseSubject } from '../../src/privacy/erase';
import { createSeedContext } from '../../src/seed/context';
import { openEsm, SERVER_SECRET, TOKEN, type EsmHarness } from '../support/esm-harness';
import { auth, expectEnvelope, validRequest } from './spec';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

interface Entry {
  kind: string;
  actor: string;
  summary: string;
  changes: { field: string; before: unknown; after: unknown }[];
  comment: { body: string | null; visibility: string } | null;
  proposal: { id: string; route: string; status: string } | null;
}

async function create(overrides: object = {}): Promise<number> {
  const body = { ...validRequest, service_id: h.fixtures.laptopService, ...overrides };
  return (await request(h.app).post('/api/v1/requests').set(auth).send(body).expect(201)).body.id as number;
}
const patch = (id: number, body: object) =>
  request(h.app).patch(`/api/v1/requests/${id}`).set(auth).send(body).expect(200);
const comment = (id: number, body: string, visibility: string) =>
  request(h.app).post(`/api/v1/requests/${id}/comments`).set(auth).send({ body, visibility }).expect(201);

describe('a record\u2019s activity', () => {
  it('tells what happened, newest first, as changes before and after, by name', async () => {
    const id = await create({ priority: 'Low' });
    await patch(id, { assignee_id: h.fixtures.agent });
    await patch(id, { priority: 'High' });
    const page = (await request(h.app).get(`/api/v1/requests/${id}/activity`).expect(200)).body;
    expect(page.meta).toEqual({ total: 3, limit: 50, offset: 0 });
    const [priority, assigned, created] = page.data as Entry[];
    expect(created).toMatchObject({ kind: 'created', actor: 'Administrator', summary: 'Request submitted' });
    expect(created?.changes).toContainEqual({ field: 'title', before: null, after: validRequest.title });
    expect(assigned?.changes).toContainEqual({ field: 'assignee_id', before: null, after: h.fixtures.agent });
    expect(priority).toMatchObject({ kind: 'changed', summary: 'Request priority changed' });
    expect(priority?.changes).toContainEqual({ field: 'priority', before: 'Low', after: 'High' });
    expect(priority?.changes.map((change) => change.field)).not.toContain('updated_at');
    const second = (await request(h.app).get(`/api/v1/requests/${id}/activity?limit=1&offset=1`)).body;
    expect(second.data).toEqual([assigned]);
  });

  it('shows replies to anyone who may read the request, internal notes to staff only', async () => {
    const id = await create();
    await comment(id, 'Checking stock', 'internal');
    await comment(id, 'Ships Monday', 'public');
    const kinds = async (headers: Record<string, string>) =>
      (
        (await request(h.app).get(`/api/v1/requests/${id}/activity`).set(headers).expect(200)).body
          .data as Entry[]
      )
        .filter((entry) => entry.kind === 'comment')
        .map((entry) => entry.comment);
    expect(await kinds({})).toEqual([{ body: 'Ships Monday', visibility: 'public' }]);
    expect(await kinds(auth)).toEqual([
      { body: 'Ships Monday', visibility: 'public' },
      { body: 'Checking stock', visibility: 'internal' },
    ]);
    const bad = await request(h.app)
      .get(`/api/v1/requests/${id}/activity`)
      .set('Authorization', 'Bearer wrong');
    expectEnvelope(bad, 401, 'unauthorized');
  });

  it('shows a proposal about the record, its proposed values to staff, and what became of it', async () => {
    const operator = createSeedContext(h.suite.eventStore, h.suite.ids, 'operator').commands;
    await requireApproval(operator, esmModule, 'PATCH /api/v1/requests/{item_id}', 'esm:approver');
    const lead = await issueKey(
      operator,
      { name: 'Desk lead', member: null, workspace: null, expiresIn: null, roles: ['esm:approver'] },
      SERVER_SECRET,
    );
    await h.suite.runtime.waitFor(await h.suite.eventStore.headPosition());
    const identity = createIdentity({
      apiToken: TOKEN,
      authenticators: [keyAuthenticator(h.suite.readStore, SERVER_SECRET, h.suite.clock)],
    });
    const app = createModuleApp(esmModule, h.suite, {
      apiToken: TOKEN,
      sessionSecret: SERVER_SECRET,
      identity,
    });
    const id = await create({ priority: 'Low' });
    const proposed = await request(app)
      .patch(`/api/v1/requests/${id}`)
      .set(auth)
      .send({ priority: 'Urgent' })
      .expect(202);
    const pending = (await request(app).get(`/api/v1/requests/${id}/activity`).set(auth)).body
      .data as Entry[];
    expect(pending[0]).toMatchObject({
      kind: 'proposal',
      actor: 'Administrator',
      proposal: { id: proposed.body.id, route: 'PATCH /api/v1/requests/{item_id}', status: 'pending' },
      changes: [{ field: 'priority', before: 'Low', after: 'Urgent' }],
    });
    const anonymous = (await request(app).get(`/api/v1/requests/${id}/activity`)).body.data as Entry[];
    expect(anonymous[0]).toMatchObject({ kind: 'proposal', changes: [] });
    await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set('Authorization', `Bearer ${lead.token}`)
      .expect(200);
    const after = (await request(app).get(`/api/v1/requests/${id}/activity`).set(auth)).body.data as Entry[];
    expect(after.map((entry) => [entry.kind, entry.actor])).toEqual([
      ['proposal', 'Desk lead'],
      ['changed', 'Administrator'],
      ['proposal', 'Desk lead'],
      ['proposal', 'Administrator'],
      ['created', 'Administrator'],
    ]);
    expect(after[1]?.changes).toContainEqual({ field: 'priority', before: 'Low', after: 'Urgent' });
  });

  it('shows an erasure, and the erased values as erased in every entry', async () => {
    const id = await create({ form_data: '{"phone":"+44 7700 900123"}' });
    await comment(id, 'Call +44 7700 900123', 'internal');
    await eraseSubject(operatorContext(h.suite), h.suite.subjectKeys, `esm.request-${id}`, 'Art. 17');
    const res = await request(h.app).get(`/api/v1/requests/${id}/activity`).set(auth).expect(200);
    expect(JSON.stringify(res.body)).not.toContain('900123');
    expect((res.body.data as Entry[])[0]).toMatchObject({ kind: 'erasure', summary: 'Personal data erased' });
  });

  it('is 404 for a record that does not exist, and 422 for an id that is not one', async () => {
    expectEnvelope(await request(h.app).get('/api/v1/requests/999/activity'), 404, 'not_found');
    expect((await request(h.app).get('/api/v1/requests/abc/activity')).status).toBe(422);
    expect((await request(h.app).get(`/api/v1/agents/${h.fixtures.agent}/activity`)).status).toBe(200);
  });
});

import request from 'supertest';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity } from '../../src/api/kit/identity';
import { requireApproval } from '../../src/approvals/policies';
import { issueKey, keyAuthenticator } from '../../src/iam';
import { createSeedContext } from '../../src/seed/context';
import { openEsm, SERVER_SECRET, TOKEN, type EsmHarness } from '../support/esm-harness';
import { auth, expectEnvelope, namedFields, validRequest } from './spec';

const NOW = '2026-11-21T09:30:00Z';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

const patch = (id: number, body: object) =>
  request(h.app).patch(`/api/v1/requests/${id}`).set(auth).send(body);
const comment = (id: number | string, body: object) =>
  request(h.app).post(`/api/v1/requests/${id}/comments`).set(auth).send(body);
const comments = (id: number, query = '') =>
  request(h.app).get(`/api/v1/requests/${id}/comments${query}`).set(auth);

async function create(overrides: object = {}): Promise<number> {
  const body = { ...validRequest, service_id: h.fixtures.laptopService, ...overrides };
  const res = await request(h.app).post('/api/v1/requests').set(auth).send(body).expect(201);
  return res.body.id as number;
}

describe('comments on a request', () => {
  it('adds an internal note, authored by the caller, without touching the workflow', async () => {
    const id = await create();
    const res = await comment(id, { body: 'Checking stock', visibility: 'internal' }).expect(201);
    expect(res.body).toEqual({
      id: `${id}-000001`,
      request_id: id,
      number: 1,
      body: 'Checking stock',
      visibility: 'internal',
      author: 'token:admin',
      author_name: null,
      added_on: NOW,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const record = (await request(h.app).get(`/api/v1/requests/${id}`)).body;
    expect(record).toMatchObject({ status: 'Open', first_responded_on: null });
  });

  it('answers an open request with a public reply: Replied, first_responded_on set', async () => {
    const id = await create();
    await comment(id, { body: 'Your laptop ships Monday', visibility: 'public' }).expect(201);
    const record = (await request(h.app).get(`/api/v1/requests/${id}`)).body;
    expect(record).toMatchObject({ status: 'Replied', first_responded_on: NOW });
    expect(record.sla_targets.response).toBe('met');
  });

  it('lists a request\u2019s comments oldest first, paged and by visibility, to a credential only', async () => {
    const id = await create();
    for (const [body, visibility] of [
      ['one', 'internal'],
      ['two', 'public'],
      ['three', 'internal'],
    ]) {
      await comment(id, { body, visibility }).expect(201);
    }
    const page = (await comments(id, '?limit=2').expect(200)).body;
    expect(page.meta).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(page.data.map((item: { body: string }) => item.body)).toEqual(['one', 'two']);
    const notes = (await comments(id, '?visibility=internal').expect(200)).body;
    expect(notes.data.map((item: { body: string }) => item.body)).toEqual(['one', 'three']);
    expectEnvelope(await request(h.app).get(`/api/v1/requests/${id}/comments`), 401, 'unauthorized');
  });

  it('refuses an empty or unknown-visibility comment, and one on a missing request', async () => {
    const id = await create();
    const empty = await comment(id, { body: '  ', visibility: 'public' });
    expectEnvelope(empty, 422, 'validation_error');
    expect(namedFields(empty)).toEqual(['body']);
    expect(namedFields(await comment(id, { body: 'x', visibility: 'secret' }))).toEqual(['visibility']);
    expectEnvelope(await comment(999, { body: 'x', visibility: 'public' }), 404, 'not_found');
    expectEnvelope(await comments(999), 404, 'not_found');
  });
});

describe('assignee, priority and service through PATCH', () => {
  it('assigns an active agent and unassigns with null', async () => {
    const id = await create();
    await patch(id, { assignee_id: h.fixtures.agent }).expect(200);
    const res = await patch(id, { assignee_id: null }).expect(200);
    expect(res.body.assignee_id).toBeNull();
  });

  it('refuses an unknown or deactivated agent, naming assignee_id', async () => {
    const id = await create();
    for (const assignee_id of [999, h.fixtures.formerAgent]) {
      const res = await patch(id, { assignee_id });
      expectEnvelope(res, 422, 'validation_error');
      expect(namedFields(res)).toEqual(['assignee_id']);
    }
  });

  it('changes the priority and sets the due times anew', async () => {
    const id = await create({ priority: 'Low' });
    const res = await patch(id, { priority: 'urgent' }).expect(200);
    expect(res.body).toMatchObject({
      priority: 'Urgent',
      response_by: '2026-11-23T09:30:00Z',
      resolution_by: '2026-11-23T11:00:00Z',
    });
  });

  it('moves a request to another active service, refusing an inactive one', async () => {
    const id = await create();
    const moved = await patch(id, { service_id: h.fixtures.accessService }).expect(200);
    expect(moved.body.service_id).toBe(h.fixtures.accessService);
    const res = await patch(id, { service_id: h.fixtures.retiredService });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['service_id']);
  });
});

describe('request queues and SLA', () => {
  it('filters by assignee, unassigned, priority and SLA state', async () => {
    const mine = await create({ priority: 'High' });
    const other = await create({ priority: 'Low' });
    await patch(mine, { assignee_id: h.fixtures.agent }).expect(200);
    const ids = async (query: string) =>
      (await request(h.app).get(`/api/v1/requests?${query}`).expect(200)).body.data.map(
        (item: { id: number }) => item.id,
      );
    expect(await ids(`assignee_id=${h.fixtures.agent}`)).toEqual([mine]);
    expect(await ids('unassigned=true')).toEqual([other]);
    expect(await ids('unassigned=false')).toEqual([mine]);
    expect(await ids('priority=high')).toEqual([mine]);
    expect(await ids('sla_state=on_track')).toEqual([mine, other]);
    expect((await request(h.app).get('/api/v1/requests?sla_state=late')).status).toBe(422);
  });

  it('records the breach when the sweep finds a due time passed, and the list follows', async () => {
    const id = await create({ priority: 'Urgent' });
    const late = new Date('2026-11-23T09:31:00Z');
    const sweep = h.suite.modules.flatMap((module) => module.sweeps ?? [])[0];
    if (!sweep?.due) throw new Error('the service desk declares its SLA sweep');
    expect(await sweep.due(h.suite.readStore, late)).toEqual([String(id)]);
    const context = {
      ...h.suite,
      eventId: () => crypto.randomUUID(),
      metadata: () => ({
        actor: 'worker:esm-sla',
        request_id: 'sweep',
        correlation_id: 'sweep',
        causation_id: null,
        occurred_at: '2026-11-23T09:31:00Z',
      }),
    };
    await sweep.expire(context, String(id), h.suite.readStore);
    await h.suite.runtime.waitFor(await h.suite.eventStore.headPosition());
    const record = (await request(h.app).get(`/api/v1/requests/${id}`)).body;
    expect(record).toMatchObject({ sla_state: 'breached', sla_targets: { response: 'breached' } });
    const breached = (await request(h.app).get('/api/v1/requests?sla_state=breached')).body.data;
    expect(breached.map((item: { id: number }) => item.id)).toEqual([id]);
  });
});

describe('agents', () => {
  it('adds an agent, active, and lists agents by whether they are', async () => {
    const res = await request(h.app)
      .post('/api/v1/agents')
      .set(auth)
      .send({ name: 'Sam Lee', department_id: h.fixtures.itDepartment })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Sam Lee',
      department_id: h.fixtures.itDepartment,
      is_active: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.headers.location).toBe(`/api/v1/agents/${res.body.id}`);
    const inactive = (await request(h.app).get('/api/v1/agents?is_active=false').expect(200)).body.data;
    expect(inactive.map((agent: { id: number }) => agent.id)).toEqual([h.fixtures.formerAgent]);
  });

  it('deactivates an agent, who may then not be assigned, and activates them again', async () => {
    const id = await create();
    const off = await request(h.app)
      .patch(`/api/v1/agents/${h.fixtures.agent}`)
      .set(auth)
      .send({ is_active: false })
      .expect(200);
    expect(off.body.is_active).toBe(0);
    expectEnvelope(await patch(id, { assignee_id: h.fixtures.agent }), 422, 'validation_error');
    await request(h.app).patch(`/api/v1/agents/${h.fixtures.agent}`).set(auth).send({ is_active: true });
    await patch(id, { assignee_id: h.fixtures.agent }).expect(200);
  });

  it('refuses an unknown department, an unknown agent and a body without is_active', async () => {
    const res = await request(h.app)
      .post('/api/v1/agents')
      .set(auth)
      .send({ name: 'Sam', department_id: 99 });
    expect(namedFields(res)).toEqual(['department_id']);
    expectEnvelope(
      await request(h.app).patch('/api/v1/agents/99').set(auth).send({ is_active: false }),
      404,
      'not_found',
    );
    expectEnvelope(
      await request(h.app).patch('/api/v1/agents/1').set(auth).send({}),
      422,
      'validation_error',
    );
  });
});

describe('a comment under an approval policy', () => {
  it('is held back as a proposal, and added once another person approves it', async () => {
    const operator = { ...createSeedContext(h.suite.eventStore, h.suite.ids, 'operator').commands };
    await requireApproval(operator, esmModule, 'POST /api/v1/requests/{item_id}/comments', 'esm:approver');
    const issued = await issueKey(
      operator,
      { name: 'lead', member: null, workspace: null, expiresIn: null, roles: ['esm:approver'] },
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
    const id = await create();
    const proposed = await request(app)
      .post(`/api/v1/requests/${id}/comments`)
      .set(auth)
      .send({ body: 'Approved by the lead', visibility: 'public' })
      .expect(202);
    expect((await comments(id).expect(200)).body.meta.total).toBe(0);
    await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set('Authorization', `Bearer ${issued.token}`)
      .expect(200);
    const listed = (await comments(id).expect(200)).body.data;
    expect(listed).toMatchObject([{ body: 'Approved by the lead', visibility: 'public' }]);
  });
});

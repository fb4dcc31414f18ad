import request from 'supertest';
import { openEsm, type EsmHarness } from '../support/esm-harness';
import { REQUEST, auth, expectEnvelope, expectShape, namedFields, validRequest } from './spec';

const NOW = '2026-11-21T09:30:00Z';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

const patch = (id: number | string, body: object) =>
  request(h.app).patch(`/api/v1/requests/${id}`).set(auth).send(body);

async function create(overrides: object = {}): Promise<number> {
  const res = await request(h.app)
    .post('/api/v1/requests')
    .set(auth)
    .send({ ...validRequest, ...overrides })
    .expect(201);
  return res.body.id as number;
}

const pending = () => create({ service_id: h.fixtures.accessService });

describe('PATCH /api/v1/requests/{item_id} authentication', () => {
  it('answers 503 writes_disabled when no token is configured', async () => {
    const open = await openEsm({ token: null });
    try {
      const res = await request(open.app).patch('/api/v1/requests/1').set(auth).send({ status: 'Closed' });
      expectEnvelope(res, 503, 'writes_disabled');
    } finally {
      await open.close();
    }
  });

  it('answers 401 with WWW-Authenticate for a missing token', async () => {
    const id = await create();
    const res = await request(h.app).patch(`/api/v1/requests/${id}`).send({ status: 'Closed' });
    expectEnvelope(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers 401 for a wrong token and leaves the request unchanged', async () => {
    const id = await create();
    const res = await request(h.app)
      .patch(`/api/v1/requests/${id}`)
      .set('Authorization', 'Bearer wrong')
      .send({ status: 'Closed' });
    expectEnvelope(res, 401, 'unauthorized');
    expect((await request(h.app).get(`/api/v1/requests/${id}`)).body.status).toBe('Open');
  });
});

describe('PATCH /api/v1/requests/{item_id} workflow', () => {
  it('approves a pending request, setting approver_id and approved_on', async () => {
    const id = await pending();
    const res = await patch(id, { status: 'Open', approver_id: 7 }).expect(200);
    expectShape(res.body, REQUEST);
    expect(res.body).toMatchObject({ id, status: 'Open', approver_id: 7, approved_on: NOW });
    expect((await request(h.app).get(`/api/v1/requests/${id}`)).body).toEqual(res.body);
  });

  it('requires approver_id to approve, naming the field', async () => {
    const id = await pending();
    const res = await patch(id, { status: 'Open' });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['approver_id']);
  });

  it('rejects a pending request, recording the approver', async () => {
    const id = await pending();
    const res = await patch(id, { status: 'rejected', approver_id: 7 }).expect(200);
    expect(res.body).toMatchObject({ status: 'Rejected', approver_id: 7, approved_on: null });
  });

  it('resolves an open request, setting resolved_on and first_responded_on', async () => {
    const id = await create();
    const res = await patch(id, { status: 'Resolved' }).expect(200);
    expect(res.body).toMatchObject({ status: 'Resolved', resolved_on: NOW, first_responded_on: NOW });
  });

  it('records the first response when a request is replied to', async () => {
    const id = await create();
    const res = await patch(id, { status: 'Replied' }).expect(200);
    expect(res.body).toMatchObject({ status: 'Replied', first_responded_on: NOW, resolved_on: null });
  });

  it('reopens a resolved request and clears resolved_on', async () => {
    const id = await create();
    await patch(id, { status: 'Resolved' }).expect(200);
    const res = await patch(id, { status: 'Open' }).expect(200);
    expect(res.body).toMatchObject({ status: 'Open', resolved_on: null, first_responded_on: NOW });
  });

  it('assigns a request', async () => {
    const id = await create();
    const res = await patch(id, { assignee_id: h.fixtures.agent }).expect(200);
    expect(res.body).toMatchObject({ assignee_id: h.fixtures.agent, status: 'Open' });
  });

  it('answers an illegal move (Closed -> Open) with 409 illegal_transition', async () => {
    const id = await create();
    await patch(id, { status: 'Closed' }).expect(200);
    const head = await h.suite.eventStore.headPosition();
    expectEnvelope(await patch(id, { status: 'Open' }), 409, 'illegal_transition');
    expect(await h.suite.eventStore.headPosition()).toBe(head);
    expect((await request(h.app).get(`/api/v1/requests/${id}`)).body.status).toBe('Closed');
  });

  it('answers a move back to Pending Approval with 409 illegal_transition', async () => {
    const id = await create();
    expectEnvelope(await patch(id, { status: 'Pending Approval' }), 409, 'illegal_transition');
  });

  it('accepts feedback_rating once the request is resolved', async () => {
    const id = await create();
    await patch(id, { status: 'Resolved' }).expect(200);
    const res = await patch(id, { feedback_rating: 4 }).expect(200);
    expect(res.body).toMatchObject({ status: 'Resolved', feedback_rating: 4 });
  });

  it('refuses feedback_rating before the request is resolved with 409', async () => {
    const id = await create();
    expectEnvelope(await patch(id, { feedback_rating: 4 }), 409, 'illegal_transition');
    expect((await request(h.app).get(`/api/v1/requests/${id}`)).body.feedback_rating).toBeNull();
  });

  it('resolves and rates in one change', async () => {
    const id = await create();
    const res = await patch(id, { status: 'Resolved', feedback_rating: 5 }).expect(200);
    expect(res.body).toMatchObject({ status: 'Resolved', feedback_rating: 5 });
  });

  it('answers an unchanged status with the record and appends nothing', async () => {
    const id = await create();
    const before = (await request(h.app).get(`/api/v1/requests/${id}`)).body;
    const head = await h.suite.eventStore.headPosition();
    const res = await patch(id, { status: 'Open' }).expect(200);
    expect(res.body).toEqual(before);
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });
});

describe('PATCH /api/v1/requests/{item_id} validation', () => {
  it('answers an unknown id with 404', async () => {
    expectEnvelope(await patch(999, { status: 'Closed' }), 404, 'not_found');
  });

  it('rejects an empty body {} with 422', async () => {
    const id = await create();
    expectEnvelope(await patch(id, {}), 422, 'validation_error');
  });

  it.each<[string, object, string]>([
    ['an unknown field', { title: 'Renamed' }, 'title'],
    ['an unknown status value', { status: 'Done' }, 'status'],
    ['a rating above 5', { feedback_rating: 6 }, 'feedback_rating'],
    ['a string assignee_id', { assignee_id: '12' }, 'assignee_id'],
  ])('rejects an update with %s, naming the field', async (_name, body, field) => {
    const id = await create();
    const res = await patch(id, body);
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toContain(field);
  });

  it('rejects malformed JSON with 400', async () => {
    const id = await create();
    const res = await request(h.app)
      .patch(`/api/v1/requests/${id}`)
      .set(auth)
      .set('Content-Type', 'application/json')
      .send('{"status":');
    expectEnvelope(res, 400, 'malformed_json');
  });
});

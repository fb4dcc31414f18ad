import request from 'supertest';
import { openEsm, TOKEN, type EsmHarness } from '../support/esm-harness';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

const auth = { Authorization: `Bearer ${TOKEN}` };

describe('many clients writing at once', () => {
  it('gives every concurrent submission its own id and ref, and loses none', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        request(h.app)
          .post('/api/v1/requests')
          .set(auth)
          .send({ title: `Concurrent ${n}`, status: 'Open', priority: 'Low' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(201));
    const ids = answers.map((answer) => answer.body.id);
    expect(new Set(ids).size).toBe(40);
    expect(new Set(answers.map((answer) => answer.body.ref)).size).toBe(40);
    const list = await request(h.app).get('/api/v1/requests').query({ limit: 200 });
    expect(list.body.meta.total).toBe(40);
  });

  it('approves a request once when many approvers send the same approval together', async () => {
    const { body: created } = await request(h.app)
      .post('/api/v1/requests')
      .set(auth)
      .send({ title: 'Contended', status: 'Open', priority: 'High', service_id: h.fixtures.accessService })
      .expect(201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        request(h.app)
          .patch(`/api/v1/requests/${created.id}`)
          .set(auth)
          .send({ status: 'Open', approver_id: 100 + n }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const events = await h.suite.eventStore.readStream(`esm.request-${created.id}`);
    expect(events.map((event) => event.type)).toEqual(['RequestSubmitted', 'RequestApproved']);
    const { body: record } = await request(h.app).get(`/api/v1/requests/${created.id}`).expect(200);
    const approval = events[1]!.data as { approver_id: number };
    expect(record).toMatchObject({ status: 'Open', approver_id: approval.approver_id });
  });

  it('assigns and resolves concurrently without losing either change', async () => {
    const { body: created } = await request(h.app)
      .post('/api/v1/requests')
      .set(auth)
      .send({ title: 'Two agents', status: 'Open', priority: 'Low' })
      .expect(201);
    await Promise.all([
      request(h.app)
        .patch(`/api/v1/requests/${created.id}`)
        .set(auth)
        .send({ assignee_id: h.fixtures.agent })
        .expect(200),
      request(h.app)
        .patch(`/api/v1/requests/${created.id}`)
        .set(auth)
        .send({ status: 'Resolved' })
        .expect(200),
    ]);
    const { body: record } = await request(h.app).get(`/api/v1/requests/${created.id}`).expect(200);
    expect(record).toMatchObject({ assignee_id: h.fixtures.agent, status: 'Resolved' });
  });
});

import request from 'supertest';
import { auth, openHrm, type HrmHarness } from '../support/hrm-harness';

let h: HrmHarness;
beforeEach(async () => {
  h = await openHrm();
});
afterEach(() => h.close());

const week = () => ({
  employee_id: h.fixtures.grace,
  leave_type: 'Annual Leave',
  from_date: '2026-11-23',
  to_date: '2026-11-27',
  description: 'Family visit',
});

describe('many approvers deciding the same leave at once', () => {
  it('records one decision: every other answer is a clean 409 or the same outcome, never a lost update', async () => {
    const { body: leave } = await request(h.app).post('/api/v1/leave').set(auth).send(week()).expect(201);
    const decisions = Array.from({ length: 24 }, (_, n) => (n % 2 === 0 ? 'Approved' : 'Rejected'));
    const answers = await Promise.all(
      decisions.map((status) => request(h.app).patch(`/api/v1/leave/${leave.id}`).set(auth).send({ status })),
    );
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    for (const answer of answers.filter((candidate) => candidate.status === 409)) {
      expect(answer.body.error.code).toMatch(/^(illegal_transition|concurrency_conflict)$/);
    }

    const { body: record } = await request(h.app).get(`/api/v1/leave/${leave.id}`).expect(200);
    expect(['Approved', 'Rejected']).toContain(record.status);
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    for (const winner of winners) expect(winner.body.status).toBe(record.status);

    const decided = ['LeaveApplicationApproved', 'LeaveApplicationRejected'];
    const all = await h.suite.eventStore.queryLog({ after: 0, limit: 1000 });
    expect(all.filter((event) => decided.includes(event.type))).toHaveLength(1);
    const events = await h.suite.eventStore.queryLog({
      after: 0,
      limit: 1000,
      type: `LeaveApplication${record.status}`,
    });
    expect(events).toHaveLength(1);
  });

  it('books overlapping leave once when the same request arrives many times together', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => request(h.app).post('/api/v1/leave').set(auth).send(week())),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 201)) {
      expect(answer.status).toBe(409);
    }
    const list = await request(h.app).get('/api/v1/leave').query({ employee_id: h.fixtures.grace });
    expect(list.body.meta.total).toBe(1);
  });
});

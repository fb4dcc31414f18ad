import { withRecordTimes } from '../../src/api/kit/record-times';
import request from 'supertest';
import { z } from 'zod';
import { operatorContext } from '../../src/cli/common';
import { eraseSubject } from '../../src/privacy/erase';
import { eventually } from '../support/eventually';
import type { LeaveStatus } from '../../src/events/hrm';
import { LeaveApplicationRecord } from '../../src/projections/hrm';
import { auth, openHrm, type HrmHarness } from '../support/hrm-harness';
import { expectEnvelope, namedFields } from './spec';

let h: HrmHarness;
beforeEach(async () => {
  h = await openHrm();
});
afterEach(() => h.close());

const NOW = '2026-11-21T09:30:00Z';

const postLeave = (body: object) => request(h.app).post('/api/v1/leave').set(auth).send(body);
const patchLeave = (id: number | string, body: object) =>
  request(h.app).patch(`/api/v1/leave/${id}`).set(auth).send(body);

/** A week of annual leave for Grace, Monday 2026-11-23 to Friday 2026-11-27. */
const week = () => ({
  employee_id: h.fixtures.grace,
  leave_type: 'Annual Leave',
  from_date: '2026-11-23',
  to_date: '2026-11-27',
  description: 'Family visit',
});

/** Grace's week of leave, taken to `status` through the API. */
async function leaveIn(status: LeaveStatus): Promise<number> {
  const { body } = await postLeave(week()).expect(201);
  if (status !== 'Open') await patchLeave(body.id, { status }).expect(200);
  return body.id;
}

const strict = (schema: z.ZodObject) => z.strictObject(withRecordTimes(schema).shape);

describe('authentication of the leave writes', () => {
  const writes = [
    ['POST', '/api/v1/leave', () => week()],
    ['PATCH', '/api/v1/leave/1', () => ({ status: 'Approved' })],
  ] as const;
  const send = (app: HrmHarness['app'], method: string, path: string) =>
    method === 'POST' ? request(app).post(path) : request(app).patch(path);

  it.each(writes)(
    '%s %s answers 503 writes_disabled while no token is configured',
    async (method, path, body) => {
      const open = await openHrm({ token: null });
      try {
        expectEnvelope(await send(open.app, method, path).set(auth).send(body()), 503, 'writes_disabled');
        expect((await request(open.app).get('/api/v1/health')).body.writes_enabled).toBe(false);
      } finally {
        await open.close();
      }
    },
  );

  it.each(writes)(
    '%s %s answers 401 for a missing or wrong token and appends nothing',
    async (method, path, body) => {
      const head = await h.suite.eventStore.headPosition();
      const missing = await send(h.app, method, path).send(body());
      expectEnvelope(missing, 401, 'unauthorized');
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      const wrong = await send(h.app, method, path).set('Authorization', 'Bearer wrong').send(body());
      expectEnvelope(wrong, 401, 'unauthorized');
      expect(await h.suite.eventStore.headPosition()).toBe(head);
    },
  );
});

describe('POST /api/v1/leave', () => {
  it('submits an Open application with the working days counted and the manager as approver', async () => {
    const res = await postLeave(week()).expect(201);
    expect(strict(LeaveApplicationRecord).safeParse(res.body).error).toBeUndefined();
    expect(res.body).toEqual({
      id: 1,
      employee_id: h.fixtures.grace,
      employee_name: 'Grace Hopper',
      department_id: h.fixtures.engineering,
      leave_type: 'Annual Leave',
      from_date: '2026-11-23',
      to_date: '2026-11-27',
      half_day: false,
      half_day_date: null,
      total_days: 5,
      description: 'Family visit',
      status: 'Open',
      next_statuses: ['Approved', 'Rejected', 'Cancelled'],
      leave_approver_id: h.fixtures.ada,
      posting_date: '2026-11-21',
      approved_by: null,
      approved_on: null,
      rejected_by: null,
      rejected_on: null,
      decision_reason: null,
      cancelled_on: null,
      created: NOW,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.headers.location).toBe('/api/v1/leave/1');
    expect(res.headers['x-event-position']).toMatch(/^\d+$/);
    expect((await request(h.app).get('/api/v1/leave/1').expect(200)).body).toEqual(res.body);
    expect((await request(h.app).get('/api/v1/leave?status=Open').expect(200)).body.data).toEqual([res.body]);
  });

  it('matches the leave type in any letter case and counts a half day as 0.5', async () => {
    const res = await postLeave({
      employee_id: h.fixtures.grace,
      leave_type: 'casual LEAVE',
      from_date: '2026-11-24',
      to_date: '2026-11-24',
      half_day: true,
    }).expect(201);
    expect(res.body).toMatchObject({
      leave_type: 'Casual Leave',
      half_day_date: '2026-11-24',
      total_days: 0.5,
    });
  });

  it('refuses an unknown field with 422 naming it, and appends nothing', async () => {
    const head = await h.suite.eventStore.headPosition();
    const res = await postLeave({ ...week(), reason: 'Holiday', status: 'Approved' });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res).sort()).toEqual(['reason', 'status']);
    expect(res.body.error.message).toContain('reason');
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });

  it.each([
    [{ employee_id: undefined }, 'employee_id'],
    [{ from_date: undefined, to_date: undefined }, 'from_date', 'to_date'],
    [{ leave_type: 'Vacation' }, 'leave_type'],
    [{ from_date: '2026-02-30' }, 'from_date'],
    [{ employee_id: 'seven' }, 'employee_id'],
    [{ half_day: 'yes' }, 'half_day'],
  ])('refuses the payload %j with 422 naming the fields', async (overrides, ...fields) => {
    const res = await postLeave({ ...week(), ...overrides });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(fields);
  });

  it.each([
    ['an unknown employee', () => ({ employee_id: 999 }), 'employee_id: employee 999 does not exist'],
    [
      'an employee who has left',
      () => ({ employee_id: h.fixtures.leaver }),
      /^employee_id: employee \d+ is Left$/,
    ],
    ['dates in the wrong order', () => ({ from_date: '2026-11-27', to_date: '2026-11-23' }), /^to_date: /],
    [
      'leave before joining',
      () => ({ employee_id: h.fixtures.alan, from_date: '2026-11-02' }),
      /^from_date: /,
    ],
    ['a weekend', () => ({ from_date: '2026-11-28', to_date: '2026-11-29' }), /no working day/],
  ])('refuses %s with 422', async (_case, overrides, message) => {
    const res = await postLeave({ ...week(), ...overrides() });
    expectEnvelope(res, 422, 'validation_error');
    expect(res.body.error.message).toMatch(message);
    expect((await request(h.app).get('/api/v1/leave')).body.meta.total).toBe(0);
  });

  it.each(['Open', 'Approved'] as const)('refuses leave overlapping %s leave with 409', async (status) => {
    await leaveIn(status);
    const res = await postLeave({
      ...week(),
      leave_type: 'Sick Leave',
      from_date: '2026-11-26',
      to_date: '2026-11-26',
    });
    expectEnvelope(res, 409, 'already_exists');
    expect(res.body.error.details).toEqual({
      employee_id: h.fixtures.grace,
      from_date: '2026-11-23',
      to_date: '2026-11-27',
    });
  });

  it('gives the next application the id a refused one would have had', async () => {
    const first = await leaveIn('Open');
    expectEnvelope(await postLeave(week()), 409, 'already_exists');
    const next = await postLeave({ ...week(), from_date: '2026-11-30', to_date: '2026-11-30' }).expect(201);
    expect(next.body.id).toBe(first + 1);
  });

  it.each(['Rejected', 'Cancelled'] as const)('books days again once the leave is %s', async (status) => {
    await leaveIn(status);
    await postLeave(week()).expect(201);
  });

  it('gives the days of approved leave back when it is cancelled', async () => {
    const id = await leaveIn('Approved');
    await patchLeave(id, { status: 'Cancelled' }).expect(200);
    await postLeave(week()).expect(201);
  });

  it('replays a repeated Idempotency-Key without booking the days twice', async () => {
    const first = await postLeave(week()).set('Idempotency-Key', 'leave-1').expect(201);
    const head = await h.suite.eventStore.headPosition();
    const again = await postLeave(week()).set('Idempotency-Key', 'leave-1').expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await h.suite.eventStore.headPosition()).toBe(head);
    const other = await postLeave({ ...week(), description: 'Other' }).set('Idempotency-Key', 'leave-1');
    expectEnvelope(other, 422, 'idempotency_key_reused');
  });

  it('records the token holder as the actor of the audited events', async () => {
    await postLeave(week()).expect(201);
    const events = await h.suite.eventStore.readStream('hrm.leave-1');
    expect(events[0]).toMatchObject({
      type: 'LeaveApplicationSubmitted',
      metadata: { actor: 'token:admin', occurred_at: NOW },
    });
    const calendar = await h.suite.eventStore.readStream(`hrm.calendar-${h.fixtures.grace}`);
    expect(calendar.map((event) => event.type)).toEqual(['LeaveDaysBooked']);
    expect(calendar[0]?.metadata.request_id).toBe(events[0]?.metadata.request_id);
  });
});

describe('PATCH /api/v1/leave/{id}: the transition table', () => {
  const ALLOWED: Record<LeaveStatus, readonly string[]> = {
    Open: ['Approved', 'Rejected', 'Cancelled'],
    Approved: ['Cancelled'],
    Rejected: [],
    Cancelled: [],
  };
  const moves = (['Open', 'Approved', 'Rejected', 'Cancelled'] as const).flatMap((from) =>
    (['Approved', 'Rejected', 'Cancelled'] as const).map((to) => [from, to] as const),
  );

  it.each(moves.filter(([from, to]) => ALLOWED[from].includes(to)))(
    'moves %s to %s (200)',
    async (from, to) => {
      const id = await leaveIn(from);
      const res = await patchLeave(id, { status: to.toLowerCase() }).expect(200);
      expect(strict(LeaveApplicationRecord).safeParse(res.body).error).toBeUndefined();
      expect(res.body.status).toBe(to);
      expect(res.body.next_statuses).toEqual(ALLOWED[to]);
      expect((await request(h.app).get(`/api/v1/leave/${id}`)).body).toEqual(res.body);
    },
  );

  it.each(moves.filter(([from, to]) => !ALLOWED[from].includes(to)))(
    'refuses to move %s to %s with 409 illegal_transition',
    async (from, to) => {
      const id = await leaveIn(from);
      const res = await patchLeave(id, { status: to });
      expectEnvelope(res, 409, 'illegal_transition');
      expect(res.body.error.details).toEqual({ from, to, allowed: ALLOWED[from] });
      const valid =
        ALLOWED[from].length > 0 ? `valid next statuses: ${ALLOWED[from].join(', ')}` : 'no status';
      expect(res.body.error.message).toContain(valid);
      expect((await request(h.app).get(`/api/v1/leave/${id}`)).body.status).toBe(from);
    },
  );
});

describe('PATCH /api/v1/leave/{id}: the reason of a rejection', () => {
  it('offers every move an Open application may make', async () => {
    const { body } = await postLeave(week()).expect(201);
    expect(body).toMatchObject({
      next_statuses: ['Approved', 'Rejected', 'Cancelled'],
      decision_reason: null,
    });
  });

  it('records the reason on the application and in its activity', async () => {
    const id = await leaveIn('Open');
    const res = await patchLeave(id, { status: 'Rejected', reason: '  Release week  ' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'Rejected',
      rejected_by: h.fixtures.ada,
      decision_reason: 'Release week',
      next_statuses: [],
    });
    expect((await request(h.app).get(`/api/v1/leave/${id}`)).body).toEqual(res.body);
    const activity = await request(h.app).get(`/api/v1/leave/${id}/activity`).set(auth).expect(200);
    expect(activity.body.data[0].changes).toContainEqual({
      field: 'decision_reason',
      before: null,
      after: 'Release week',
    });
  });

  it('rejects without a reason, as before', async () => {
    const id = await leaveIn('Open');
    const res = await patchLeave(id, { status: 'Rejected' }).expect(200);
    expect(res.body).toMatchObject({ status: 'Rejected', decision_reason: null });
  });

  it.each([
    [{ status: 'Approved', reason: 'Enjoy' }, /only given to reject/],
    [{ status: 'Cancelled', reason: 'Plans changed' }, /only given to reject/],
    [{ status: 'Rejected', reason: '   ' }, /./],
    [{ status: 'Rejected', reason: 'x'.repeat(2001) }, /./],
    [{ status: 'Rejected', reason: 42 }, /./],
  ])('refuses %j with 422 naming reason, changing nothing', async (body, message) => {
    const id = await leaveIn('Open');
    const res = await patchLeave(id, body);
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['reason']);
    expect(res.body.error.message).toMatch(message);
    expect((await request(h.app).get(`/api/v1/leave/${id}`)).body.status).toBe('Open');
  });

  it("reads null once the employee's data is erased: the reason is theirs", async () => {
    h.suite.erasures.start();
    const id = await leaveIn('Open');
    await patchLeave(id, { status: 'Rejected', reason: 'Release week' }).expect(200);
    const subject = `hrm.employee-${h.fixtures.grace}`;
    await eraseSubject(operatorContext(h.suite), h.suite.subjectKeys, subject, 'Art. 17');
    const erased = await eventually(
      'the reason to be erased',
      async () => (await request(h.app).get(`/api/v1/leave/${id}`).expect(200)).body,
      (doc) => doc.decision_reason === null,
    );
    expect(erased).toMatchObject({ status: 'Rejected', rejected_by: h.fixtures.ada });
  });
});

describe('PATCH /api/v1/leave/{id}: decisions', () => {
  it("records the approval by the employee's manager and its time", async () => {
    const id = await leaveIn('Open');
    const res = await patchLeave(id, { status: 'Approved' }).expect(200);
    expect(res.body).toMatchObject({ status: 'Approved', approved_by: h.fixtures.ada, approved_on: NOW });
  });

  it('records a rejection by the approver the request names (the designated one)', async () => {
    const id = await leaveIn('Open');
    const res = await patchLeave(id, { status: 'Rejected', approver_id: h.fixtures.ada }).expect(200);
    expect(res.body).toMatchObject({ status: 'Rejected', rejected_by: h.fixtures.ada, rejected_on: NOW });
  });

  it('records the time of a cancellation', async () => {
    const id = await leaveIn('Approved');
    const res = await patchLeave(id, { status: 'Cancelled' }).expect(200);
    expect(res.body).toMatchObject({ status: 'Cancelled', approved_by: h.fixtures.ada, cancelled_on: NOW });
  });

  it.each([
    [
      'an approver who does not exist',
      () => ({ status: 'Approved', approver_id: 999 }),
      /only the designated approver/,
    ],
    [
      'an approver who has left',
      () => ({ status: 'Approved', approver_id: h.fixtures.leaver }),
      /only the designated approver/,
    ],
    [
      'self-approval',
      () => ({ status: 'Approved', approver_id: h.fixtures.grace }),
      /only the designated approver/,
    ],
    [
      'an approver with a cancellation',
      () => ({ status: 'Cancelled', approver_id: h.fixtures.ada }),
      /approve or reject/,
    ],
  ])('refuses %s with 422 naming approver_id', async (_case, body, message) => {
    const id = await leaveIn('Open');
    const res = await patchLeave(id, body());
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['approver_id']);
    expect(res.body.error.message).toMatch(message);
  });

  it('needs an approver for an employee without a manager', async () => {
    const { body } = await postLeave({ ...week(), employee_id: h.fixtures.ada }).expect(201);
    expect(body.leave_approver_id).toBeNull();
    expectEnvelope(await patchLeave(body.id, { status: 'Approved' }), 422, 'validation_error');
    await patchLeave(body.id, { status: 'Approved', approver_id: h.fixtures.alan }).expect(200);
  });

  it.each([
    [{ status: 'Open' }, 'status'],
    [{ status: 'Done' }, 'status'],
    [{}, 'status'],
    [{ status: 'Approved', comment: 'Enjoy' }, 'comment'],
    [{ status: 'Approved', approver_id: 'ada' }, 'approver_id'],
  ])('refuses the body %j with 422 naming %s', async (body, field) => {
    const id = await leaveIn('Open');
    const res = await patchLeave(id, body);
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual([field]);
  });

  it('answers 404 for an unknown leave application and 422 for a malformed id', async () => {
    const res = await patchLeave(999, { status: 'Approved' });
    expectEnvelope(res, 404, 'not_found');
    expectEnvelope(await patchLeave('abc', { status: 'Approved' }), 422, 'validation_error');
  });
});

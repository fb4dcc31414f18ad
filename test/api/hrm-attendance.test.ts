import { withRecordTimes } from '../../src/api/kit/record-times';
import request from 'supertest';
import { z } from 'zod';
import { AttendanceRecord } from '../../src/projections/hrm';
import { auth, openHrm, type HrmHarness } from '../support/hrm-harness';
import { expectEnvelope, namedFields } from './spec';

let h: HrmHarness;
beforeEach(async () => {
  h = await openHrm();
});
afterEach(() => h.close());

const NOW = '2026-11-21T09:30:00Z';

const postAttendance = (body: object) => request(h.app).post('/api/v1/attendance').set(auth).send(body);

const day = () => ({
  employee_id: h.fixtures.grace,
  attendance_date: '2026-11-20',
  status: 'Present',
  in_time: '2026-11-20T08:55:00Z',
  out_time: '2026-11-20T17:25:00Z',
});

const strict = (schema: z.ZodObject) => z.strictObject(withRecordTimes(schema).shape);

describe('authentication of the attendance write', () => {
  it('answers 503 writes_disabled while no token is configured', async () => {
    const open = await openHrm({ token: null });
    try {
      const res = await request(open.app).post('/api/v1/attendance').set(auth).send(day());
      expectEnvelope(res, 503, 'writes_disabled');
    } finally {
      await open.close();
    }
  });

  it('answers 401 for a missing or wrong token and appends nothing', async () => {
    const head = await h.suite.eventStore.headPosition();
    const missing = await request(h.app).post('/api/v1/attendance').send(day());
    expectEnvelope(missing, 401, 'unauthorized');
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await request(h.app)
      .post('/api/v1/attendance')
      .set('Authorization', 'Bearer wrong')
      .send(day());
    expectEnvelope(wrong, 401, 'unauthorized');
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });
});

describe('POST /api/v1/attendance', () => {
  it('records a day with the hours worked', async () => {
    const res = await postAttendance(day()).expect(201);
    expect(strict(AttendanceRecord).safeParse(res.body).error).toBeUndefined();
    expect(res.body).toEqual({
      id: 1,
      employee_id: h.fixtures.grace,
      employee_name: 'Grace Hopper',
      department_id: h.fixtures.engineering,
      attendance_date: '2026-11-20',
      status: 'Present',
      in_time: '2026-11-20T08:55:00Z',
      out_time: '2026-11-20T17:25:00Z',
      working_hours: 8.5,
      late_entry: false,
      early_exit: false,
      created: NOW,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.headers.location).toBe('/api/v1/attendance/1');
    expect(
      (await request(h.app).get('/api/v1/attendance?employee_id=' + h.fixtures.grace)).body.data,
    ).toEqual([res.body]);
  });

  it('matches the status in any letter case and stores times in UTC', async () => {
    const res = await postAttendance({
      ...day(),
      status: 'work from home',
      in_time: '2026-11-20T09:10:00+01:00',
      out_time: '2026-11-20T17:40:30.500+01:00',
      late_entry: true,
    }).expect(201);
    expect(res.body).toMatchObject({
      status: 'Work From Home',
      in_time: '2026-11-20T08:10:00Z',
      out_time: '2026-11-20T16:40:30Z',
      working_hours: 8.51,
      late_entry: true,
    });
  });

  it('records a day on leave without times', async () => {
    const res = await postAttendance({ ...day(), status: 'On Leave', in_time: null, out_time: null }).expect(
      201,
    );
    expect(res.body).toMatchObject({ status: 'On Leave', in_time: null, working_hours: 0 });
  });

  it('refuses a second record for the same employee and day with 409', async () => {
    await postAttendance(day()).expect(201);
    const res = await postAttendance({ ...day(), status: 'Absent', in_time: null, out_time: null });
    expectEnvelope(res, 409, 'already_exists');
    expect(res.body.error.details).toEqual({ employee_id: h.fixtures.grace, attendance_date: '2026-11-20' });
    await postAttendance({ ...day(), employee_id: h.fixtures.ada }).expect(201);
  });

  it('refuses an unknown field with 422 naming it', async () => {
    const res = await postAttendance({ ...day(), shift: 'Morning' });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['shift']);
  });

  it.each([
    [{ status: 'Sick' }, 'status'],
    [{ attendance_date: '20-11-2026' }, 'attendance_date'],
    [{ in_time: '08:55' }, 'in_time'],
    [{ employee_id: undefined }, 'employee_id'],
  ])('refuses the payload %j with 422 naming %s', async (overrides, field) => {
    const res = await postAttendance({ ...day(), ...overrides });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual([field]);
  });

  it.each([
    ['an unknown employee', () => ({ employee_id: 999 }), /^employee_id: /],
    ['an employee who has left', () => ({ employee_id: h.fixtures.leaver }), /is Left/],
    ['a day in the future', () => ({ attendance_date: '2026-11-23' }), /^attendance_date: is in the future/],
    [
      'a day before joining',
      () => ({
        employee_id: h.fixtures.alan,
        attendance_date: '2026-11-02',
        in_time: '2026-11-02T08:00:00Z',
        out_time: null,
      }),
      /joined/,
    ],
    ['times for an absence', () => ({ status: 'Absent' }), /^in_time: /],
    ['a check-out before the check-in', () => ({ out_time: '2026-11-20T07:00:00Z' }), /^out_time: /],
  ])('refuses %s with 422', async (_case, overrides, message) => {
    const res = await postAttendance({ ...day(), ...overrides() });
    expectEnvelope(res, 422, 'validation_error');
    expect(res.body.error.message).toMatch(message);
    expect((await request(h.app).get('/api/v1/attendance')).body.meta.total).toBe(0);
  });
});

import request from 'supertest';
import type { CommandContext } from '../../src/commands/context';
import { decideLeave, recordAttendance, submitLeave } from '../../src/commands/hrm/handlers';
import { hrmStream } from '../../src/events/hrm';
import type { EventStore, StreamAppend } from '../../src/events/event-store';
import { auth, leaveWeek, openHrm, workedDay, type HrmHarness } from '../support/hrm-harness';
import { expectEnvelope } from './spec';

/**
 * A leave or attendance write appends to the record's stream and to the employee's calendar, which
 * guards it. Either both are stored or neither: a write cut off between the two (a crash, a full disk)
 * must not leave days booked without a record, nor a rejected leave still holding its days.
 */
let h: HrmHarness;
beforeEach(async () => {
  h = await openHrm();
  h.seed.at(new Date('2026-11-21T09:30:00Z'));
});
afterEach(() => h.close());

/** The suite's store, except that the first append touching a stream that starts with `prefix` fails. */
function failingOnce(store: EventStore, prefix: string): EventStore {
  let failed = false;
  const fail = (parts: StreamAppend[]) => {
    if (failed || !parts.some((part) => part.stream.startsWith(prefix))) return false;
    failed = true;
    return true;
  };
  return {
    ...store,
    append: (stream, events, options) =>
      fail([{ stream, events, options }])
        ? Promise.reject(new Error('disk I/O error'))
        : store.append(stream, events, options),
    appendAll: (parts) =>
      fail(parts) ? Promise.reject(new Error('disk I/O error')) : store.appendAll(parts),
  };
}

const failing = (prefix: string): CommandContext => ({
  ...h.seed.commands,
  eventStore: failingOnce(h.suite.eventStore, prefix),
});

const week = () => leaveWeek(h.fixtures.grace);

const calendarOf = async (employee: number) =>
  (await h.suite.eventStore.readStream(hrmStream('calendar', employee))).map((event) => event.type);

it('books no days when the leave application cannot be recorded, so the same leave can be submitted again', async () => {
  await expect(submitLeave(failing('hrm.leave-'), week())).rejects.toThrow('disk I/O error');
  expect(await calendarOf(h.fixtures.grace)).toEqual([]);

  const res = await request(h.app).post('/api/v1/leave').set(auth).send(week()).expect(201);
  expect(res.body.status).toBe('Open');
  expect(await calendarOf(h.fixtures.grace)).toEqual(['LeaveDaysBooked']);
});

it('keeps a leave Open, with its days, when giving the days back cannot be stored', async () => {
  const { id } = await submitLeave(h.seed.commands, week());
  await expect(decideLeave(failing('hrm.calendar-'), id, { status: 'Rejected' })).rejects.toThrow(
    'disk I/O error',
  );
  const leave = await h.suite.eventStore.readStream(hrmStream('leave', id));
  expect(leave.map((event) => event.type)).toEqual(['LeaveApplicationSubmitted']);

  await request(h.app).patch(`/api/v1/leave/${id}`).set(auth).send({ status: 'Rejected' }).expect(200);
  expect(await calendarOf(h.fixtures.grace)).toEqual(['LeaveDaysBooked', 'LeaveDaysReleased']);
  await request(h.app).post('/api/v1/leave').set(auth).send(week()).expect(201);
});

it('claims no day when the attendance cannot be recorded, so the same day can be recorded again', async () => {
  const day = workedDay(h.fixtures.grace);
  await expect(recordAttendance(failing('hrm.attendance-'), day)).rejects.toThrow('disk I/O error');
  expect(await calendarOf(h.fixtures.grace)).toEqual([]);

  await request(h.app).post('/api/v1/attendance').set(auth).send(day).expect(201);
  expectEnvelope(await request(h.app).post('/api/v1/attendance').set(auth).send(day), 409, 'already_exists');
});

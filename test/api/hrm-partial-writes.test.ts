import request from 'supertest';
import { createIdAllocator } from '../../src/commands/ids';
import { recordAttendance, submitLeave } from '../../src/commands/hrm/handlers';
import type { EsdbClient } from '../../src/events/esdb-client';
import { openEsdbEventStore } from '../../src/events/esdb-event-store';
import { esdbServerModel, type EsdbServerModel } from '../support/esdb-server-model';
import { auth, leaveWeek, openHrm, workedDay, type HrmHarness } from '../support/hrm-harness';

/**
 * A leave or attendance write appends to the employee's calendar and to the record's stream. On
 * EventStoreDB (its model here) each stream's append is its own commit: a process that stops between
 * the two, or another process that takes the record's number in between, leaves the first part alone.
 * Whatever part stands, the HR API never shows days held without their record, nor a record whose
 * days are not guarded.
 */
let server: EsdbServerModel;
let h: HrmHarness;
/** The process stops right after its next append: the parts after it are never written. */
let stopAfterNextAppend = false;
/** Another process's write, run once right after the next append. */
let betweenParts: (() => Promise<unknown>) | null = null;

function interleaved(client: EsdbClient): EsdbClient {
  return {
    ...client,
    async appendToStream(stream, events, options) {
      if (stopAfterNextAppend) {
        stopAfterNextAppend = false;
        server.loseConnectionAfterAppendTo(stream);
      }
      const result = await client.appendToStream(stream, events, options);
      const other = betweenParts;
      betweenParts = null;
      await other?.();
      return result;
    },
  };
}

beforeEach(async () => {
  server = esdbServerModel();
  const storedEvents = openEsdbEventStore('esdb://model', () => interleaved(server.connect()));
  h = await openHrm({ storedEvents });
  h.seed.at(new Date('2026-11-21T09:30:00Z'));
});
afterEach(() => h.close());

/** The process stops between the parts of the write `write` sends, and starts again. */
async function stoppedBetweenParts(write: () => request.Test): Promise<void> {
  stopAfterNextAppend = true;
  expect((await write()).status).toBeGreaterThanOrEqual(500);
  server.reconnect();
  await h.settle();
}

/** Commands as another process of the suite sends them: its own id allocator, the same log. */
const otherProcess = () => ({ ...h.seed.commands, ids: createIdAllocator(h.suite.eventStore) });

const postLeave = (body: object) => request(h.app).post('/api/v1/leave').set(auth).send(body);
const listed = async (path: string) => (await request(h.app).get(path).set(auth).expect(200)).body.data;

it('books no days for good when the process stops before the leave application is recorded', async () => {
  await stoppedBetweenParts(() => postLeave(leaveWeek(h.fixtures.grace)));
  expect(await listed(`/api/v1/leave?employee_id=${h.fixtures.grace}`)).toEqual([]);

  const res = await postLeave(leaveWeek(h.fixtures.grace)).expect(201);
  expect(await listed(`/api/v1/leave?employee_id=${h.fixtures.grace}`)).toEqual([res.body]);
});

it('books the days once when another process takes the application number between the two parts', async () => {
  betweenParts = () => submitLeave(otherProcess(), leaveWeek(h.fixtures.alan));

  const res = await postLeave(leaveWeek(h.fixtures.grace)).expect(201);
  expect(await listed(`/api/v1/leave?employee_id=${h.fixtures.grace}`)).toEqual([res.body]);
  expect(await listed(`/api/v1/leave?employee_id=${h.fixtures.alan}`)).toHaveLength(1);
  await postLeave(leaveWeek(h.fixtures.grace)).expect(409);
});

it('never leaves two Open applications over the same days when the process stops while rejecting one', async () => {
  const { body: first } = await postLeave(leaveWeek(h.fixtures.grace)).expect(201);
  await stoppedBetweenParts(() =>
    request(h.app).patch(`/api/v1/leave/${first.id}`).set(auth).send({ status: 'Rejected' }),
  );

  await postLeave(leaveWeek(h.fixtures.grace)).expect(201);
  const open = await listed(`/api/v1/leave?employee_id=${h.fixtures.grace}&status=Open`);
  expect(open).toHaveLength(1);
  expect((await request(h.app).get(`/api/v1/leave/${first.id}`).set(auth)).body.status).toBe('Rejected');
});

it('answers a rejection stored before another process wrote to the calendar, whose days are then free', async () => {
  const { body: first } = await postLeave(leaveWeek(h.fixtures.grace)).expect(201);
  betweenParts = () => recordAttendance(otherProcess(), workedDay(h.fixtures.grace));

  const res = await request(h.app).patch(`/api/v1/leave/${first.id}`).set(auth).send({ status: 'Rejected' });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('Rejected');
  await postLeave(leaveWeek(h.fixtures.grace)).expect(201);
  expect(await listed(`/api/v1/leave?employee_id=${h.fixtures.grace}&status=Open`)).toHaveLength(1);
});

it('claims no day for good when the process stops before the attendance is recorded', async () => {
  await stoppedBetweenParts(() =>
    request(h.app).post('/api/v1/attendance').set(auth).send(workedDay(h.fixtures.grace)),
  );
  expect(await listed(`/api/v1/attendance?employee_id=${h.fixtures.grace}`)).toEqual([]);

  await request(h.app).post('/api/v1/attendance').set(auth).send(workedDay(h.fixtures.grace)).expect(201);
  expect(await listed(`/api/v1/attendance?employee_id=${h.fixtures.grace}`)).toHaveLength(1);
  await request(h.app).post('/api/v1/attendance').set(auth).send(workedDay(h.fixtures.grace)).expect(409);
});

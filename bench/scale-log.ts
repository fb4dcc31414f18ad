import { attendanceDecider } from '../src/commands/hrm/attendance';
import type { EmployeeFacts } from '../src/commands/hrm/employees';
import { esmStreams } from '../src/events/esm';
import type { PendingEvent } from '../src/events/event-store';
import { hrmStream } from '../src/events/hrm/streams';
import { seedDemoData, type Suite } from '../src/main';
import { seededRandom, type SeededRandom } from '../src/seed/random';
import { requestLife } from './service-desk-log';

/** Appends made in one turn of the event loop: one group commit. */
const CHUNK = 2000;
/** Working days of attendance each employee records at most: five years. */
const ATTENDANCE_DAYS = 5 * 250;
/** The share of the generated events that are attendance records, while there are days left. */
const ATTENDANCE_SHARE = 0.15;
/** Events the erased subject holds: its attendance is recorded until it has this many. */
export const ERASED_SUBJECT_EVENTS = 100;
const DAY = 86_400_000;
const LAST_DAY = Date.parse('2026-11-20T00:00:00Z');

export interface ScaleLog {
  events: number;
  requests: number;
  attendance: number;
  /** The demo's events (every module), the first of the log. */
  demoEvents: number;
  /** An employee whose personal data is in `ERASED_SUBJECT_EVENTS` events, to be erased. */
  erasedSubject: string;
  /** Seconds the generation took, demo data included. */
  seconds: number;
}

/**
 * A log of `events` events shaped as a company's years of use: every module's demo data (written by
 * the modules' own seeds, as `suite seed` does), then service requests taken through their whole life
 * by the request decider, and each demo employee's daily attendance decided by the attendance decider,
 * all appended through the log's personal-data seal (form answers and names sealed under their subjects'
 * keys), `CHUNK` appends per group commit. Deterministic for a seed: the same events every time.
 */
export async function generateScaleLog(suite: Suite, events: number, seed: string): Promise<ScaleLog> {
  const started = performance.now();
  await seedDemoData(suite, seed);
  const store = suite.auditEvents;
  const demoEvents = await store.headPosition();
  const random = seededRandom(`${seed}:scale`);
  const employees = await demoEmployees(suite);
  const erased = employees.pop() as EmployeeFacts;
  const erasedSubject = hrmStream('employee', erased.id);
  const erasedHolds = await sealedEventsOf(suite, erasedSubject);
  let requests = await store.lastStreamNumber('esm.request');
  let attendance = await store.lastStreamNumber('hrm.attendance');
  const attendances = attendanceDays(employees, erased, ERASED_SUBJECT_EVENTS - erasedHolds);
  let head = demoEvents;
  while (head < events) {
    const appends: Promise<unknown>[] = [];
    for (let count = 0; count < CHUNK && head + count * 4 < events; count++) {
      const day = random.chance(ATTENDANCE_SHARE) ? attendances.next() : undefined;
      if (day && !day.done) {
        appends.push(appendAttendance(suite, random, ++attendance, day.value));
      } else {
        const life = requestLife(random, ++requests);
        appends.push(
          store.append(esmStreams.request(life.id), life.events, {
            expectedRevision: 'no_stream',
            metadata: metadata(`user-${life.requester}`, `scale-request-${life.id}`, life.at),
          }),
        );
      }
    }
    await Promise.all(appends);
    head = await store.headPosition();
    process.stderr.write(`\rgenerating: ${head} events`);
  }
  process.stderr.write('\n');
  return {
    events: head,
    requests,
    attendance,
    demoEvents,
    erasedSubject,
    seconds: (performance.now() - started) / 1000,
  };
}

const metadata = (actor: string, request: string, at: string) => ({
  actor,
  request_id: request,
  correlation_id: request,
  causation_id: null,
  occurred_at: at,
});

/** The demo's employees, as the attendance decider needs them. */
async function demoEmployees(suite: Suite): Promise<EmployeeFacts[]> {
  const last = await suite.eventStore.lastStreamNumber('hrm.employee');
  const employees: EmployeeFacts[] = [];
  for (let id = 1; id <= last; id++) {
    const [joined] = await suite.eventStore.readStream(hrmStream('employee', id), { toRevision: 0 });
    if (joined?.type !== 'EmployeeJoined') continue;
    const data = joined.data as {
      first_name: string;
      last_name: string;
      department_id: number;
      reports_to: number | null;
      date_of_joining: string;
    };
    employees.push({
      id,
      status: 'Active',
      employee_name: `${data.first_name} ${data.last_name}`,
      department_id: data.department_id,
      reports_to: data.reports_to,
      date_of_joining: data.date_of_joining,
    });
  }
  return employees;
}

/** How many events of the demo hold the subject's sealed data (the demo is small: one read of it). */
async function sealedEventsOf(suite: Suite, subject: string): Promise<number> {
  let count = 0;
  for (let after = 0; ;) {
    const page = await suite.storedEvents.readAll({ after, limit: 5000 });
    if (page.length === 0) return count;
    for (const event of page) if (JSON.stringify(event.data).includes(`:${subject}:`)) count++;
    after = (page.at(-1) as { position: number }).position;
  }
}

interface AttendanceDay {
  employee: EmployeeFacts;
  date: string;
}

/** Working days back from the demo's last, every employee each day; the erased one only its first `erasedDays`. */
function* attendanceDays(
  employees: readonly EmployeeFacts[],
  erased: EmployeeFacts,
  erasedDays: number,
): Generator<AttendanceDay> {
  let days = 0;
  for (let time = LAST_DAY; days < ATTENDANCE_DAYS; time -= DAY) {
    const weekday = new Date(time).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    days++;
    const date = new Date(time).toISOString().slice(0, 10);
    if (days <= erasedDays) yield { employee: erased, date };
    for (const employee of employees) yield { employee, date };
  }
}

function appendAttendance(
  suite: Suite,
  random: SeededRandom,
  id: number,
  { employee, date }: AttendanceDay,
): Promise<unknown> {
  const late = random.chance(0.1);
  const inTime = `${date}T0${late ? 9 : 8}:${String(random.int(0, 59)).padStart(2, '0')}:00Z`;
  const outTime = `${date}T1${random.int(6, 8)}:${String(random.int(0, 59)).padStart(2, '0')}:00Z`;
  const at = `${date}T19:00:00Z`;
  const decided = attendanceDecider.decide(
    {
      type: 'RecordAttendance',
      id,
      employee,
      attendance: {
        attendance_date: date,
        status: 'Present',
        in_time: inTime,
        out_time: outTime,
        late_entry: late,
        early_exit: false,
      },
      at,
    },
    attendanceDecider.initialState(),
  );
  const events: PendingEvent[] = decided.map((event) => ({ ...event, schema_version: 1 }));
  return suite.auditEvents.append(hrmStream('attendance', id), events, {
    expectedRevision: 'no_stream',
    metadata: metadata(`employee-${employee.id}`, `scale-attendance-${id}`, at),
  });
}

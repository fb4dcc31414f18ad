import { isoDate } from '../../clock';
import { decideLeave, recordAttendance, submitLeave } from '../../commands/hrm/handlers';
import { LEAVE_TYPES, type AttendanceStatus, type LeaveType } from '../../events/hrm';
import type { SeedContext } from '../context';
import { LEAVE_PATTERNS, type DepartmentSeed, type OrganizationSeed } from '../hrm-data';
import {
  between,
  DAY,
  dayAfter,
  HOUR,
  isWeekday,
  MINUTE,
  officeTime,
  onDate,
  plus,
  SEED_END,
  SEED_START,
  weekdayFrom,
  weekdaysOn,
  weightedPick,
  type Person,
  type Step,
} from './plan';

/** The leave season: first days of leave from June to mid-January. */
const LEAVE_FROM = new Date('2026-06-01T00:00:00Z');
const LEAVE_UNTIL = new Date('2027-01-15T00:00:00Z');
/** Attendance is recorded for the last two working weeks of the demo. */
const ATTENDANCE_FROM = '2026-11-09';
const ATTENDANCE_TO = '2026-11-20';

/** Leave requests are entered once the staff is imported. */
const GO_LIVE = plus(SEED_START, 3 * HOUR);

const APPLICATIONS_PER_PERSON = { 0: 8, 1: 22, 2: 32, 3: 24, 4: 10, 5: 4 };

/** Leave as planned, for attendance: the days of approved leave are recorded On Leave. */
export interface PlannedLeave {
  from: string;
  to: string;
  /** The half day of a half-day application. */
  half_day: string | null;
  approved: boolean;
}

interface Outcome {
  steps: Step[];
  approved: boolean;
}

/** Approved, rejected, withdrawn or approved and later cancelled; undecided when the decision is after "today". */
function decide(
  seed: SeedContext,
  type: LeaveType,
  posted: Date,
  from: string,
  person: Person,
  approver_id: number | undefined,
  leave: () => number,
): Outcome {
  const { random, commands } = seed;
  const sick = type === 'Sick Leave';
  const begins = onDate(from, 6);
  // Managers answer within three days, or take up to ten for leave that is weeks away.
  const far = begins.getTime() - posted.getTime() > 21 * DAY;
  const delay = sick
    ? random.int(10, 150) * MINUTE
    : far
      ? random.int(1, 10) * DAY
      : random.int(1, 72) * HOUR;
  let decided = officeTime(random, plus(posted, delay), person.organization.utc_offset);
  if (!sick && decided > begins)
    decided = new Date(Math.max(plus(posted, 10 * MINUTE).getTime(), begins.getTime()));
  const act = (status: 'Approved' | 'Rejected' | 'Cancelled', at: Date): Step => ({
    at,
    run: () =>
      decideLeave(commands, leave(), {
        status,
        ...(status !== 'Cancelled' && approver_id !== undefined && { approver_id }),
      }),
  });
  const roll = random.float();
  if (!sick && roll < 0.03)
    return { steps: [act('Cancelled', between(random, posted, decided))], approved: false };
  if (roll < 0.03 + LEAVE_PATTERNS[type].rejected)
    return { steps: [act('Rejected', decided)], approved: false };
  const steps = [act('Approved', decided)];
  const cancelBy = plus(begins, -HOUR);
  if (!sick && random.chance(0.06) && cancelBy.getTime() - decided.getTime() > 2 * DAY) {
    const cancelled = officeTime(random, between(random, plus(decided, HOUR), plus(cancelBy, -DAY)), 0);
    steps.push(act('Cancelled', cancelled));
    return { steps, approved: false };
  }
  return { steps, approved: true };
}

/**
 * A season of leave for the stable staff: annual leave booked weeks ahead, sick leave reported on the
 * morning, casual days, time off in lieu, unpaid and parental leave; most approved by the manager, some
 * rejected, withdrawn or cancelled, and the latest still Open. No employee's leave overlaps.
 */
export function leaveSteps(
  seed: SeedContext,
  people: readonly Person[],
  peopleHead: number,
): { steps: Step[]; planned: Map<number, PlannedLeave[]> } {
  const { random, commands } = seed;
  const steps: Step[] = [];
  const planned = new Map<number, PlannedLeave[]>();
  for (const person of people.filter((candidate) => candidate.stable)) {
    const mine: PlannedLeave[] = [];
    planned.set(person.id, mine);
    const count = Number(random.weighted(APPLICATIONS_PER_PERSON));
    for (let attempt = 0; mine.length < count && attempt < count * 4; attempt++) {
      const type = weightedPick(random, LEAVE_TYPES, (leaveType) => LEAVE_PATTERNS[leaveType].weight);
      const pattern = LEAVE_PATTERNS[type];
      const from = weekdayFrom(isoDate(between(random, LEAVE_FROM, LEAVE_UNTIL)));
      const to = weekdaysOn(from, random.int(...pattern.days));
      if (mine.some((taken) => taken.from <= to && taken.to >= from)) continue;
      const offset = person.organization.utc_offset;
      let posted =
        pattern.notice[1] === 0
          ? onDate(from, 7 - offset + random.float())
          : onDate(dayAfter(from, -random.int(...pattern.notice)), 8 - offset + random.float() * 9);
      // Requests made before the go-live were entered in its first days.
      if (posted < GO_LIVE) posted = plus(GO_LIVE, random.float() * 3 * DAY);
      if (posted > SEED_END || (pattern.notice[1] > 0 && posted >= onDate(from, 0))) continue;
      const halfDay = random.chance(pattern.half_day_share);
      const description = random.chance(0.8) ? random.pick(pattern.reasons) : null;
      let leaveId = 0;
      steps.push({
        at: posted,
        run: async () => {
          ({ id: leaveId } = await submitLeave(commands, {
            employee_id: person.id,
            leave_type: type,
            from_date: from,
            to_date: to,
            half_day: halfDay,
            half_day_date: halfDay && from !== to ? to : null,
            description,
          }));
        },
      });
      const approver = person.reports_to === null ? peopleHead : undefined;
      const outcome = decide(seed, type, posted, from, person, approver, () => leaveId);
      steps.push(...outcome.steps);
      mine.push({ from, to, half_day: halfDay ? to : null, approved: outcome.approved });
    }
  }
  return { steps, planned };
}

/** Who records attendance: the stable staff, and new hires from their first day. */
export interface Attendee {
  employeeId: () => number;
  department: DepartmentSeed;
  organization: OrganizationSeed;
  from: string;
  leave: readonly PlannedLeave[];
}

function attendanceDays(): string[] {
  const days: string[] = [];
  for (let day = ATTENDANCE_FROM; day <= ATTENDANCE_TO; day = dayAfter(day, 1))
    if (isWeekday(day)) days.push(day);
  return days;
}

const toMinute = (time: Date) => new Date(Math.round(time.getTime() / MINUTE) * MINUTE);

/**
 * Attendance for each working day of the last two weeks, recorded in the evening as one batch (the
 * day's records are independent, so they go in together, as a time clock's end-of-day export would):
 * Present or Work From Home with check-in and check-out times (late entries and early exits flagged
 * against a 09:00-17:00 day, 07:00-15:30 in the field), On Leave or Half Day where leave was approved,
 * rarely Absent.
 */
export function attendanceSteps(seed: SeedContext, attendees: readonly Attendee[]): Step[] {
  const { random, commands } = seed;
  const steps: Step[] = [];
  for (const day of attendanceDays()) {
    const records: (() => Promise<unknown>)[] = [];
    for (const attendee of attendees) {
      if (attendee.from > day) continue;
      const field = attendee.department.key === 'ops';
      const leave = attendee.leave.find(
        (planned) => planned.approved && planned.from <= day && planned.to >= day,
      );
      const halfDay = leave?.half_day === day;
      let status: AttendanceStatus;
      if (leave) status = halfDay ? 'Half Day' : 'On Leave';
      else if (random.chance(0.004)) status = 'Absent';
      else status = random.chance(attendee.department.remote_share) ? 'Work From Home' : 'Present';
      const worked = status === 'Present' || status === 'Work From Home' || status === 'Half Day';
      const start = (field ? 7 : 8) + random.float() * (field ? 1 : 1.6);
      const hours = halfDay ? 4 + random.float() * 0.5 : (field ? 8.5 : 7.5) + random.float() * 2;
      const offset = attendee.organization.utc_offset;
      const inTime = toMinute(onDate(day, start - offset));
      const outTime = toMinute(plus(inTime, hours * HOUR));
      records.push(() =>
        recordAttendance(commands, {
          employee_id: attendee.employeeId(),
          attendance_date: day,
          status,
          in_time: worked ? inTime.toISOString() : null,
          out_time: worked ? outTime.toISOString() : null,
          late_entry: worked && !halfDay && start > (field ? 7.75 : 9.25),
          early_exit: worked && !halfDay && start + hours < (field ? 15.5 : 17),
        }),
      );
    }
    steps.push({ at: onDate(day, 20.5), run: () => Promise.all(records.map((record) => record())) });
  }
  return steps;
}

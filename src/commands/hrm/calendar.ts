import type { AttendanceStatus, HrmEventOf } from '../../events/hrm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';
import type { EmployeeFacts } from './employees';

const DAY = 86_400_000;
/** Longest leave application, in calendar days. */
export const MAX_LEAVE_DAYS = 366;

type CalendarEvent =
  | HrmEventOf<'LeaveDaysBooked'>
  | HrmEventOf<'LeaveDaysReleased'>
  | HrmEventOf<'AttendanceDayClaimed'>
  | HrmEventOf<'AttendanceDayReleased'>;

/** The leave days an application asks for; the employee is looked up by the handler. */
export interface BookLeave {
  type: 'BookLeave';
  /** The application the days are booked for. */
  leave_id: number;
  employee_id: number;
  /** `null`: no such employee. */
  employee: EmployeeFacts | null;
  from_date: string;
  to_date: string;
  half_day: boolean;
  half_day_date: string | null;
  /** Applications whose bookings their applications do not hold (`calendar-holds.ts`): released first. */
  released?: readonly number[];
}

export interface ReleaseLeave {
  type: 'ReleaseLeave';
  from_date: string;
  to_date: string;
}

export interface AttendanceInput {
  attendance_date: string;
  status: AttendanceStatus;
  in_time: string | null;
  out_time: string | null;
  late_entry: boolean;
  early_exit: boolean;
}

export interface ClaimAttendanceDay {
  type: 'ClaimAttendanceDay';
  /** The attendance record the day is claimed for. */
  attendance_id: number;
  employee_id: number;
  employee: EmployeeFacts | null;
  attendance: AttendanceInput;
  /** The date the attendance is recorded on (UTC); no attendance is recorded ahead of time. */
  today: string;
  /** Attendance records whose claims their records do not hold (`calendar-holds.ts`): released first. */
  released?: readonly number[];
}

export type CalendarCommand = BookLeave | ReleaseLeave | ClaimAttendanceDay;

/** A booking's days and the application it names (`null`: booked before bookings named it). */
export interface BookedDays {
  from_date: string;
  to_date: string;
  leave_id: number | null;
}

/** A claimed day and the attendance record it names (`null`: claimed before claims named it). */
export interface ClaimedDay {
  attendance_date: string;
  attendance_id: number | null;
}

export interface CalendarState {
  /** Days of Open and Approved leave; they never overlap. */
  leave: readonly BookedDays[];
  /** Dates that have an attendance record. */
  attendance: readonly ClaimedDay[];
}

const epochDay = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY;
const dateOf = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10);

/** Monday to Friday; public holidays are not modelled. */
export function isWorkingDay(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

/** The working days from `from` to `to`, both included. */
export function workingDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = epochDay(from); day <= epochDay(to); day++) {
    const date = dateOf(day);
    if (isWorkingDay(date)) days.push(date);
  }
  return days;
}

function activeEmployee(employee_id: number, employee: EmployeeFacts | null): EmployeeFacts {
  if (!employee) throw invalidField('employee_id', `employee ${employee_id} does not exist`);
  if (employee.status !== 'Active')
    throw invalidField('employee_id', `employee ${employee_id} is ${employee.status}`);
  return employee;
}

/** Bookings that overlap the days a command asks for. */
export const clashingBookings = (state: CalendarState, { from_date, to_date }: BookLeave) =>
  state.leave.filter((booked) => booked.from_date <= to_date && booked.to_date >= from_date);

export const clashingClaims = (state: CalendarState, { attendance }: ClaimAttendanceDay) =>
  state.attendance.filter((claimed) => claimed.attendance_date === attendance.attendance_date);

/** Entries of records named in `released`, which the command gives back before it books or claims. */
function releasedOf<Entry>(
  entries: readonly Entry[],
  recordOf: (entry: Entry) => number | null,
  released: readonly number[] = [],
): Entry[] {
  return entries.filter((entry) => {
    const record = recordOf(entry);
    return record !== null && released.includes(record);
  });
}

function bookLeave(command: BookLeave, state: CalendarState): CalendarEvent[] {
  const employee = activeEmployee(command.employee_id, command.employee);
  const { from_date, to_date, half_day } = command;
  if (to_date < from_date) throw invalidField('to_date', 'must be on or after from_date');
  if (epochDay(to_date) - epochDay(from_date) >= MAX_LEAVE_DAYS) {
    throw invalidField('to_date', `a leave application covers at most ${MAX_LEAVE_DAYS} days`);
  }
  if (from_date < employee.date_of_joining) {
    throw invalidField('from_date', `is before the employee joined on ${employee.date_of_joining}`);
  }
  const days = workingDays(from_date, to_date);
  if (days.length === 0) throw invalidField('from_date', 'the leave covers no working day');

  let half_day_date: string | null = null;
  if (half_day) {
    half_day_date = command.half_day_date ?? (from_date === to_date ? from_date : null);
    if (half_day_date === null)
      throw invalidField('half_day_date', 'is required for a half day in a longer leave');
    if (!days.includes(half_day_date))
      throw invalidField('half_day_date', 'must be a working day of the leave');
  } else if (command.half_day_date !== null) {
    throw invalidField('half_day_date', 'is only given with half_day');
  }

  const clashes = clashingBookings(state, command);
  const releases = releasedOf(clashes, (booked) => booked.leave_id, command.released);
  const clash = clashes.find((booked) => !releases.includes(booked));
  if (clash) {
    throw new DomainError(
      'already_exists',
      `Employee ${command.employee_id} already has leave from ${clash.from_date} to ${clash.to_date}`,
      { employee_id: command.employee_id, from_date: clash.from_date, to_date: clash.to_date },
    );
  }
  const total_days = days.length - (half_day ? 0.5 : 0);
  return [
    ...releases.map((released): CalendarEvent => ({
      type: 'LeaveDaysReleased',
      data: { from_date: released.from_date, to_date: released.to_date },
    })),
    {
      type: 'LeaveDaysBooked',
      data: { from_date, to_date, half_day_date, total_days, leave_id: command.leave_id },
    },
  ];
}

const WORKED: readonly AttendanceStatus[] = ['Present', 'Half Day', 'Work From Home'];
const HOUR = 3_600_000;

function checkTimes(attendance: AttendanceInput): void {
  const { status, in_time, out_time, attendance_date } = attendance;
  if (!WORKED.includes(status)) {
    for (const field of ['in_time', 'out_time', 'late_entry', 'early_exit'] as const) {
      if (attendance[field]) throw invalidField(field, `is not recorded for an employee who is ${status}`);
    }
    return;
  }
  if (out_time !== null && in_time === null) throw invalidField('in_time', 'is required with out_time');
  if (in_time !== null && in_time.slice(0, 10) !== attendance_date) {
    throw invalidField('in_time', 'must be on the attendance date (UTC)');
  }
  if (in_time !== null && out_time !== null) {
    const worked = Date.parse(out_time) - Date.parse(in_time);
    if (worked <= 0) throw invalidField('out_time', 'must be after in_time');
    if (worked > 24 * HOUR) throw invalidField('out_time', 'must be within 24 hours of in_time');
  }
}

function claimDay(command: ClaimAttendanceDay, state: CalendarState): CalendarEvent[] {
  const employee = activeEmployee(command.employee_id, command.employee);
  const { attendance_date } = command.attendance;
  if (attendance_date > command.today) throw invalidField('attendance_date', 'is in the future');
  if (attendance_date < employee.date_of_joining) {
    throw invalidField('attendance_date', `is before the employee joined on ${employee.date_of_joining}`);
  }
  checkTimes(command.attendance);
  const clashes = clashingClaims(state, command);
  const releases = releasedOf(clashes, (claimed) => claimed.attendance_id, command.released);
  if (clashes.length > releases.length) {
    throw new DomainError(
      'already_exists',
      `Employee ${command.employee_id} already has attendance on ${attendance_date}`,
      { employee_id: command.employee_id, attendance_date },
    );
  }
  return [
    ...releases.map((): CalendarEvent => ({ type: 'AttendanceDayReleased', data: { attendance_date } })),
    { type: 'AttendanceDayClaimed', data: { attendance_date, attendance_id: command.attendance_id } },
  ];
}

/**
 * An employee's calendar decides whether leave and attendance can be recorded: it refuses leave that
 * overlaps Open or Approved leave and a second attendance record for a day. Appends to it carry the
 * revision they were decided on, so two concurrent requests for the same days cannot both pass. Each
 * entry names its record, appended after it: an entry whose record does not hold it is released by the
 * next booking or claim it stands in the way of (see `calendar-holds.ts`).
 */
export const calendarDecider: Decider<CalendarCommand, CalendarState, CalendarEvent> = {
  initialState: () => ({ leave: [], attendance: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'LeaveDaysBooked':
        return {
          ...state,
          leave: [
            ...state.leave,
            { from_date: event.data.from_date, to_date: event.data.to_date, leave_id: event.data.leave_id },
          ],
        };
      case 'LeaveDaysReleased':
        return {
          ...state,
          leave: state.leave.filter(
            (booked) => booked.from_date !== event.data.from_date || booked.to_date !== event.data.to_date,
          ),
        };
      case 'AttendanceDayClaimed':
        return { ...state, attendance: [...state.attendance, event.data] };
      case 'AttendanceDayReleased':
        return {
          ...state,
          attendance: state.attendance.filter(
            (claimed) => claimed.attendance_date !== event.data.attendance_date,
          ),
        };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'BookLeave':
        return bookLeave(command, state);
      case 'ReleaseLeave': {
        const { from_date, to_date } = command;
        const booked = state.leave.some((days) => days.from_date === from_date && days.to_date === to_date);
        return booked ? [{ type: 'LeaveDaysReleased', data: { from_date, to_date } }] : [];
      }
      case 'ClaimAttendanceDay':
        return claimDay(command, state);
    }
  },
};

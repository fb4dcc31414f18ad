import { attendanceDecider, workingHours, type RecordAttendance } from '../../src/commands/hrm/attendance';
import {
  calendarDecider,
  type AttendanceInput,
  type ClaimAttendanceDay,
} from '../../src/commands/hrm/calendar';
import type { EmployeeFacts } from '../../src/commands/hrm/employees';
import { deciderSpec } from '../support/decider-spec';

const grace: EmployeeFacts = {
  id: 7,
  status: 'Active',
  employee_name: 'Grace Hopper',
  department_id: 2,
  reports_to: 3,
  date_of_joining: '2020-01-06',
};

const present: AttendanceInput = {
  attendance_date: '2026-11-20',
  status: 'Present',
  in_time: '2026-11-20T08:55:00Z',
  out_time: '2026-11-20T17:25:00Z',
  late_entry: false,
  early_exit: false,
};

describe('recording attendance: the employee calendar', () => {
  const given = deciderSpec(calendarDecider);
  const claim = (attendance: Partial<AttendanceInput> = {}, overrides: Partial<ClaimAttendanceDay> = {}) => ({
    type: 'ClaimAttendanceDay' as const,
    attendance_id: 12,
    employee_id: 7,
    employee: grace,
    attendance: { ...present, ...attendance },
    today: '2026-11-21',
    ...overrides,
  });
  const claimed = (attendance_date: string, attendance_id: number | null = 12) => ({
    type: 'AttendanceDayClaimed' as const,
    data: { attendance_date, attendance_id },
  });

  it('claims the day of a valid record', () => {
    given([])
      .when(claim())
      .then([claimed('2026-11-20')]);
    given([])
      .when(claim({ attendance_date: '2026-11-21', in_time: '2026-11-21T08:00:00Z', out_time: null }))
      .then([claimed('2026-11-21')]);
  });

  it('accepts On Leave and Absent without times', () => {
    given([])
      .when(claim({ status: 'On Leave', in_time: null, out_time: null }))
      .then([claimed('2026-11-20')]);
    given([])
      .when(claim({ status: 'Absent', in_time: null, out_time: null }))
      .then([claimed('2026-11-20')]);
  });

  it('refuses a second record for the same employee and day (409), and takes other days', () => {
    given([claimed('2026-11-20')])
      .when(claim())
      .thenThrows({ code: 'already_exists', details: { employee_id: 7, attendance_date: '2026-11-20' } });
    given([claimed('2026-11-19')])
      .when(claim())
      .then([claimed('2026-11-20')]);
  });

  it('gives back, in the same append, a day claimed for a record that does not hold it, then claims it', () => {
    given([claimed('2026-11-20', 11)])
      .when(claim({}, { released: [11] }))
      .then([
        { type: 'AttendanceDayReleased', data: { attendance_date: '2026-11-20' } },
        claimed('2026-11-20'),
      ]);
    given([claimed('2026-11-20', null)])
      .when(claim({}, { released: [11] }))
      .thenThrows({ code: 'already_exists' });
  });

  it.each([
    ['a missing employee', {}, { employee: null }, 'employee_id', /does not exist/],
    [
      'an employee who is not Active',
      {},
      { employee: { ...grace, status: 'Inactive' as const } },
      'employee_id',
      /Inactive/,
    ],
    ['a day in the future', { attendance_date: '2026-11-22' }, {}, 'attendance_date', /future/],
    ['a day before the employee joined', { attendance_date: '2020-01-03' }, {}, 'attendance_date', /joined/],
    ['times for an absent employee', { status: 'Absent' as const }, {}, 'in_time', /Absent/],
    [
      'a late entry while on leave',
      { status: 'On Leave' as const, in_time: null, out_time: null, late_entry: true },
      {},
      'late_entry',
      /On Leave/,
    ],
    ['a check-out without a check-in', { in_time: null }, {}, 'in_time', /required/],
    ['a check-in on another day', { in_time: '2026-11-19T22:00:00Z' }, {}, 'in_time', /attendance date/],
    [
      'a check-out before the check-in',
      { out_time: '2026-11-20T08:00:00Z' },
      {},
      'out_time',
      /after in_time/,
    ],
    ['a shift over 24 hours', { out_time: '2026-11-21T09:00:00Z' }, {}, 'out_time', /24 hours/],
  ])(
    'refuses %s with a validation error naming the field',
    (_case, attendance, overrides, field, message) => {
      const command = claim(attendance, overrides);
      given([])
        .when(command)
        .thenThrows({ code: 'validation_error', message: expect.stringMatching(new RegExp(`^${field}: `)) });
      given([])
        .when(command)
        .thenThrows({ message: expect.stringMatching(message) });
    },
  );
});

describe('recording attendance: the record', () => {
  const given = deciderSpec(attendanceDecider);
  const record = (attendance: Partial<AttendanceInput> = {}): RecordAttendance => ({
    type: 'RecordAttendance',
    id: 12,
    employee: grace,
    attendance: { ...present, ...attendance },
    at: '2026-11-21T09:30:00Z',
  });

  it('records the attendance with the employee and the hours worked', () => {
    given([])
      .when(record())
      .then([
        {
          type: 'AttendanceRecorded',
          data: {
            id: 12,
            employee_id: 7,
            employee_name: 'Grace Hopper',
            department_id: 2,
            ...present,
            working_hours: 8.5,
            created: '2026-11-21T09:30:00Z',
          },
        },
      ]);
  });

  it('counts no hours until the employee checks out', () => {
    expect(workingHours('2026-11-20T08:55:00Z', null)).toBe(0);
    expect(workingHours(null, null)).toBe(0);
    expect(workingHours('2026-11-20T08:00:00Z', '2026-11-20T12:20:00Z')).toBe(4.33);
  });

  it('does not record an id twice', () => {
    const [recorded] = attendanceDecider.decide(record(), attendanceDecider.initialState());
    given([recorded!]).when(record()).thenThrows({ code: 'already_exists' });
  });

  it('records nothing under a voided number, whose claim was left without it', () => {
    given([{ type: 'AttendanceNumberVoided', data: { id: 12 } }])
      .when(record())
      .thenThrows({ code: 'already_exists' });
  });
});

import fc from 'fast-check';
import { calendarDecider, type BookLeave } from '../../src/commands/hrm/calendar';
import type { EmployeeFacts } from '../../src/commands/hrm/employees';
import {
  LEAVE_DECISIONS,
  leaveDecider,
  type DecideLeave,
  type LeaveDecision,
} from '../../src/commands/hrm/leave';
import { DomainError } from '../../src/commands/errors';
import { eventCatalog, upcast } from '../../src/events/catalog';
import { hrmEvents, LEAVE_TRANSITIONS, type HrmEventOf, type LeaveStatus } from '../../src/events/hrm';
import { deciderSpec } from '../support/decider-spec';
import { storedEvent } from '../support/stored-event';

const grace: EmployeeFacts = {
  id: 7,
  status: 'Active',
  employee_name: 'Grace Hopper',
  department_id: 2,
  reports_to: 3,
  date_of_joining: '2020-01-06',
};
const ada: EmployeeFacts = { ...grace, id: 3, employee_name: 'Ada Lovelace', reports_to: null };

describe('submitting leave: the employee calendar', () => {
  const given = deciderSpec(calendarDecider);
  // 2026-11-23 is a Monday.
  const book = (overrides: Partial<BookLeave> = {}): BookLeave => ({
    type: 'BookLeave',
    leave_id: 42,
    employee_id: 7,
    employee: grace,
    from_date: '2026-11-23',
    to_date: '2026-11-27',
    half_day: false,
    half_day_date: null,
    ...overrides,
  });
  const booked = (
    from_date: string,
    to_date: string,
    total_days = 5,
    leave_id: number | null = 42,
  ): HrmEventOf<'LeaveDaysBooked'> => ({
    type: 'LeaveDaysBooked',
    data: { from_date, to_date, half_day_date: null, total_days, leave_id },
  });

  it('books the days and counts working days, Monday to Friday', () => {
    given([])
      .when(book())
      .then([booked('2026-11-23', '2026-11-27', 5)]);
    given([])
      .when(book({ from_date: '2026-11-26', to_date: '2026-12-01' }))
      .then([booked('2026-11-26', '2026-12-01', 4)]);
  });

  it('counts a half day as 0.5, on the single day of a one-day leave by default', () => {
    given([])
      .when(book({ to_date: '2026-11-23', half_day: true }))
      .then([
        {
          type: 'LeaveDaysBooked',
          data: {
            from_date: '2026-11-23',
            to_date: '2026-11-23',
            half_day_date: '2026-11-23',
            total_days: 0.5,
            leave_id: 42,
          },
        },
      ]);
    given([])
      .when(book({ half_day: true, half_day_date: '2026-11-27' }))
      .then([
        {
          type: 'LeaveDaysBooked',
          data: {
            from_date: '2026-11-23',
            to_date: '2026-11-27',
            half_day_date: '2026-11-27',
            total_days: 4.5,
            leave_id: 42,
          },
        },
      ]);
  });

  it.each([
    ['a missing employee', { employee: null }, 'employee_id', /does not exist/],
    [
      'an employee who is not Active',
      { employee: { ...grace, status: 'Left' as const } },
      'employee_id',
      /is Left/,
    ],
    [
      'dates in the wrong order',
      { from_date: '2026-11-27', to_date: '2026-11-23' },
      'to_date',
      /on or after/,
    ],
    [
      'leave before the employee joined',
      { from_date: '2019-12-30', to_date: '2020-01-03' },
      'from_date',
      /joined/,
    ],
    ['a weekend only', { from_date: '2026-11-28', to_date: '2026-11-29' }, 'from_date', /no working day/],
    ['more than a year', { to_date: '2027-11-24' }, 'to_date', /at most 366 days/],
    ['a half day of a longer leave without its date', { half_day: true }, 'half_day_date', /required/],
    [
      'a half day outside the leave',
      { half_day: true, half_day_date: '2026-11-30' },
      'half_day_date',
      /working day/,
    ],
    [
      'a half day on a weekend',
      { to_date: '2026-11-30', half_day: true, half_day_date: '2026-11-28' },
      'half_day_date',
      /working day/,
    ],
    ['a half-day date without half_day', { half_day_date: '2026-11-24' }, 'half_day_date', /only given with/],
  ])('refuses %s with a validation error naming the field', (_case, overrides, field, message) => {
    given([])
      .when(book(overrides))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(new RegExp(`^${field}: `)) });
    given([])
      .when(book(overrides))
      .thenThrows({ message: expect.stringMatching(message) });
  });

  it('refuses leave that overlaps Open or Approved leave, naming the days booked (409)', () => {
    given([booked('2026-11-23', '2026-11-27')])
      .when(book({ from_date: '2026-11-27', to_date: '2026-12-02' }))
      .thenThrows({
        code: 'already_exists',
        details: { employee_id: 7, from_date: '2026-11-23', to_date: '2026-11-27' },
      });
    given([booked('2026-11-24', '2026-11-24', 1)])
      .when(book())
      .thenThrows({ code: 'already_exists' });
  });

  it('books days next to other leave, and days that rejected or cancelled leave gave back', () => {
    given([booked('2026-11-16', '2026-11-20')])
      .when(book())
      .then([booked('2026-11-23', '2026-11-27')]);
    given([
      booked('2026-11-23', '2026-11-27'),
      { type: 'LeaveDaysReleased', data: { from_date: '2026-11-23', to_date: '2026-11-27' } },
    ])
      .when(book())
      .then([booked('2026-11-23', '2026-11-27')]);
  });

  it('gives back, in the same append, days booked for applications that do not hold them, then books', () => {
    const released = {
      type: 'LeaveDaysReleased' as const,
      data: { from_date: '2026-11-24', to_date: '2026-11-24' },
    };
    given([booked('2026-11-24', '2026-11-24', 1, 41)])
      .when(book({ released: [41] }))
      .then([released, booked('2026-11-23', '2026-11-27')]);
    given([booked('2026-11-24', '2026-11-24', 1, 41), booked('2026-11-27', '2026-11-27', 1, 40)])
      .when(book({ released: [41] }))
      .thenThrows({
        code: 'already_exists',
        details: { employee_id: 7, from_date: '2026-11-27', to_date: '2026-11-27' },
      });
    given([booked('2026-11-24', '2026-11-24', 1, null)])
      .when(book({ released: [41] }))
      .thenThrows({ code: 'already_exists' });
  });

  it('reads a booking stored before bookings named their application (v1) as naming none', () => {
    const v1 = storedEvent('hrm.calendar-7', 0, {
      type: 'LeaveDaysBooked',
      data: { from_date: '2026-11-23', to_date: '2026-11-27', half_day_date: null, total_days: 5 },
    });
    const catalog = new Map([['hrm', eventCatalog(hrmEvents)]]);
    expect(upcast(catalog, v1)).toMatchObject({
      schema_version: 2,
      data: { ...(v1.data as object), leave_id: null },
    });
  });

  it('releases booked days once, and nothing that was not booked', () => {
    const release = { type: 'ReleaseLeave' as const, from_date: '2026-11-23', to_date: '2026-11-27' };
    given([booked('2026-11-23', '2026-11-27')])
      .when(release)
      .then([{ type: 'LeaveDaysReleased', data: { from_date: '2026-11-23', to_date: '2026-11-27' } }]);
    given([
      booked('2026-11-23', '2026-11-27'),
      { type: 'LeaveDaysReleased', data: { from_date: '2026-11-23', to_date: '2026-11-27' } },
    ])
      .when(release)
      .then([]);
  });
});

const application: HrmEventOf<'LeaveApplicationSubmitted'>['data'] = {
  id: 42,
  employee_id: 7,
  employee_name: 'Grace Hopper',
  department_id: 2,
  leave_type: 'Annual Leave',
  from_date: '2026-11-23',
  to_date: '2026-11-27',
  half_day: false,
  half_day_date: null,
  total_days: 5,
  description: 'Family visit',
  leave_approver_id: 3,
  posting_date: '2026-11-21',
  created: '2026-11-21T09:30:00Z',
};
const submitted: HrmEventOf<'LeaveApplicationSubmitted'> = {
  type: 'LeaveApplicationSubmitted',
  data: application,
};
const at = '2026-11-21T10:00:00Z';

/** Grace's leave rejected by Ada, for `reason`. */
const rejection = (reason: string | null) => ({ rejected_by: 3, rejected_on: at, employee_id: 7, reason });

/** The events that bring an application to each status. */
const HISTORY: Record<
  LeaveStatus,
  HrmEventOf<
    | 'LeaveApplicationSubmitted'
    | 'LeaveApplicationApproved'
    | 'LeaveApplicationRejected'
    | 'LeaveApplicationCancelled'
  >[]
> = {
  Open: [submitted],
  Approved: [submitted, { type: 'LeaveApplicationApproved', data: { approved_by: 3, approved_on: at } }],
  Rejected: [submitted, { type: 'LeaveApplicationRejected', data: rejection(null) }],
  Cancelled: [submitted, { type: 'LeaveApplicationCancelled', data: { cancelled_on: at } }],
};

const decide = (status: LeaveDecision, overrides: Partial<DecideLeave> = {}): DecideLeave => ({
  type: 'DecideLeave',
  status,
  at,
  approver: ada,
  ...overrides,
});

describe('recording a leave application', () => {
  const given = deciderSpec(leaveDecider);

  it('records the application the calendar booked, Open', () => {
    given([]).when({ type: 'SubmitLeave', application }).then([submitted]);
  });

  it('does not record an id twice', () => {
    given([submitted]).when({ type: 'SubmitLeave', application }).thenThrows({ code: 'already_exists' });
  });

  it('records nothing under a voided number, whose booking was left without it', () => {
    const voided = { type: 'LeaveNumberVoided' as const, data: { id: 42 } };
    given([voided]).when({ type: 'SubmitLeave', application }).thenThrows({ code: 'already_exists' });
    given([voided]).when(decide('Cancelled')).thenThrows({ code: 'not_found' });
  });
});

describe('the leave transition table', () => {
  const given = deciderSpec(leaveDecider);
  const EXPECTED = {
    Approved: { type: 'LeaveApplicationApproved', data: { approved_by: 3, approved_on: at } },
    Rejected: { type: 'LeaveApplicationRejected', data: rejection(null) },
    Cancelled: { type: 'LeaveApplicationCancelled', data: { cancelled_on: at } },
  } as const;
  const moves = (Object.keys(HISTORY) as LeaveStatus[]).flatMap((from) =>
    (['Approved', 'Rejected', 'Cancelled'] as const).map((to) => [from, to] as const),
  );

  it('allows exactly Open -> Approved | Rejected | Cancelled and Approved -> Cancelled', () => {
    expect(LEAVE_TRANSITIONS).toEqual({
      Open: ['Approved', 'Rejected', 'Cancelled'],
      Approved: ['Cancelled'],
      Rejected: [],
      Cancelled: [],
    });
  });

  it.each(moves.filter(([from, to]) => LEAVE_TRANSITIONS[from].includes(to)))(
    'moves %s to %s',
    (from, to) => {
      given(HISTORY[from]).when(decide(to)).then([EXPECTED[to]]);
    },
  );

  it.each(moves.filter(([from, to]) => !LEAVE_TRANSITIONS[from].includes(to)))(
    'refuses to move %s to %s (409 illegal_transition)',
    (from, to) => {
      const allowed = LEAVE_TRANSITIONS[from];
      given(HISTORY[from])
        .when(decide(to))
        .thenThrows({
          code: 'illegal_transition',
          message: expect.stringContaining(allowed.length > 0 ? allowed.join(', ') : 'no status follows it'),
          details: { from, to, allowed },
        });
    },
  );

  it('answers not_found for an application that does not exist', () => {
    given([]).when(decide('Approved')).thenThrows({ code: 'not_found' });
  });
});

describe('who approves or rejects leave', () => {
  const given = deciderSpec(leaveDecider);

  it("records the approver named in the request instead of the employee's manager", () => {
    given([submitted])
      .when(decide('Approved', { approver_id: 9, approver: { ...ada, id: 9 } }))
      .then([{ type: 'LeaveApplicationApproved', data: { approved_by: 9, approved_on: at } }]);
  });

  it.each(['Approved', 'Rejected'] as const)('needs an approver to set %s', (status) => {
    const withoutManager = { ...submitted, data: { ...application, leave_approver_id: null } };
    given([withoutManager])
      .when(decide(status, { approver: null }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^approver_id: is required/) });
  });

  it('refuses an approver who does not exist or is not Active', () => {
    given([submitted])
      .when(decide('Approved', { approver_id: 99, approver: null }))
      .thenThrows({ code: 'validation_error', message: 'approver_id: employee 99 does not exist' });
    given([submitted])
      .when(decide('Rejected', { approver: { ...ada, status: 'Suspended' } }))
      .thenThrows({ code: 'validation_error', message: 'approver_id: employee 3 is Suspended' });
  });

  it('refuses to let employees decide on their own leave', () => {
    given([submitted])
      .when(decide('Approved', { approver_id: 7, approver: grace }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/own leave/) });
  });

  it('cancels without an approver, and refuses one given with a cancellation', () => {
    given([submitted])
      .when(decide('Cancelled', { approver: null }))
      .then([{ type: 'LeaveApplicationCancelled', data: { cancelled_on: at } }]);
    given([submitted])
      .when(decide('Cancelled', { approver_id: 3 }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^approver_id: /) });
  });
});

describe('the reason of a rejection', () => {
  const given = deciderSpec(leaveDecider);

  it("records the approver's reason, naming the employee it is about", () => {
    given([submitted])
      .when(decide('Rejected', { reason: 'Release week' }))
      .then([{ type: 'LeaveApplicationRejected', data: rejection('Release week') }]);
  });

  it('rejects without a reason', () => {
    given([submitted])
      .when(decide('Rejected'))
      .then([{ type: 'LeaveApplicationRejected', data: rejection(null) }]);
  });

  it.each(['Approved', 'Cancelled'] as const)('refuses a reason given to set %s', (status) => {
    given([submitted])
      .when(decide(status, { reason: 'Why not' }))
      .thenThrows({ code: 'validation_error', message: 'reason: is only given to reject' });
  });

  it('reads a rejection stored before rejections had reasons (v1) as naming neither', () => {
    const v1 = storedEvent('hrm.leave-42', 1, {
      type: 'LeaveApplicationRejected',
      data: { rejected_by: 3, rejected_on: at },
    });
    const catalog = new Map([['hrm', eventCatalog(hrmEvents)]]);
    expect(upcast(catalog, v1)).toMatchObject({
      schema_version: 2,
      data: { rejected_by: 3, rejected_on: at, employee_id: null, reason: null },
    });
  });
});

describe('any sequence of leave decisions', () => {
  it('moves exactly where the transition table allows, and a refusal names the statuses that may follow', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LEAVE_DECISIONS), { maxLength: 6 }), (targets) => {
        let state = leaveDecider.evolve(leaveDecider.initialState(), submitted);
        let status: LeaveStatus = 'Open';
        for (const target of targets) {
          const allowed = LEAVE_TRANSITIONS[status];
          try {
            const events = leaveDecider.decide(decide(target), state);
            expect(allowed).toContain(target);
            state = events.reduce(leaveDecider.evolve, state);
            status = target;
          } catch (error) {
            expect(allowed).not.toContain(target);
            expect(error).toBeInstanceOf(DomainError);
            expect(error).toMatchObject({
              code: 'illegal_transition',
              details: { from: status, to: target, allowed },
            });
          }
        }
      }),
    );
  });
});

import { decidingEmployee, type DecidingPerson } from '../deciding';
import { isoTimestamp } from '../../clock';
import { hrmCategories, hrmStream, type EmployeeStatus, type LeaveType } from '../../events/hrm';
import type { NewEvent } from '../../events/envelope';
import type { CommandContext } from '../context';
import type { Decider } from '../decider';
import { DomainError } from '../errors';
import type { Decide } from '../module-commands';
import { attendanceDecider } from './attendance';
import {
  calendarDecider,
  clashingBookings,
  clashingClaims,
  type AttendanceInput,
  type BookLeave,
  type ClaimAttendanceDay,
} from './calendar';
import { unheldBookings, unheldClaims } from './calendar-holds';
import { employeeDecider, type EmployeeFacts } from './employees';
import {
  create,
  createTogether,
  created,
  employeeFacts,
  once,
  references,
  run,
  runTogether,
  stateOf,
  type Data,
  type Wanted,
} from './facts';
import { leaveDecider, type LeaveDecision } from './leave';
import {
  brandDecider,
  careerSiteDecider,
  departmentDecider,
  organizationDecider,
  teamDecider,
} from './organisation';
import { candidateDecider, distributionDecider, jobDecider } from './recruitment';

/*
 * Handlers of the HR side: the organisation structure, employees, leave and attendance, and the status
 * changes of every record with a status table. Recruitment is in `recruitment-handlers.ts`.
 */

// Organisation structure --------------------------------------------------------------------------

export type OrganizationInput = Omit<Data<'OrganizationAdded'>, 'id'>;

export function addOrganization(context: CommandContext, input: OrganizationInput) {
  return create(context, hrmCategories.organization, organizationDecider, (id) => ({
    type: 'Add' as const,
    data: { id, ...input },
    references: [],
  }));
}

export type BrandInput = Omit<Data<'BrandAdded'>, 'id'>;

export function addBrand(context: CommandContext, input: BrandInput) {
  return create(context, hrmCategories.brand, brandDecider, async (id) => ({
    type: 'Add' as const,
    data: { id, ...input },
    references: await references(context, [['organization_id', 'organization', input.organization_id]]),
  }));
}

export type CareerSiteInput = Omit<Data<'CareerSiteAdded'>, 'id'>;

export function addCareerSite(context: CommandContext, input: CareerSiteInput) {
  return create(context, hrmCategories.careerSite, careerSiteDecider, async (id) => ({
    type: 'Add' as const,
    data: { id, ...input },
    references: await references(context, [
      ['organization_id', 'organization', input.organization_id],
      ['brand_id', 'brand', input.brand_id],
    ]),
  }));
}

export type DepartmentInput = Omit<Data<'DepartmentAdded'>, 'id'>;

export function addDepartment(context: CommandContext, input: DepartmentInput) {
  return create(context, hrmCategories.department, departmentDecider, async (id) => ({
    type: 'Add' as const,
    data: { id, ...input },
    references: await references(context, [
      ['parent_department_id', 'department', input.parent_department_id],
    ]),
  }));
}

export type TeamInput = Omit<Data<'OrganizationTeamAdded'>, 'id'>;

export function addTeam(context: CommandContext, input: TeamInput) {
  return create(context, hrmCategories.team, teamDecider, async (id) => ({
    type: 'Add' as const,
    data: { id, ...input },
    references: await references(context, [
      ['organization_id', 'organization', input.organization_id],
      ['department_id', 'department', input.department_id],
      ['lead_employee_id', 'employee', input.lead_employee_id],
      ...input.member_ids.map((member): Wanted => ['member_ids', 'employee', member]),
    ]),
  }));
}

/** Records whose status follows a small table of their own (see `lifecycle.ts`). */
const LIFECYCLES = {
  organization: organizationDecider,
  brand: brandDecider,
  careerSite: careerSiteDecider,
  department: departmentDecider,
  team: teamDecider,
  job: jobDecider,
  distribution: distributionDecider,
  candidate: candidateDecider,
};

type LifecycleCategory = keyof typeof LIFECYCLES;
export type StatusIn<Category extends LifecycleCategory> = NonNullable<
  Parameters<(typeof LIFECYCLES)[Category]['decide']>[1]
>['status'];

export function changeStatus<Category extends LifecycleCategory>(
  context: CommandContext,
  category: Category,
  id: number,
  status: StatusIn<Category>,
) {
  const { context: timed, at } = once(context);
  const decider = LIFECYCLES[category] as unknown as Decider<
    { type: 'ChangeStatus'; status: string; at: string },
    { status: string } | null,
    NewEvent
  >;
  return run(timed, hrmStream(category, id), decider, { type: 'ChangeStatus', status, at });
}

// Employees, leave and attendance ------------------------------------------------------------------

export type EmployeeInput = Omit<Data<'EmployeeJoined'>, 'id' | 'employee_number'>;

export function joinEmployee(context: CommandContext, input: EmployeeInput) {
  return create(context, hrmCategories.employee, employeeDecider, async (id) => ({
    type: 'JoinEmployee' as const,
    employee: { id, ...input },
    references: await references(context, [
      ['department_id', 'department', input.department_id],
      ['organization_id', 'organization', input.organization_id],
      ['reports_to', 'employee', input.reports_to],
    ]),
  }));
}

export interface EmployeeStatusInput {
  status: EmployeeStatus;
  relieving_date: string | null;
  reason: string | null;
}

export function changeEmployeeStatus(
  context: CommandContext,
  employeeId: number,
  input: EmployeeStatusInput,
) {
  const { context: timed, at } = once(context);
  return run(timed, hrmStream('employee', employeeId), employeeDecider, {
    type: 'ChangeEmployeeStatus',
    at,
    ...input,
  });
}

export interface LeaveInput {
  employee_id: number;
  leave_type: LeaveType;
  from_date: string;
  to_date: string;
  half_day: boolean;
  half_day_date: string | null;
  description: string | null;
}

/**
 * Submits a leave application: the employee's calendar books the days (refusing an inactive employee,
 * bad dates and overlaps) and the application is recorded under the next leave id, Open, with the
 * employee's manager as its leave approver; both are appended at once.
 *
 * Several streams: the booking first (what can refuse the leave refuses it before anything is stored),
 * naming the application; the application after it. A booking left without its application holds no
 * days: it is released by the next leave it stands in the way of (`calendar-holds.ts`).
 */
export async function submitLeave(context: CommandContext, input: LeaveInput) {
  const { context: timed, at } = once(context);
  const { employee_id, from_date, to_date, half_day, half_day_date } = input;
  const employee = await employeeFacts(context, employee_id);
  return createTogether(timed, hrmCategories.leave, async (id, decide) => {
    const booking = await decideOnCalendar(timed, decide, {
      type: 'BookLeave',
      leave_id: id,
      employee_id,
      employee,
      from_date,
      to_date,
      half_day,
      half_day_date,
    });
    const booked = booking.events.find((event) => event.type === 'LeaveDaysBooked')
      ?.data as Data<'LeaveDaysBooked'>;
    // The calendar refuses a missing or inactive employee, so the employee is known here.
    const { employee_name, department_id, reports_to } = employee as EmployeeFacts;
    const record = await decide(`${hrmCategories.leave}-${id}`, leaveDecider, {
      type: 'SubmitLeave',
      application: {
        id,
        employee_id,
        employee_name,
        department_id,
        leave_type: input.leave_type,
        from_date,
        to_date,
        half_day,
        half_day_date: booked.half_day_date,
        total_days: booked.total_days,
        description: input.description,
        leave_approver_id: reports_to,
        posting_date: at.slice(0, 10),
        created: at,
      },
    });
    return { before: [booking], record };
  });
}

export interface LeaveDecisionInput {
  status: LeaveDecision;
  approver_id?: number;
  /** Why the leave is rejected (Rejected only). */
  reason?: string;
  /** Who takes the decision (`decidingEmployee`); unset: whoever the body names. */
  decider?: DecidingPerson;
}

/**
 * Approves, rejects or cancels leave; a rejection or cancellation gives the days back to the calendar,
 * appended together with the decision.
 *
 * Several streams: the decision first (a concurrent decision on the application refuses it before
 * anything is stored), the days given back after it. Days of a rejected or cancelled application that
 * were not given back hold nothing: the next leave they stand in the way of releases them
 * (`calendar-holds.ts`).
 */
export async function decideLeave(context: CommandContext, leaveId: number, input: LeaveDecisionInput) {
  const { context: timed, at } = once(context);
  const stream = hrmStream('leave', leaveId);
  const application = await created<'LeaveApplicationSubmitted'>(context, stream);
  const { decider, ...decision } = input;
  if (decider !== undefined && application && decision.status !== 'Cancelled') {
    const designated = application.leave_approver_id;
    const approverId = decidingEmployee('approver_id', decision.approver_id, designated, decider);
    if (approverId !== undefined) decision.approver_id = approverId;
  }
  const approverId = decision.approver_id ?? application?.leave_approver_id ?? null;
  const approver = approverId === null ? null : await employeeFacts(context, approverId);
  return runTogether(timed, async (decide) => {
    const record = await decide(stream, leaveDecider, { type: 'DecideLeave', at, ...decision, approver });
    const released = record.events.some(
      (event) => event.type === 'LeaveApplicationRejected' || event.type === 'LeaveApplicationCancelled',
    );
    if (!released || !application) return { record };
    const { employee_id, from_date, to_date } = application;
    const release = await decide(hrmStream('calendar', employee_id), calendarDecider, {
      type: 'ReleaseLeave',
      from_date,
      to_date,
    });
    return { record, after: [release] };
  });
}

/**
 * Decides a booking or claim on the employee's calendar. When entries stand in its way, those their
 * records do not hold are released in the same append, and it is decided again.
 */
async function decideOnCalendar(
  context: CommandContext,
  decide: Decide,
  command: BookLeave | ClaimAttendanceDay,
) {
  const stream = hrmStream('calendar', command.employee_id);
  try {
    return await decide(stream, calendarDecider, command);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'already_exists')) throw error;
    const calendar = await stateOf(context, calendarDecider, stream);
    const released =
      command.type === 'BookLeave'
        ? await unheldBookings(context, command.employee_id, clashingBookings(calendar, command))
        : await unheldClaims(context, command.employee_id, clashingClaims(calendar, command));
    if (released.length === 0) throw error;
    return decide(stream, calendarDecider, { ...command, released });
  }
}

export type AttendanceRecordInput = { employee_id: number } & AttendanceInput;

const utc = (time: string | null) => (time === null ? null : isoTimestamp(new Date(time)));

/**
 * Records a day's attendance; the employee's calendar, which refuses a second record for the same day,
 * claims the day in the same append.
 *
 * Several streams: the claim first, naming the record, the record after it, as with leave: a claim
 * left without its record holds no day (`calendar-holds.ts`).
 */
export async function recordAttendance(context: CommandContext, input: AttendanceRecordInput) {
  const { context: timed, at } = once(context);
  const { employee_id, ...rest } = input;
  const attendance = { ...rest, in_time: utc(rest.in_time), out_time: utc(rest.out_time) };
  const employee = await employeeFacts(context, employee_id);
  return createTogether(timed, hrmCategories.attendance, async (id, decide) => {
    const claim = await decideOnCalendar(timed, decide, {
      type: 'ClaimAttendanceDay',
      attendance_id: id,
      employee_id,
      employee,
      attendance,
      today: at.slice(0, 10),
    });
    const record = await decide(`${hrmCategories.attendance}-${id}`, attendanceDecider, {
      type: 'RecordAttendance',
      id,
      employee: employee as EmployeeFacts,
      attendance,
      at,
    });
    return { before: [claim], record };
  });
}

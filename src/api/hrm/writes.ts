import { z } from 'zod';
import { decideLeave, recordAttendance, submitLeave } from '../../commands/hrm/handlers';
import { LEAVE_DECISIONS, type LeaveDecision } from '../../commands/hrm/leave';
import { ATTENDANCE_STATUSES, LEAVE_TYPES, type AttendanceStatus, type LeaveType } from '../../events/hrm';
import { attendanceProjection, leaveProjection } from '../../projections/hrm';
import { decidingPersonOf } from '../kit/deciding';
import { ApiError } from '../kit/errors';
import type { WriteRoute } from '../kit/module';
import { freeText, parseInteger } from '../kit/validation';
import { caseInsensitiveEnum } from '../kit/parameters';
import { attendance, leave } from './resources';

const employeeId = z.int().positive().meta({ description: 'An Active employee' });
const dateField = z.iso.date();
const timeField = z.iso
  .datetime({ offset: true })
  .nullable()
  .optional()
  .meta({ description: 'ISO 8601; stored in UTC with second precision' });

const LeaveCreation = z
  .strictObject({
    employee_id: employeeId,
    leave_type: caseInsensitiveEnum(LEAVE_TYPES),
    from_date: dateField,
    to_date: dateField.meta({ description: 'On or after from_date' }),
    half_day: z.boolean().optional().meta({ description: 'One day of the leave is a half day (0.5)' }),
    half_day_date: dateField
      .nullable()
      .optional()
      .meta({ description: 'The half day; required when half_day is true and the leave spans days' }),
    description: z.string().trim().max(2000).nullable().optional().meta({ description: 'Reason' }),
  })
  .meta({ id: 'LeaveApplicationCreation' });

const LeaveUpdate = z
  .strictObject({
    status: caseInsensitiveEnum(LEAVE_DECISIONS).meta({
      description: 'Approved or Rejected (from Open), Cancelled (from Open or Approved)',
    }),
    approver_id: z
      .int()
      .positive()
      .optional()
      .meta({
        description:
          "Employee who approves or rejects; defaults to the application's leave approver (the manager). " +
          'Not given with Cancelled.',
      }),
    reason: freeText()
      .optional()
      .meta({
        description:
          'Why the leave is rejected, shown as its decision_reason; optional, only given with Rejected. ' +
          "Personal data of the employee's.",
      }),
  })
  .meta({ id: 'LeaveApplicationUpdate' });

const AttendanceCreation = z
  .strictObject({
    employee_id: employeeId,
    attendance_date: dateField.meta({ description: 'Not in the future; one record per employee and date' }),
    status: caseInsensitiveEnum(ATTENDANCE_STATUSES),
    in_time: timeField,
    out_time: timeField,
    late_entry: z.boolean().optional(),
    early_exit: z.boolean().optional(),
  })
  .meta({ id: 'AttendanceCreation' });

function itemId(params: Record<string, string>): number {
  const id = parseInteger(params.id ?? '', ['path', 'id']);
  if (typeof id !== 'number') throw new ApiError('validation_error', `id: ${id.msg}`, { issues: [id] });
  return id;
}

export const submitLeaveRoute: WriteRoute<z.infer<typeof LeaveCreation>> = {
  method: 'post',
  path: '/api/v1/leave',
  operation: 'createLeave',
  summary: 'Submit a leave application (Open)',
  body: LeaveCreation,
  status: 201,
  resource: leave,
  projection: leaveProjection,
  execute: ({ body }, context) =>
    submitLeave(context, {
      employee_id: body.employee_id,
      leave_type: body.leave_type as LeaveType,
      from_date: body.from_date,
      to_date: body.to_date,
      half_day: body.half_day ?? false,
      half_day_date: body.half_day_date ?? null,
      description: body.description || null,
    }),
};

export const decideLeaveRoute: WriteRoute<z.infer<typeof LeaveUpdate>> = {
  method: 'patch',
  path: '/api/v1/leave/:id',
  operation: 'updateLeave',
  summary: 'Approve, reject or cancel a leave application',
  body: LeaveUpdate,
  status: 200,
  resource: leave,
  projection: leaveProjection,
  execute: ({ body, params, caller }, context) =>
    decideLeave(context, itemId(params), {
      status: body.status as LeaveDecision,
      ...(body.approver_id !== undefined && { approver_id: body.approver_id }),
      ...(body.reason !== undefined && { reason: body.reason }),
      decider: decidingPersonOf(caller),
    }),
};

export const recordAttendanceRoute: WriteRoute<z.infer<typeof AttendanceCreation>> = {
  method: 'post',
  path: '/api/v1/attendance',
  operation: 'createAttendance',
  summary: "Record an employee's attendance for a day",
  body: AttendanceCreation,
  status: 201,
  resource: attendance,
  projection: attendanceProjection,
  execute: ({ body }, context) =>
    recordAttendance(context, {
      employee_id: body.employee_id,
      attendance_date: body.attendance_date,
      status: body.status as AttendanceStatus,
      in_time: body.in_time ?? null,
      out_time: body.out_time ?? null,
      late_entry: body.late_entry ?? false,
      early_exit: body.early_exit ?? false,
    }),
};

export const HRM_WRITES = [submitLeaveRoute, decideLeaveRoute, recordAttendanceRoute] as WriteRoute[];

import { z } from 'zod';
import { defineEvent } from '../catalog';
import { date, id, timestamp } from './fields';

export const LEAVE_STATUSES = ['Open', 'Approved', 'Rejected', 'Cancelled'] as const;
export const LEAVE_TYPES = [
  'Annual Leave',
  'Sick Leave',
  'Casual Leave',
  'Compensatory Off',
  'Leave Without Pay',
  'Parental Leave',
] as const;

export type LeaveStatus = (typeof LEAVE_STATUSES)[number];

/**
 * Every legal move of a leave application (Frappe HRMS); anything else is 409 illegal_transition.
 * Approved leave may be cancelled whether or not it has started; its days go back to the calendar.
 */
export const LEAVE_TRANSITIONS: Readonly<Record<LeaveStatus, readonly LeaveStatus[]>> = {
  Open: ['Approved', 'Rejected', 'Cancelled'],
  Approved: ['Cancelled'],
  Rejected: [],
  Cancelled: [],
};
export type LeaveType = (typeof LEAVE_TYPES)[number];

const leaveRejected = z.object({ rejected_by: id, rejected_on: timestamp });

export const leaveEvents = [
  defineEvent(
    'LeaveApplicationSubmitted',
    z.object({
      id,
      employee_id: id,
      employee_name: z.string(),
      department_id: id,
      leave_type: z.enum(LEAVE_TYPES),
      from_date: date,
      to_date: date,
      half_day: z.boolean(),
      half_day_date: date.nullable(),
      total_days: z.number().positive().multipleOf(0.5),
      description: z.string().nullable(),
      leave_approver_id: id.nullable(),
      posting_date: date,
      created: timestamp,
    }),
    {
      personal: [
        {
          subject: ({ data }) => `hrm.employee-${data.employee_id}`,
          fields: ['employee_name', 'description'],
        },
      ],
    },
  ),
  defineEvent('LeaveApplicationApproved', z.object({ approved_by: id, approved_on: timestamp })),
  /**
   * Since v2 a rejection names the employee whose leave it is (`employee_id`) and the approver's
   * `reason`, which is about that employee; rejected before: both `null`.
   */
  defineEvent(
    'LeaveApplicationRejected',
    leaveRejected.extend({ employee_id: id.nullable(), reason: z.string().nullable() }),
    {
      version: 2,
      upcasters: [
        {
          from: 1,
          schema: leaveRejected,
          upcast: (data) => ({ ...(data as z.infer<typeof leaveRejected>), employee_id: null, reason: null }),
        },
      ],
      personal: [
        {
          subject: ({ stream, data }) => (data.employee_id ? `hrm.employee-${data.employee_id}` : stream),
          fields: ['reason'],
        },
      ],
    },
  ),
  defineEvent('LeaveApplicationCancelled', z.object({ cancelled_on: timestamp })),
] as const;

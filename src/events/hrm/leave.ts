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
export type LeaveType = (typeof LEAVE_TYPES)[number];

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
  defineEvent('LeaveApplicationRejected', z.object({ rejected_by: id, rejected_on: timestamp })),
  defineEvent('LeaveApplicationCancelled', z.object({ cancelled_on: timestamp })),
] as const;

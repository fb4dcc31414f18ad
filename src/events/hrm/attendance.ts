import { z } from 'zod';
import { defineEvent } from '../catalog';
import { date, id, timestamp } from './fields';

export const ATTENDANCE_STATUSES = ['Present', 'Absent', 'On Leave', 'Half Day', 'Work From Home'] as const;

export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];

export const attendanceEvents = [
  defineEvent(
    'AttendanceRecorded',
    z.object({
      id,
      employee_id: id,
      employee_name: z.string(),
      department_id: id,
      attendance_date: date,
      status: z.enum(ATTENDANCE_STATUSES),
      in_time: timestamp.nullable(),
      out_time: timestamp.nullable(),
      working_hours: z.number().nonnegative(),
      late_entry: z.boolean(),
      early_exit: z.boolean(),
      created: timestamp,
    }),
    { personal: [{ subject: ({ data }) => `hrm.employee-${data.employee_id}`, fields: ['employee_name'] }] },
  ),
] as const;

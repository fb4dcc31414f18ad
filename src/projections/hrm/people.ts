import { z } from 'zod';
import type { StoredEvent } from '../../events/envelope';
import {
  ATTENDANCE_STATUSES,
  EMPLOYEE_STATUSES,
  EMPLOYMENT_TYPES,
  LEAVE_STATUSES,
  LEAVE_TRANSITIONS,
  LEAVE_TYPES,
  type LeaveStatus,
} from '../../events/hrm';
import type { DocumentProjection } from '../projection';
import {
  date,
  enumText,
  idFromStream,
  intOrNull,
  ownStream,
  textOrNull,
  timestamp,
  type Event,
} from './shared';
import { derivedText } from '../../privacy/sealed-value';

export const EmployeeRecord = z
  .object({
    id: z.number().int(),
    employee_number: z.string().meta({ description: 'HR-EMP-00042' }),
    first_name: z.string(),
    last_name: z.string(),
    employee_name: z.string(),
    company_email: z.string(),
    designation: z.string(),
    department_id: z.number().int(),
    organization_id: z.number().int().meta({ description: 'The employing organisation' }),
    reports_to: intOrNull.meta({ description: 'Manager (employee id); also the leave approver' }),
    employment_type: enumText(EMPLOYMENT_TYPES),
    work_location: z.string(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2' }),
    date_of_joining: date,
    relieving_date: date.nullable().meta({ description: 'Last working day, once the employee has Left' }),
    status: enumText(EMPLOYEE_STATUSES),
    created: timestamp,
  })
  .meta({ id: 'Employee' });

export const LeaveApplicationRecord = z
  .object({
    id: z.number().int(),
    employee_id: z.number().int(),
    employee_name: z.string(),
    department_id: z.number().int(),
    leave_type: enumText(LEAVE_TYPES),
    from_date: date,
    to_date: date,
    half_day: z.boolean(),
    half_day_date: date.nullable(),
    total_days: z.number().meta({ description: 'Working days (Monday to Friday); a half day counts 0.5' }),
    description: textOrNull,
    status: enumText(LEAVE_STATUSES),
    next_statuses: z.array(enumText(LEAVE_STATUSES)).meta({
      description: 'The statuses a PATCH may move the application to now (empty: it is decided for good)',
    }),
    leave_approver_id: intOrNull.meta({ description: "The employee's manager when the leave was submitted" }),
    posting_date: date,
    approved_by: intOrNull,
    approved_on: timestamp.nullable(),
    rejected_by: intOrNull,
    rejected_on: timestamp.nullable(),
    decision_reason: textOrNull.meta({ description: 'Why the approver rejected it, when they said' }),
    cancelled_on: timestamp.nullable(),
    created: timestamp,
  })
  .meta({ id: 'LeaveApplication' });

export const AttendanceRecord = z
  .object({
    id: z.number().int(),
    employee_id: z.number().int(),
    employee_name: z.string(),
    department_id: z.number().int(),
    attendance_date: date,
    status: enumText(ATTENDANCE_STATUSES),
    in_time: timestamp.nullable(),
    out_time: timestamp.nullable(),
    working_hours: z.number().meta({ description: 'Hours from in_time to out_time, two decimals' }),
    late_entry: z.boolean(),
    early_exit: z.boolean(),
    created: timestamp,
  })
  .meta({ id: 'Attendance' });

export type EmployeeRecord = z.infer<typeof EmployeeRecord>;
export type LeaveApplicationRecord = z.infer<typeof LeaveApplicationRecord>;
export type AttendanceRecord = z.infer<typeof AttendanceRecord>;

export const employeesProjection: DocumentProjection<EmployeeRecord> = {
  collection: 'hrm.employees',
  handles: ['EmployeeJoined', 'EmployeeStatusChanged'],
  documentId: idFromStream,
  stream: ownStream('employee'),
  evolve(doc, stored) {
    const event = stored as Event;
    if (event.type === 'EmployeeJoined') {
      const { data } = event;
      return {
        ...data,
        employee_name: derivedText([data.first_name, data.last_name]),
        relieving_date: null,
        status: 'Active',
        created: stored.metadata.occurred_at,
      };
    }
    if (!doc || event.type !== 'EmployeeStatusChanged') return doc;
    return { ...doc, status: event.data.status, relieving_date: event.data.relieving_date };
  },
};

function evolveLeave(doc: LeaveApplicationRecord | null, stored: StoredEvent): LeaveApplicationRecord | null {
  const next = evolveLeaveFields(doc, stored as Event);
  return next && { ...next, next_statuses: [...LEAVE_TRANSITIONS[next.status as LeaveStatus]] };
}

function evolveLeaveFields(doc: LeaveApplicationRecord | null, event: Event): LeaveApplicationRecord | null {
  if (event.type === 'LeaveApplicationSubmitted') {
    return {
      ...event.data,
      status: 'Open',
      next_statuses: [],
      approved_by: null,
      approved_on: null,
      rejected_by: null,
      rejected_on: null,
      decision_reason: null,
      cancelled_on: null,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'LeaveApplicationApproved':
      return { ...doc, status: 'Approved', ...event.data };
    case 'LeaveApplicationRejected': {
      const { rejected_by, rejected_on, reason } = event.data;
      return { ...doc, status: 'Rejected', rejected_by, rejected_on, decision_reason: reason };
    }
    case 'LeaveApplicationCancelled':
      return { ...doc, status: 'Cancelled', ...event.data };
    default:
      return doc;
  }
}

export const leaveProjection: DocumentProjection<LeaveApplicationRecord> = {
  collection: 'hrm.leave',
  handles: [
    'LeaveApplicationSubmitted',
    'LeaveApplicationApproved',
    'LeaveApplicationRejected',
    'LeaveApplicationCancelled',
  ],
  documentId: idFromStream,
  stream: ownStream('leave'),
  evolve: evolveLeave,
};

export const attendanceProjection: DocumentProjection<AttendanceRecord> = {
  collection: 'hrm.attendance',
  handles: ['AttendanceRecorded'],
  documentId: idFromStream,
  stream: ownStream('attendance'),
  evolve: (_doc, stored) => ({ ...(stored as Extract<Event, { type: 'AttendanceRecorded' }>).data }),
};

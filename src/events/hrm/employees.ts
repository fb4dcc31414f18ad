import { z } from 'zod';
import { defineEvent, ownPersonalData } from '../catalog';
import { date, id, timestamp } from './fields';

export const EMPLOYEE_STATUSES = ['Active', 'Inactive', 'Suspended', 'Left'] as const;
export const EMPLOYMENT_TYPES = ['Full-time', 'Part-time', 'Contract', 'Intern'] as const;

export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

export const employeeEvents = [
  defineEvent(
    'EmployeeJoined',
    z.object({
      id,
      employee_number: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      company_email: z.string(),
      designation: z.string(),
      department_id: id,
      organization_id: id,
      reports_to: id.nullable(),
      employment_type: z.enum(EMPLOYMENT_TYPES),
      work_location: z.string(),
      country: z.string().length(2),
      date_of_joining: date,
    }),
    { personal: ownPersonalData('first_name', 'last_name', 'company_email') },
  ),
  defineEvent(
    'EmployeeStatusChanged',
    z.object({
      status: z.enum(EMPLOYEE_STATUSES),
      changed_on: timestamp,
      /** Last working day; set when the status is Left. */
      relieving_date: date.nullable(),
      reason: z.string().nullable(),
    }),
    { personal: ownPersonalData('reason') },
  ),
] as const;

import type { EventsOf } from '../catalog';
import { attendanceEvents } from './attendance';
import { calendarEvents } from './calendar';
import { employeeEvents } from './employees';
import { leaveEvents } from './leave';
import { organisationEvents } from './organisation';
import { recruitmentEvents } from './recruitment';

// Each file holds its events with their statuses and vocabularies (after Frappe HRMS where it has
// one; see docs/api/hrm.md).
export { ATTENDANCE_STATUSES, type AttendanceStatus } from './attendance';
export { EMPLOYEE_STATUSES, EMPLOYMENT_TYPES, type EmployeeStatus, type EmploymentType } from './employees';
export { LEAVE_STATUSES, LEAVE_TRANSITIONS, LEAVE_TYPES, type LeaveStatus, type LeaveType } from './leave';
export {
  BRAND_STATUSES,
  CAREER_SITE_STATUSES,
  DEPARTMENT_STATUSES,
  ORGANIZATION_STATUSES,
  TEAM_STATUSES,
} from './organisation';
export {
  APPLICATION_STAGES,
  APPLICATION_STATUSES,
  CANDIDATE_SOURCES,
  CANDIDATE_STATUSES,
  DISTRIBUTION_STATUSES,
  EXTRACTION_SOURCES,
  JOB_STATUSES,
  REMOTE_POLICIES,
  type ApplicationStage,
  type ApplicationStatus,
} from './recruitment';
export { hrmCategories, hrmStream, type HrmCategory } from './streams';

/** The HR module's events, in the order of its catalog. */
export const hrmEvents = [
  ...organisationEvents,
  ...employeeEvents,
  ...calendarEvents,
  ...leaveEvents,
  ...attendanceEvents,
  ...recruitmentEvents,
] as const;

export type HrmEvent = EventsOf<typeof hrmEvents>;
export type HrmEventOf<Type extends HrmEvent['type']> = Extract<HrmEvent, { type: Type }>;

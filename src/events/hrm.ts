import { z } from 'zod';
import { defineEvent, ownPersonalData, type EventsOf } from './catalog';

const id = z.number().int().positive();
const timestamp = z.string();
const date = z.string().meta({ description: 'YYYY-MM-DD' });

/** Calendar entries as they were before they named their record (v1). */
const leaveDays = z.object({
  from_date: date,
  to_date: date,
  half_day_date: date.nullable(),
  total_days: z.number().positive().multipleOf(0.5),
});
const attendanceDay = z.object({ attendance_date: date });

// Statuses and vocabularies (after Frappe HRMS where it has one; see docs/api/hrm.md).
export const ORGANIZATION_STATUSES = ['Active', 'Inactive'] as const;
export const BRAND_STATUSES = ['Active', 'Inactive'] as const;
export const CAREER_SITE_STATUSES = ['Draft', 'Published', 'Unpublished'] as const;
export const DEPARTMENT_STATUSES = ['Active', 'Disabled'] as const;
export const TEAM_STATUSES = ['Active', 'Inactive'] as const;
export const EMPLOYEE_STATUSES = ['Active', 'Inactive', 'Suspended', 'Left'] as const;
export const EMPLOYMENT_TYPES = ['Full-time', 'Part-time', 'Contract', 'Intern'] as const;
export const LEAVE_STATUSES = ['Open', 'Approved', 'Rejected', 'Cancelled'] as const;
export const LEAVE_TYPES = [
  'Annual Leave',
  'Sick Leave',
  'Casual Leave',
  'Compensatory Off',
  'Leave Without Pay',
  'Parental Leave',
] as const;
export const ATTENDANCE_STATUSES = ['Present', 'Absent', 'On Leave', 'Half Day', 'Work From Home'] as const;
export const JOB_STATUSES = ['Open', 'Closed'] as const;
export const REMOTE_POLICIES = ['On-site', 'Hybrid', 'Remote'] as const;
export const DISTRIBUTION_STATUSES = ['Live', 'Expired', 'Withdrawn'] as const;
export const CANDIDATE_STATUSES = ['Active', 'Hired', 'Archived'] as const;
export const CANDIDATE_SOURCES = [
  'Career Site',
  'LinkedIn',
  'Referral',
  'Job Board',
  'Agency',
  'Campus',
] as const;
export const EXTRACTION_SOURCES = ['cv_pdf', 'cv_docx', 'linkedin_profile'] as const;
export const APPLICATION_STATUSES = ['Open', 'Replied', 'Hold', 'Rejected', 'Accepted'] as const;
export const APPLICATION_STAGES = ['Applied', 'Screening', 'Interview', 'Offer', 'Hired'] as const;

export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
export type LeaveStatus = (typeof LEAVE_STATUSES)[number];
export type LeaveType = (typeof LEAVE_TYPES)[number];
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export type ApplicationStage = (typeof APPLICATION_STAGES)[number];

const statusChange = <const Statuses extends readonly [string, ...string[]]>(statuses: Statuses) =>
  z.object({ status: z.enum(statuses), changed_on: timestamp });

const applicationRejected = z.object({ rejected_on: timestamp, reason: z.string() });

export const hrmEvents = [
  defineEvent(
    'OrganizationAdded',
    z.object({
      id,
      name: z.string(),
      legal_name: z.string(),
      country: z.string().length(2),
      industry: z.string(),
      website: z.string(),
      headquarters_city: z.string(),
      default_language: z.string(),
      default_currency: z.string().length(3),
      timezone: z.string(),
      date_format: z.string(),
    }),
  ),
  defineEvent('OrganizationStatusChanged', statusChange(ORGANIZATION_STATUSES)),
  defineEvent(
    'BrandAdded',
    z.object({
      id,
      organization_id: id,
      name: z.string(),
      domain: z.string(),
      primary_color: z.string(),
      secondary_color: z.string(),
      logo_url: z.string(),
      tagline: z.string().nullable(),
    }),
  ),
  defineEvent('BrandStatusChanged', statusChange(BRAND_STATUSES)),
  defineEvent(
    'CareerSiteAdded',
    z.object({
      id,
      organization_id: id,
      brand_id: id,
      name: z.string(),
      url: z.string(),
      default_locale: z.string(),
      locales: z.array(z.string()).min(1),
    }),
  ),
  defineEvent('CareerSiteStatusChanged', statusChange(CAREER_SITE_STATUSES)),
  defineEvent(
    'DepartmentAdded',
    z.object({
      id,
      name: z.string(),
      code: z.string(),
      parent_department_id: id.nullable(),
      cost_center: z.string(),
    }),
  ),
  defineEvent('DepartmentStatusChanged', statusChange(DEPARTMENT_STATUSES)),
  defineEvent(
    'OrganizationTeamAdded',
    z.object({
      id,
      organization_id: id,
      department_id: id,
      country: z.string().length(2),
      name: z.string(),
      lead_employee_id: id,
      member_ids: z.array(id),
    }),
  ),
  defineEvent('OrganizationTeamStatusChanged', statusChange(TEAM_STATUSES)),
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
  /**
   * An employee's calendar (`hrm.calendar-<employee id>`) holds the days their leave and attendance
   * claim: it is where overlapping leave and a second attendance record for a day are refused. Since
   * v2 a booking names the application it is for (`leave_id`), which is appended after it: the booking
   * holds its days only while that application does (see `calendar-holds.ts`). `null`: booked before
   * bookings named their application, by a store that appended both at once.
   */
  defineEvent('LeaveDaysBooked', z.object({ ...leaveDays.shape, leave_id: id.nullable() }), {
    version: 2,
    upcasters: [
      {
        from: 1,
        schema: leaveDays,
        upcast: (data) => ({ ...(data as z.infer<typeof leaveDays>), leave_id: null }),
      },
    ],
  }),
  /**
   * Days given back: by rejected or cancelled leave, or by a booking whose application was never
   * recorded. Active bookings never overlap, so the dates name one.
   */
  defineEvent('LeaveDaysReleased', z.object({ from_date: date, to_date: date })),
  /** Since v2 the claim names its attendance record (`attendance_id`), as a booking names its leave. */
  defineEvent('AttendanceDayClaimed', z.object({ attendance_date: date, attendance_id: id.nullable() }), {
    version: 2,
    upcasters: [
      {
        from: 1,
        schema: attendanceDay,
        upcast: (data) => ({ ...(data as z.infer<typeof attendanceDay>), attendance_id: null }),
      },
    ],
  }),
  /** A claim whose attendance record was never recorded gives its day back. */
  defineEvent('AttendanceDayReleased', attendanceDay),
  /**
   * A leave or attendance number that holds no record and never will: its calendar entry was appended
   * and the record was not (a write to several streams cut short). Appended where the record would have
   * been, so the record can no longer be appended there; its calendar entry is then released.
   */
  defineEvent('LeaveNumberVoided', z.object({ id })),
  defineEvent('AttendanceNumberVoided', z.object({ id })),
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
  defineEvent(
    'JobOpened',
    z.object({
      id,
      title: z.string(),
      designation: z.string(),
      department_id: id,
      organization_id: id,
      brand_id: id,
      team_id: id.nullable(),
      hiring_manager_id: id,
      recruiter_id: id.nullable(),
      location: z.string(),
      country: z.string().length(2),
      employment_type: z.enum(EMPLOYMENT_TYPES),
      remote_policy: z.enum(REMOTE_POLICIES),
      vacancies: z.number().int().positive(),
      salary_min: z.number().int().nonnegative(),
      salary_max: z.number().int().nonnegative(),
      salary_currency: z.string().length(3),
      salary_period: z.enum(['Year', 'Month', 'Hour']),
      description: z.string(),
      posted_on: date,
      closes_on: date.nullable(),
    }),
  ),
  defineEvent('JobStatusChanged', statusChange(JOB_STATUSES)),
  defineEvent(
    'JobDistributed',
    z.object({
      id,
      job_id: id,
      career_site_id: id,
      brand_id: id,
      locale: z.string(),
      localized_title: z.string(),
      url: z.string(),
      published_on: timestamp,
      expires_on: date.nullable(),
    }),
  ),
  defineEvent('JobDistributionStatusChanged', statusChange(DISTRIBUTION_STATUSES)),
  defineEvent(
    'CandidateAdded',
    z.object({
      id,
      first_name: z.string(),
      last_name: z.string(),
      email: z.string(),
      location: z.string(),
      country: z.string().length(2),
      headline: z.string(),
      current_employer: z.string().nullable(),
      source: z.enum(CANDIDATE_SOURCES),
      skills: z.array(z.string()),
      years_of_experience: z.number().nonnegative(),
      education: z.array(
        z.object({
          degree: z.string(),
          field: z.string(),
          institution: z.string(),
          graduation_year: z.number().int(),
        }),
      ),
      languages: z.array(z.object({ language: z.string(), proficiency: z.string() })),
      extraction: z.object({
        source: z.enum(EXTRACTION_SOURCES),
        confidence: z.number().min(0).max(1),
        extracted_on: timestamp,
      }),
    }),
    {
      personal: ownPersonalData(
        'first_name',
        'last_name',
        'email',
        'location',
        'headline',
        'current_employer',
        'skills[]',
        'education[].degree',
        'education[].field',
        'education[].institution',
        'languages[].language',
        'languages[].proficiency',
      ),
    },
  ),
  defineEvent('CandidateStatusChanged', statusChange(CANDIDATE_STATUSES)),
  defineEvent(
    'ApplicationReceived',
    z.object({
      id,
      candidate_id: id,
      candidate_name: z.string(),
      job_id: id,
      job_title: z.string(),
      source: z.enum(CANDIDATE_SOURCES),
      job_distribution_id: id.nullable(),
      applied_on: timestamp,
    }),
    {
      personal: [{ subject: ({ data }) => `hrm.candidate-${data.candidate_id}`, fields: ['candidate_name'] }],
    },
  ),
  defineEvent(
    'ApplicationAdvanced',
    z.object({ stage: z.enum(APPLICATION_STAGES).exclude(['Applied', 'Hired']), advanced_on: timestamp }),
  ),
  defineEvent('ApplicationHeld', z.object({ held_on: timestamp })),
  /** The data names no candidate: the reason is keyed to the application, the candidate's own record. */
  /**
   * Since v2 a rejection names the candidate (`candidate_id`), whose data its reason is; `null`:
   * rejected before, its reason keyed to the application, the candidate's record of applying.
   */
  defineEvent('ApplicationRejected', applicationRejected.extend({ candidate_id: id.nullable() }), {
    version: 2,
    upcasters: [
      {
        from: 1,
        schema: applicationRejected,
        upcast: (data) => ({ ...(data as z.infer<typeof applicationRejected>), candidate_id: null }),
      },
    ],
    personal: [
      {
        subject: ({ stream, data }) => (data.candidate_id ? `hrm.candidate-${data.candidate_id}` : stream),
        fields: ['reason'],
      },
    ],
  }),
  defineEvent('ApplicationAccepted', z.object({ accepted_on: timestamp })),
] as const;

export type HrmEvent = EventsOf<typeof hrmEvents>;
export type HrmEventOf<Type extends HrmEvent['type']> = Extract<HrmEvent, { type: Type }>;

/**
 * Stream categories. A category never contains a dash: the number after the dash is the entity id.
 * `calendar` streams are numbered by employee id.
 */
export const hrmCategories = {
  organization: 'hrm.organization',
  brand: 'hrm.brand',
  careerSite: 'hrm.careersite',
  department: 'hrm.department',
  team: 'hrm.team',
  employee: 'hrm.employee',
  calendar: 'hrm.calendar',
  leave: 'hrm.leave',
  attendance: 'hrm.attendance',
  job: 'hrm.job',
  distribution: 'hrm.distribution',
  candidate: 'hrm.candidate',
  application: 'hrm.application',
} as const;

export type HrmCategory = keyof typeof hrmCategories;

export const hrmStream = (category: HrmCategory, entityId: number) =>
  `${hrmCategories[category]}-${entityId}`;

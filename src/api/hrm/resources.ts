import type { z } from 'zod';
import {
  APPLICATION_STAGES,
  APPLICATION_STATUSES,
  ATTENDANCE_STATUSES,
  BRAND_STATUSES,
  CANDIDATE_SOURCES,
  CANDIDATE_STATUSES,
  CAREER_SITE_STATUSES,
  DEPARTMENT_STATUSES,
  DISTRIBUTION_STATUSES,
  EMPLOYEE_STATUSES,
  EMPLOYMENT_TYPES,
  JOB_STATUSES,
  LEAVE_STATUSES,
  LEAVE_TYPES,
  ORGANIZATION_STATUSES,
  REMOTE_POLICIES,
  TEAM_STATUSES,
} from '../../events/hrm';
import {
  ApplicationRecord,
  AttendanceRecord,
  BrandRecord,
  CandidateRecord,
  CareerSiteRecord,
  DepartmentRecord,
  EmployeeRecord,
  JobDistributionRecord,
  JobRecord,
  LeaveApplicationRecord,
  OrganizationRecord,
  OrganizationTeamRecord,
} from '../../projections/hrm';
import type { FilterDefinition, ResourceDefinition } from '../kit/module';
import { integerParameter } from '../kit/validation';
import { filterFields, filters } from './parameters';

/** An HR resource: every record is an integer-keyed document of its collection. */
function resource(definition: {
  path: string;
  name: string;
  description: string;
  record: z.ZodObject;
  collection: string;
  searchFields: readonly string[];
  filters: Readonly<Record<string, FilterDefinition>>;
  derived?: readonly string[];
}): ResourceDefinition {
  return {
    path: definition.path,
    name: definition.name,
    description: definition.description,
    record: definition.record,
    collection: {
      name: definition.collection,
      idKind: 'integer',
      searchFields: definition.searchFields,
      filterFields: filterFields(definition.filters),
    },
    filters: definition.filters,
    ...(definition.derived && { derived: definition.derived }),
  };
}

export const employees = resource({
  path: 'employees',
  name: 'Employee',
  description: 'employees: master records and employment state',
  record: EmployeeRecord,
  collection: 'hrm.employees',
  searchFields: ['employee_number', 'employee_name', 'company_email', 'designation', 'work_location'],
  filters: {
    status: filters.status(EMPLOYEE_STATUSES),
    department_id: filters.id('department_id', 'Department'),
    organization_id: filters.id('organization_id', 'Employing organisation'),
    reports_to: filters.id('reports_to', 'Manager (employee id): the direct reports'),
    employment_type: filters.oneOf('employment_type', EMPLOYMENT_TYPES, 'Employment type'),
    country: filters.country(),
  },
});

export const departments = resource({
  path: 'departments',
  name: 'Department',
  description: 'departments',
  record: DepartmentRecord,
  collection: 'hrm.departments',
  searchFields: ['name', 'code', 'cost_center'],
  filters: {
    status: filters.status(DEPARTMENT_STATUSES),
    parent_department_id: filters.id('parent_department_id', 'Parent department'),
  },
});

export const leave = resource({
  path: 'leave',
  name: 'Leave application',
  description: 'leave applications and their approval status',
  record: LeaveApplicationRecord,
  collection: 'hrm.leave',
  derived: ['next_statuses'],
  searchFields: ['employee_name', 'leave_type', 'description'],
  filters: {
    status: filters.status(LEAVE_STATUSES),
    employee_id: filters.id('employee_id', 'Employee'),
    department_id: filters.id('department_id', "Employee's department"),
    leave_type: filters.oneOf('leave_type', LEAVE_TYPES, 'Leave type'),
    from: filters.from('to_date', 'Leave that ends on or after this date'),
    to: filters.to('from_date', 'Leave that starts on or before this date'),
  },
});

export const attendance = resource({
  path: 'attendance',
  name: 'Attendance',
  description: 'daily attendance and recorded hours',
  record: AttendanceRecord,
  collection: 'hrm.attendance',
  searchFields: ['employee_name', 'attendance_date'],
  filters: {
    status: filters.status(ATTENDANCE_STATUSES),
    employee_id: filters.id('employee_id', 'Employee'),
    department_id: filters.id('department_id', "Employee's department"),
    from: filters.from('attendance_date', 'Attendance on or after this date'),
    to: filters.to('attendance_date', 'Attendance on or before this date'),
  },
});

export const jobs = resource({
  path: 'jobs',
  name: 'Job opening',
  description: 'job openings (requisitions) and hiring state',
  record: JobRecord,
  collection: 'hrm.jobs',
  searchFields: ['title', 'designation', 'location', 'description'],
  filters: {
    status: filters.status(JOB_STATUSES),
    department_id: filters.id('department_id', 'Department'),
    organization_id: filters.id('organization_id', 'Hiring organisation'),
    brand_id: filters.id('brand_id', 'Brand'),
    team_id: filters.id('team_id', 'Recruiting team'),
    employment_type: filters.oneOf('employment_type', EMPLOYMENT_TYPES, 'Employment type'),
    remote_policy: filters.oneOf('remote_policy', REMOTE_POLICIES, 'Remote policy'),
    country: filters.country(),
  },
});

export const candidates = resource({
  path: 'candidates',
  name: 'Candidate',
  description: 'candidate profiles with the fields extracted from their CVs',
  record: CandidateRecord,
  collection: 'hrm.candidates',
  searchFields: ['full_name', 'email', 'headline', 'current_employer', 'location', 'skills'],
  filters: {
    status: filters.status(CANDIDATE_STATUSES),
    source: filters.oneOf('source', CANDIDATE_SOURCES, 'Where the candidate came from'),
    country: filters.country(),
    min_experience: {
      field: 'years_of_experience',
      op: 'gte',
      schema: integerParameter(),
      description: 'At least this many years of experience',
    },
  },
});

export const applications = resource({
  path: 'applications',
  name: 'Application',
  description: 'job applications and their pipeline stage',
  record: ApplicationRecord,
  collection: 'hrm.applications',
  searchFields: ['candidate_name', 'job_title', 'rejection_reason'],
  filters: {
    status: filters.status(APPLICATION_STATUSES),
    stage: filters.oneOf('stage', APPLICATION_STAGES, 'Pipeline stage'),
    job_id: filters.id('job_id', 'Job opening'),
    candidate_id: filters.id('candidate_id', 'Candidate'),
    source: filters.oneOf('source', CANDIDATE_SOURCES, 'Where the application came from'),
  },
});

export const organizations = resource({
  path: 'organizations',
  name: 'Organization',
  description: 'recruitment organisations (employing entities) and their locale defaults',
  record: OrganizationRecord,
  collection: 'hrm.organizations',
  searchFields: ['name', 'legal_name', 'industry', 'headquarters_city'],
  filters: {
    status: filters.status(ORGANIZATION_STATUSES),
    country: filters.country(),
  },
});

export const brands = resource({
  path: 'brands',
  name: 'Brand',
  description: 'employer brands: domain and visual identity',
  record: BrandRecord,
  collection: 'hrm.brands',
  searchFields: ['name', 'domain', 'tagline'],
  filters: {
    status: filters.status(BRAND_STATUSES),
    organization_id: filters.id('organization_id', 'Owning organisation'),
  },
});

export const careerSites = resource({
  path: 'career-sites',
  name: 'Career site',
  description: 'candidate-facing career sites',
  record: CareerSiteRecord,
  collection: 'hrm.career_sites',
  searchFields: ['name', 'url'],
  filters: {
    status: filters.status(CAREER_SITE_STATUSES),
    organization_id: filters.id('organization_id', 'Owning organisation'),
    brand_id: filters.id('brand_id', 'Brand'),
  },
});

export const teams = resource({
  path: 'organization-teams',
  name: 'Organization team',
  description: 'recruiting teams, scoped to a country and a department',
  record: OrganizationTeamRecord,
  collection: 'hrm.organization_teams',
  searchFields: ['name'],
  filters: {
    status: filters.status(TEAM_STATUSES),
    organization_id: filters.id('organization_id', 'Organisation'),
    department_id: filters.id('department_id', 'Department'),
    country: filters.country(),
  },
});

export const distributions = resource({
  path: 'job-distributions',
  name: 'Job distribution',
  description: 'localised job placements on career sites',
  record: JobDistributionRecord,
  collection: 'hrm.job_distributions',
  searchFields: ['localized_title', 'url'],
  filters: {
    status: filters.status(DISTRIBUTION_STATUSES),
    job_id: filters.id('job_id', 'Job opening'),
    career_site_id: filters.id('career_site_id', 'Career site'),
    brand_id: filters.id('brand_id', 'Brand'),
    locale: filters.locale(),
  },
});

export const HRM_RESOURCES: readonly ResourceDefinition[] = [
  employees,
  departments,
  leave,
  attendance,
  jobs,
  candidates,
  applications,
  organizations,
  brands,
  careerSites,
  teams,
  distributions,
];

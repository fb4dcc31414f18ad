import { z } from 'zod';
import { defineEvent, ownPersonalData } from '../catalog';
import { EMPLOYMENT_TYPES } from './employees';
import { date, id, statusChange, timestamp } from './fields';

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

export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export type ApplicationStage = (typeof APPLICATION_STAGES)[number];

const applicationRejected = z.object({ rejected_on: timestamp, reason: z.string() });

/** Jobs and where they are published, candidates and their applications. */
export const recruitmentEvents = [
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

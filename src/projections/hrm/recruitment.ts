import { z } from 'zod';
import type { StoredEvent } from '../../events/envelope';
import {
  APPLICATION_STAGES,
  APPLICATION_STATUSES,
  CANDIDATE_SOURCES,
  CANDIDATE_STATUSES,
  DISTRIBUTION_STATUSES,
  EMPLOYMENT_TYPES,
  EXTRACTION_SOURCES,
  JOB_STATUSES,
  REMOTE_POLICIES,
} from '../../events/hrm';
import type { DocumentProjection } from '../projection';
import {
  date,
  enumText,
  idFromStream,
  intOrNull,
  lifecycleProjection,
  ownStream,
  textOrNull,
  timestamp,
  type Event,
} from './shared';
import { derivedText } from '../../privacy/sealed-value';

export const JobRecord = z
  .object({
    id: z.number().int(),
    title: z.string(),
    designation: z.string(),
    department_id: z.number().int(),
    organization_id: z.number().int().meta({ description: 'The hiring organisation' }),
    brand_id: z.number().int().meta({ description: 'The brand the job is advertised under' }),
    team_id: intOrNull.meta({ description: 'The recruiting team (organization-teams)' }),
    hiring_manager_id: z.number().int(),
    recruiter_id: intOrNull,
    location: z.string(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2' }),
    employment_type: enumText(EMPLOYMENT_TYPES),
    remote_policy: enumText(REMOTE_POLICIES),
    vacancies: z.number().int(),
    salary_min: z.number().int(),
    salary_max: z.number().int(),
    salary_currency: z.string().meta({ description: 'ISO 4217' }),
    salary_period: enumText(['Year', 'Month', 'Hour']),
    description: z.string(),
    posted_on: date,
    closes_on: date.nullable(),
    closed_on: date.nullable(),
    status: enumText(JOB_STATUSES),
    created: timestamp,
  })
  .meta({ id: 'JobOpening' });

export const JobDistributionRecord = z
  .object({
    id: z.number().int(),
    job_id: z.number().int(),
    career_site_id: z.number().int(),
    brand_id: z.number().int(),
    locale: z.string().meta({ description: 'BCP 47, one of the career site locales' }),
    localized_title: z.string().meta({ description: 'The job title in the locale' }),
    url: z.string(),
    published_on: timestamp,
    expires_on: date.nullable(),
    ended_on: timestamp.nullable().meta({ description: 'When the placement expired or was withdrawn' }),
    status: enumText(DISTRIBUTION_STATUSES),
    created: timestamp,
  })
  .meta({ id: 'JobDistribution' });

export const CandidateRecord = z
  .object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    full_name: z.string(),
    email: z.string(),
    location: z.string(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2' }),
    headline: z.string().meta({ description: 'Current or most recent role' }),
    current_employer: textOrNull,
    source: enumText(CANDIDATE_SOURCES),
    skills: z.array(z.string()).meta({ description: 'Extracted from the CV' }),
    years_of_experience: z.number().meta({ description: 'Extracted from the CV' }),
    education: z.array(
      z.object({
        degree: z.string(),
        field: z.string(),
        institution: z.string(),
        graduation_year: z.number().int(),
      }),
    ),
    languages: z.array(
      z.object({
        language: z.string().meta({ description: 'ISO 639-1' }),
        proficiency: z.string().meta({ description: 'Native or a CEFR level (A1..C2)' }),
      }),
    ),
    extraction: z
      .object({
        source: enumText(EXTRACTION_SOURCES),
        confidence: z.number().meta({ description: 'Parser confidence, 0 to 1' }),
        extracted_on: timestamp,
      })
      .meta({ description: 'Where the extracted fields come from' }),
    status: enumText(CANDIDATE_STATUSES),
    created: timestamp,
  })
  .meta({ id: 'Candidate' });

export const ApplicationRecord = z
  .object({
    id: z.number().int(),
    candidate_id: z.number().int(),
    candidate_name: z.string(),
    job_id: z.number().int(),
    job_title: z.string(),
    source: enumText(CANDIDATE_SOURCES),
    job_distribution_id: intOrNull.meta({ description: 'The placement the candidate applied through' }),
    stage: enumText(APPLICATION_STAGES),
    status: enumText(APPLICATION_STATUSES),
    applied_on: timestamp,
    last_activity_on: timestamp,
    rejected_on: timestamp.nullable(),
    rejection_reason: textOrNull,
    accepted_on: timestamp.nullable(),
  })
  .meta({ id: 'JobApplication' });

export type JobRecord = z.infer<typeof JobRecord>;
export type JobDistributionRecord = z.infer<typeof JobDistributionRecord>;
export type CandidateRecord = z.infer<typeof CandidateRecord>;
export type ApplicationRecord = z.infer<typeof ApplicationRecord>;

export const jobsProjection = lifecycleProjection<JobRecord, 'JobOpened'>({
  collection: 'hrm.jobs',
  category: 'job',
  added: 'JobOpened',
  changed: 'JobStatusChanged',
  build: (data, created) => ({ ...data, closed_on: null, status: 'Open', created }),
  onStatus: (_doc, change) => ({
    closed_on: change.status === 'Closed' ? change.changed_on.slice(0, 10) : null,
  }),
});

export const distributionsProjection = lifecycleProjection<JobDistributionRecord, 'JobDistributed'>({
  collection: 'hrm.job_distributions',
  category: 'distribution',
  added: 'JobDistributed',
  changed: 'JobDistributionStatusChanged',
  build: (data, created) => ({ ...data, ended_on: null, status: 'Live', created }),
  onStatus: (_doc, change) => ({ ended_on: change.status === 'Live' ? null : change.changed_on }),
});

export const candidatesProjection = lifecycleProjection<CandidateRecord, 'CandidateAdded'>({
  collection: 'hrm.candidates',
  category: 'candidate',
  added: 'CandidateAdded',
  changed: 'CandidateStatusChanged',
  build: (data, created) => ({
    ...data,
    full_name: derivedText([data.first_name, data.last_name]),
    status: 'Active',
    created,
  }),
});

function evolveApplication(doc: ApplicationRecord | null, stored: StoredEvent): ApplicationRecord | null {
  const event = stored as Event;
  if (event.type === 'ApplicationReceived') {
    return {
      ...event.data,
      stage: 'Applied',
      status: 'Open',
      last_activity_on: event.data.applied_on,
      rejected_on: null,
      rejection_reason: null,
      accepted_on: null,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'ApplicationAdvanced':
      return { ...doc, stage: event.data.stage, status: 'Replied', last_activity_on: event.data.advanced_on };
    case 'ApplicationHeld':
      return { ...doc, status: 'Hold', last_activity_on: event.data.held_on };
    case 'ApplicationRejected': {
      const { rejected_on, reason } = event.data;
      return {
        ...doc,
        status: 'Rejected',
        rejected_on,
        rejection_reason: reason,
        last_activity_on: rejected_on,
      };
    }
    case 'ApplicationAccepted': {
      const { accepted_on } = event.data;
      return { ...doc, stage: 'Hired', status: 'Accepted', accepted_on, last_activity_on: accepted_on };
    }
    default:
      return doc;
  }
}

export const applicationsProjection: DocumentProjection<ApplicationRecord> = {
  collection: 'hrm.applications',
  handles: [
    'ApplicationReceived',
    'ApplicationAdvanced',
    'ApplicationHeld',
    'ApplicationRejected',
    'ApplicationAccepted',
  ],
  documentId: idFromStream,
  stream: ownStream('application'),
  evolve: evolveApplication,
};

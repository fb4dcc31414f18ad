import { z } from 'zod';
import { defineEvent, type EventsOf } from './catalog';

const id = z.number().int().positive();
const timestamp = z.string();
const date = z.string().meta({ description: 'YYYY-MM-DD' });

export const PROJECT_TYPES = ['Programme', 'Project', 'Workstream'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];
export const PROJECT_STATUSES = [
  'Proposed',
  'Approved',
  'Active',
  'On Hold',
  'Completed',
  'Cancelled',
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
/** RAG status, as portfolio reports show it. */
export const PROJECT_HEALTH = ['Green', 'Amber', 'Red'] as const;
export const PROJECT_PRIORITIES = ['Low', 'Medium', 'High', 'Critical'] as const;

export const MILESTONE_STATUSES = [
  'Not Started',
  'In Progress',
  'At Risk',
  'Completed',
  'Cancelled',
] as const;
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

export const RISK_CATEGORIES = [
  'Schedule',
  'Cost',
  'Scope',
  'Resource',
  'Technical',
  'Vendor',
  'Compliance',
  'Security',
] as const;
export const RISK_STATUSES = ['Open', 'Mitigating', 'Accepted', 'Closed'] as const;
/** Rating bands of the 5 x 5 matrix: score 1-4 Low, 5-9 Medium, 10-15 High, 16-25 Critical. */
export const RISK_RATINGS = ['Low', 'Medium', 'High', 'Critical'] as const;
export type RiskRating = (typeof RISK_RATINGS)[number];

export const DOCUMENT_TYPES = [
  'Business Case',
  'Project Charter',
  'Statement of Work',
  'Requirements Specification',
  'Status Report',
  'Steering Committee Minutes',
  'Risk Register',
  'Test Plan',
  'Change Request',
] as const;
export const DOCUMENT_SOURCES = ['Upload', 'SharePoint', 'Email'] as const;
/** Extraction state of a source document. */
export const DOCUMENT_STATUSES = ['Queued', 'Processing', 'Extracted', 'Needs Review', 'Failed'] as const;

/**
 * No personal data is declared here: owners, sponsors and uploaders are staff named in their business
 * role, and projects, risks and documents are business records (see docs/PERSONAL-DATA.md).
 */
export const ppmEvents = [
  defineEvent(
    'ProjectAdded',
    z.object({
      id,
      code: z.string(),
      name: z.string(),
      type: z.enum(PROJECT_TYPES),
      parent_id: id.nullable(),
      status: z.enum(PROJECT_STATUSES),
      health: z.enum(PROJECT_HEALTH).nullable(),
      priority: z.enum(PROJECT_PRIORITIES),
      description: z.string(),
      owner: z.string(),
      sponsor: z.string().nullable(),
      start_date: date,
      end_date: date,
      budget: z.number().nonnegative(),
      currency: z.string().length(3),
    }),
  ),
  defineEvent(
    'ProjectStatusChanged',
    z.object({ from: z.enum(PROJECT_STATUSES), to: z.enum(PROJECT_STATUSES), changed_on: timestamp }),
  ),
  defineEvent(
    'MilestoneAdded',
    z.object({
      id,
      project_id: id,
      name: z.string(),
      description: z.string().nullable(),
      owner: z.string(),
      due_date: date,
      depends_on: z.array(id),
      status: z.enum(MILESTONE_STATUSES),
      progress: z.number().int().min(0).max(100),
      completed_on: date.nullable(),
    }),
  ),
  defineEvent(
    'MilestoneProgressReported',
    z.object({ progress: z.number().int().min(0).max(100), reported_on: timestamp }),
  ),
  defineEvent(
    'MilestoneStatusChanged',
    z.object({ from: z.enum(MILESTONE_STATUSES), to: z.enum(MILESTONE_STATUSES), changed_on: timestamp }),
  ),
  defineEvent(
    'RiskIdentified',
    z.object({
      id,
      ref: z.string(),
      project_id: id,
      title: z.string(),
      description: z.string(),
      category: z.enum(RISK_CATEGORIES),
      probability: z.number().int().min(1).max(5),
      impact: z.number().int().min(1).max(5),
      score: z.number().int().min(1).max(25),
      rating: z.enum(RISK_RATINGS),
      status: z.enum(RISK_STATUSES),
      mitigation: z.string().nullable(),
      owner: z.string(),
      identified_on: date,
      review_date: date.nullable(),
    }),
  ),
  defineEvent(
    'DocumentRegistered',
    z.object({
      id,
      project_id: id,
      title: z.string(),
      document_type: z.enum(DOCUMENT_TYPES),
      file_name: z.string(),
      mime_type: z.string(),
      size_bytes: z.number().int().positive(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      page_count: z.number().int().positive().nullable(),
      source: z.enum(DOCUMENT_SOURCES),
      uploaded_by: z.string(),
      uploaded_at: timestamp,
      status: z.enum(DOCUMENT_STATUSES),
      extracted_at: timestamp.nullable(),
      extracted_fields: z.record(z.string(), z.string()),
      confidence: z.number().min(0).max(1).nullable(),
      extraction_error: z.string().nullable(),
    }),
  ),
] as const;

export type PpmEvent = EventsOf<typeof ppmEvents>;
export type PpmEventOf<Type extends PpmEvent['type']> = Extract<PpmEvent, { type: Type }>;

export const ppmStreams = {
  project: (projectId: number) => `ppm.project-${projectId}`,
  milestone: (milestoneId: number) => `ppm.milestone-${milestoneId}`,
  risk: (riskId: number) => `ppm.risk-${riskId}`,
  document: (documentId: number) => `ppm.document-${documentId}`,
};

export const ppmCategories = {
  project: 'ppm.project',
  milestone: 'ppm.milestone',
  risk: 'ppm.risk',
  document: 'ppm.document',
} as const;

import { z } from 'zod';
import type { StoredEvent } from '../events/envelope';
import {
  DOCUMENT_SOURCES,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  MILESTONE_STATUSES,
  PROJECT_HEALTH,
  PROJECT_PRIORITIES,
  PROJECT_STATUSES,
  PROJECT_TYPES,
  RISK_CATEGORIES,
  RISK_RATINGS,
  RISK_STATUSES,
  type PpmEvent,
  ppmStreams,
} from '../events/ppm';
import { id, idOrNull, text, textOrNull, oneOf, date, timestamp } from './fields';
import { createdByOf, idFromStream, type DocumentProjection, type Projector } from './projection';

export const ProjectRecord = z
  .object({
    id,
    code: text.meta({ description: 'PRG-01, PRJ-0012, WS-0123' }),
    name: text,
    type: oneOf(PROJECT_TYPES, 'Level in the hierarchy: programme > project > workstream'),
    parent_id: idOrNull.meta({ description: 'The programme of a project, the project of a workstream' }),
    status: oneOf(PROJECT_STATUSES),
    health: oneOf(PROJECT_HEALTH, 'RAG status; null once Completed or Cancelled').nullable(),
    priority: oneOf(PROJECT_PRIORITIES),
    description: text,
    owner: text,
    sponsor: textOrNull,
    start_date: date,
    end_date: date,
    budget: z.number().meta({ description: 'Approved budget in `currency`' }),
    currency: text,
    created_at: timestamp,
  })
  .meta({ id: 'Project' });

export const MilestoneRecord = z
  .object({
    id,
    project_id: id,
    name: text,
    description: textOrNull,
    owner: text,
    due_date: date,
    depends_on: z.array(id).meta({ description: 'Milestones that must be done before this one completes' }),
    status: oneOf(MILESTONE_STATUSES),
    progress: z.number().int().min(0).max(100).meta({ description: 'Percent complete, 0-100' }),
    completed_on: date.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Milestone' });

export const RiskRecord = z
  .object({
    id,
    ref: text,
    project_id: id,
    title: text,
    description: text,
    category: oneOf(RISK_CATEGORIES),
    probability: z.number().int().meta({ description: '1 (rare) to 5 (almost certain)' }),
    impact: z.number().int().meta({ description: '1 (negligible) to 5 (severe)' }),
    score: z.number().int().meta({ description: 'probability x impact, 1-25' }),
    rating: oneOf(RISK_RATINGS, 'Score 1-4 Low, 5-9 Medium, 10-15 High, 16-25 Critical'),
    status: oneOf(RISK_STATUSES),
    mitigation: textOrNull,
    owner: text,
    identified_on: date,
    review_date: date.nullable(),
  })
  .meta({ id: 'Risk' });

export const DocumentRecord = z
  .object({
    id,
    project_id: id,
    title: text,
    document_type: oneOf(DOCUMENT_TYPES),
    file_name: text,
    mime_type: text,
    size_bytes: z.number().int(),
    sha256: text,
    page_count: idOrNull,
    source: oneOf(DOCUMENT_SOURCES),
    uploaded_by: text,
    uploaded_at: timestamp,
    status: oneOf(DOCUMENT_STATUSES, 'Extraction state'),
    extracted_at: timestamp.nullable(),
    extracted_fields: z
      .record(z.string(), z.string())
      .meta({ description: 'Fields read from the document (budget, dates, sponsor...)' }),
    confidence: z.number().nullable().meta({ description: 'Extraction confidence, 0-1' }),
    extraction_error: textOrNull,
  })
  .meta({ id: 'PortfolioDocument' });

export type ProjectRecord = z.infer<typeof ProjectRecord>;
export type MilestoneRecord = z.infer<typeof MilestoneRecord>;
export type RiskRecord = z.infer<typeof RiskRecord>;
export type DocumentRecord = z.infer<typeof DocumentRecord>;

type Event = StoredEvent & PpmEvent;

const createdBy = createdByOf<Event>();

const CLOSED = ['Completed', 'Cancelled'];

function evolveProject(doc: ProjectRecord | null, stored: StoredEvent): ProjectRecord | null {
  const event = stored as Event;
  if (event.type === 'ProjectAdded') return { ...event.data, created_at: event.metadata.occurred_at };
  if (!doc || event.type !== 'ProjectStatusChanged') return doc;
  // A closed project has no RAG status any more.
  return { ...doc, status: event.data.to, health: CLOSED.includes(event.data.to) ? null : doc.health };
}

const projects: DocumentProjection<ProjectRecord> = {
  collection: 'ppm.projects',
  handles: ['ProjectAdded', 'ProjectStatusChanged'],
  documentId: idFromStream,
  stream: (id) => ppmStreams.project(Number(id)),
  evolve: evolveProject,
};

const risks = createdBy('ppm.risks', 'RiskIdentified', ppmStreams.risk, (event): RiskRecord => event.data);

const documents = createdBy(
  'ppm.documents',
  'DocumentRegistered',
  ppmStreams.document,
  (event): DocumentRecord => event.data,
);

function evolveMilestone(doc: MilestoneRecord | null, stored: StoredEvent): MilestoneRecord | null {
  const event = stored as Event;
  const at = event.metadata.occurred_at;
  if (event.type === 'MilestoneAdded') return { ...event.data, created_at: at, updated_at: at };
  if (!doc) return null;
  switch (event.type) {
    case 'MilestoneProgressReported':
      return { ...doc, progress: event.data.progress, updated_at: at };
    case 'MilestoneStatusChanged':
      return {
        ...doc,
        status: event.data.to,
        completed_on: event.data.to === 'Completed' ? event.data.changed_on.slice(0, 10) : null,
        updated_at: at,
      };
    default:
      return doc;
  }
}

export const milestonesProjection: DocumentProjection<MilestoneRecord> = {
  collection: 'ppm.milestones',
  handles: ['MilestoneAdded', 'MilestoneProgressReported', 'MilestoneStatusChanged'],
  documentId: idFromStream,
  stream: (id) => ppmStreams.milestone(Number(id)),
  evolve: evolveMilestone,
  ownUpdatedAt: true,
};

export const ppmProjector: Projector = {
  name: 'ppm',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [projects, milestonesProjection, risks, documents],
};

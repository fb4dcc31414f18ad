import { z } from 'zod';
import { updateMilestone } from '../commands/ppm/handlers';
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
  ppmEvents,
} from '../events/ppm';
import {
  DocumentRecord,
  MilestoneRecord,
  ProjectRecord,
  RiskRecord,
  milestonesProjection,
  ppmProjector,
} from '../projections/ppm';
import { seedPortfolio } from '../seed/ppm';
import type { ModuleDefinition, ResourceDefinition, WriteRoute } from './kit/module';
import { integerParameter } from './kit/validation';
import { caseInsensitiveEnum, dateString, enumFilter, idFilter, pathId } from './kit/parameters';

const projects: ResourceDefinition = {
  path: 'projects',
  name: 'Project',
  description: 'programmes, projects and workstreams',
  record: ProjectRecord,
  collection: {
    name: 'ppm.projects',
    idKind: 'integer',
    searchFields: ['code', 'name', 'description', 'owner', 'sponsor'],
    filterFields: ['type', 'status', 'health', 'priority', 'parent_id'],
  },
  filters: {
    type: enumFilter('type', PROJECT_TYPES, 'Level in the hierarchy'),
    status: enumFilter('status', PROJECT_STATUSES),
    health: enumFilter('health', PROJECT_HEALTH, 'RAG status'),
    priority: enumFilter('priority', PROJECT_PRIORITIES),
    parent_id: idFilter('parent_id', 'Children of this programme or project'),
  },
};

const milestones: ResourceDefinition = {
  path: 'milestones',
  name: 'Milestone',
  description: 'milestones with progress and dependencies',
  record: MilestoneRecord,
  collection: {
    name: 'ppm.milestones',
    idKind: 'integer',
    searchFields: ['name', 'description', 'owner'],
    filterFields: ['project_id', 'status', 'due_date'],
  },
  filters: {
    project_id: idFilter('project_id', 'Milestones of this project, programme or workstream'),
    status: enumFilter('status', MILESTONE_STATUSES),
    due_after: {
      field: 'due_date',
      op: 'gte',
      schema: dateString(),
      description: 'Due on or after this date (YYYY-MM-DD)',
    },
    due_before: {
      field: 'due_date',
      op: 'lte',
      schema: dateString(),
      description: 'Due on or before this date (YYYY-MM-DD)',
    },
  },
};

const risks: ResourceDefinition = {
  path: 'risks',
  name: 'Risk',
  description: 'risks with probability, impact, score and mitigation',
  record: RiskRecord,
  collection: {
    name: 'ppm.risks',
    idKind: 'integer',
    searchFields: ['ref', 'title', 'description', 'mitigation', 'owner'],
    filterFields: ['project_id', 'status', 'category', 'rating', 'score'],
  },
  filters: {
    project_id: idFilter('project_id', 'Risks of this project, programme or workstream'),
    status: enumFilter('status', RISK_STATUSES),
    category: enumFilter('category', RISK_CATEGORIES),
    rating: enumFilter('rating', RISK_RATINGS),
    min_score: {
      field: 'score',
      op: 'gte',
      schema: integerParameter(),
      description: 'Score (probability x impact) at least this',
    },
  },
};

const documents: ResourceDefinition = {
  path: 'documents',
  name: 'Document',
  description: 'source documents and their extraction state',
  record: DocumentRecord,
  collection: {
    name: 'ppm.documents',
    idKind: 'integer',
    searchFields: ['title', 'file_name', 'document_type', 'uploaded_by'],
    filterFields: ['project_id', 'status', 'document_type', 'source'],
  },
  filters: {
    project_id: idFilter('project_id', 'Documents of this project, programme or workstream'),
    status: enumFilter('status', DOCUMENT_STATUSES, 'Extraction state'),
    document_type: enumFilter('document_type', DOCUMENT_TYPES),
    source: enumFilter('source', DOCUMENT_SOURCES),
  },
};

const MilestoneUpdate = z
  .strictObject({
    progress: z.int().min(0).max(100).optional().meta({
      description: 'Percent complete; 100 completes the milestone, below 100 reopens a completed one',
    }),
    status: caseInsensitiveEnum(MILESTONE_STATUSES).optional(),
  })
  .refine((update) => Object.keys(update).length > 0, {
    message: 'Send progress, status or both',
    when: (payload) => payload.issues.length === 0,
  })
  .meta({ id: 'MilestoneUpdate' });

const updateMilestoneRoute: WriteRoute<z.infer<typeof MilestoneUpdate>> = {
  method: 'patch',
  path: '/api/v1/milestones/:id',
  operation: 'updateMilestone',
  summary: 'Report a milestone\u2019s progress or move its status',
  body: MilestoneUpdate,
  status: 200,
  resource: milestones,
  projection: milestonesProjection,
  execute: ({ body, params }, context) => updateMilestone(context, pathId(params), body),
};

export const ppmModule: ModuleDefinition = {
  id: 'ppm',
  title: 'Project portfolio',
  shortTitle: 'Portfolio',
  description:
    'Programmes, projects and workstreams, their milestones, risks and source documents. ' +
    'Reads are public; writes need a bearer token.',
  version: '1.0.0',
  itemParam: 'id',
  readErrors: 'envelope',
  list: { defaultLimit: 50, maxLimit: 200 },
  resources: [projects, milestones, risks, documents],
  writes: [updateMilestoneRoute] as WriteRoute[],
  events: ppmEvents,
  projector: ppmProjector,
  seed: seedPortfolio,
};

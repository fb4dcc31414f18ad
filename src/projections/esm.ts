import { z } from 'zod';
import {
  ARTICLE_STATUSES,
  ARTICLE_TRANSITIONS,
  COMMENT_VISIBILITIES,
  REQUEST_PRIORITIES,
  REQUEST_STATUSES,
  type ArticleStatus,
  type EsmEvent,
  type RequestPriority,
  esmStreams,
} from '../events/esm';
import { nextStatuses } from '../esm/workflow';
import { nextSlaChange, ON_TRACK, SLA_STATES, slaState, targetsAfter, type TargetStates } from '../esm/sla';
import type { StoredEvent } from '../events/envelope';
import { idFromStream, type DocumentProjection, type Projector } from './projection';

const intOrNull = z.number().int().nullable();
const textOrNull = z.string().nullable();

export const DepartmentRecord = z
  .object({ id: intOrNull, name: z.string(), icon: textOrNull })
  .meta({ id: 'Department' });

export const AgentRecord = z
  .object({
    id: intOrNull,
    name: textOrNull,
    department_id: intOrNull,
    is_active: z.number().int().meta({ description: '1 when requests may be assigned to the agent' }),
  })
  .meta({ id: 'Agent' });

const targetState = z.string().meta({ enum: ['on_track', 'at_risk', 'breached', 'met'] });

export const ServiceRecord = z
  .object({
    id: intOrNull,
    name: z.string(),
    department_id: intOrNull,
    category: textOrNull,
    description: textOrNull,
    icon: textOrNull,
    sla_hours: z
      .number()
      .int()
      .meta({ description: 'Resolution target in business hours at Medium priority' }),
    requires_approval: z.number().int().meta({ description: '1 when requests start in Pending Approval' }),
    form_schema: z.string().meta({ description: 'JSON Schema of the request form, as a JSON string' }),
    is_active: z.number().int().meta({ description: '1 when new requests may be raised' }),
  })
  .meta({ id: 'Service' });

export const RequestRecord = z
  .object({
    id: intOrNull,
    ref: textOrNull,
    title: z.string(),
    service_id: intOrNull,
    department_id: intOrNull,
    requester_id: intOrNull.meta({ description: 'The employee (HR) who asked' }),
    requester_name: textOrNull.optional().meta({
      description:
        'The requester\u2019s name, read with the request from the employees (not stored with it): null when there is none, erased once the employee\u2019s data is',
    }),
    assignee_id: intOrNull,
    assignee_name: textOrNull.optional().meta({
      description:
        'The assigned agent\u2019s name, read with the request (not stored with it): null when unassigned, erased once the agent\u2019s data is',
    }),
    approver_id: intOrNull,
    status: z.string().meta({ enum: [...REQUEST_STATUSES] }),
    next_statuses: z.array(z.string().meta({ enum: [...REQUEST_STATUSES] })).meta({
      description: 'The statuses a PATCH may move the request to now (empty: it is finished)',
    }),
    priority: z.string().meta({ enum: [...REQUEST_PRIORITIES] }),
    priority_rank: z.number().int().meta({
      description: 'The priority as a number, 1 (Low) to 4 (Urgent): what sort=priority orders by',
    }),
    form_data: textOrNull,
    created: z.string(),
    response_by: textOrNull,
    resolution_by: textOrNull,
    first_responded_on: textOrNull,
    approved_on: textOrNull,
    resolved_on: textOrNull,
    feedback_rating: intOrNull,
    sla_state: z.string().meta({
      enum: [...SLA_STATES],
      description: 'breached once a target was breached; at_risk while a target is in its last quarter',
    }),
    sla_targets: z
      .object({ response: targetState, resolution: targetState })
      .meta({ description: 'Each target: on_track, at_risk, breached, or met (or no longer due)' }),
    sla_changes_at: textOrNull.meta({
      description: 'When the SLA state next changes unless the request moves (the SLA sweep records it)',
    }),
  })
  .meta({ id: 'Request' });

export const CommentRecord = z
  .object({
    id: z.string().meta({ description: 'The request id and the comment\u2019s number on it: `42-000003`' }),
    request_id: z.number().int(),
    number: z.number().int(),
    body: textOrNull,
    visibility: z.string().meta({ enum: [...COMMENT_VISIBILITIES] }),
    author: z.string().meta({ description: 'The principal who wrote it (`key:<id>`, `oidc:<sub>`)' }),
    author_name: textOrNull,
    added_on: z.string(),
  })
  .meta({ id: 'Comment' });

export const KnowledgeArticleRecord = z
  .object({
    id: intOrNull,
    title: z.string(),
    category_id: intOrNull,
    department_id: intOrNull,
    content: textOrNull,
    author: textOrNull,
    status: z.string().meta({ enum: [...ARTICLE_STATUSES] }),
    next_statuses: z.array(z.string().meta({ enum: [...ARTICLE_STATUSES] })).meta({
      description: 'The statuses a PATCH may move the article to now',
    }),
    views: z.number().int(),
    published_on: textOrNull,
  })
  .meta({ id: 'KnowledgeArticle' });

export type AgentRecord = z.infer<typeof AgentRecord>;
export type CommentRecord = z.infer<typeof CommentRecord>;
export type DepartmentRecord = z.infer<typeof DepartmentRecord>;
export type ServiceRecord = z.infer<typeof ServiceRecord>;
export type RequestRecord = z.infer<typeof RequestRecord>;
export type KnowledgeArticleRecord = z.infer<typeof KnowledgeArticleRecord>;

type Event = StoredEvent & EsmEvent;

export const departmentsProjection: DocumentProjection<DepartmentRecord> = {
  collection: 'esm.departments',
  handles: ['DepartmentAdded'],
  documentId: idFromStream,
  stream: (id) => esmStreams.department(Number(id)),
  evolve: (_doc, event) => {
    const { data } = event as Extract<Event, { type: 'DepartmentAdded' }>;
    return { id: data.id, name: data.name, icon: data.icon };
  },
};

export const agentsProjection: DocumentProjection<AgentRecord> = {
  collection: 'esm.agents',
  handles: ['AgentAdded', 'AgentDeactivated', 'AgentReactivated'],
  documentId: idFromStream,
  stream: (id) => esmStreams.agent(Number(id)),
  evolve: (doc, stored) => {
    const event = stored as Event;
    if (event.type === 'AgentAdded') {
      const { id, name, department_id } = event.data;
      return { id, name, department_id, is_active: 1 };
    }
    return doc && { ...doc, is_active: event.type === 'AgentDeactivated' ? 0 : 1 };
  },
};

export const servicesProjection: DocumentProjection<ServiceRecord> = {
  collection: 'esm.services',
  handles: ['ServiceAdded'],
  documentId: idFromStream,
  stream: (id) => esmStreams.service(Number(id)),
  evolve: (_doc, event) => {
    const { data } = event as Extract<Event, { type: 'ServiceAdded' }>;
    return {
      id: data.id,
      name: data.name,
      department_id: data.department_id,
      category: data.category,
      description: data.description,
      icon: data.icon,
      sla_hours: data.sla_hours,
      requires_approval: Number(data.requires_approval),
      form_schema: data.form_schema,
      is_active: Number(data.is_active),
    };
  },
};

function evolveArticle(
  doc: KnowledgeArticleRecord | null,
  stored: StoredEvent,
): KnowledgeArticleRecord | null {
  const next = evolveArticleFields(doc, stored as Event);
  return next && { ...next, next_statuses: [...ARTICLE_TRANSITIONS[next.status as ArticleStatus]] };
}

function evolveArticleFields(
  doc: KnowledgeArticleRecord | null,
  event: Event,
): KnowledgeArticleRecord | null {
  if (event.type === 'KnowledgeArticleDrafted') {
    const { data } = event;
    return {
      id: data.id,
      title: data.title,
      category_id: data.category_id,
      department_id: data.department_id,
      content: data.content,
      author: data.author,
      status: 'Draft',
      next_statuses: [],
      views: 0,
      published_on: null,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'KnowledgeArticlePublished':
      return { ...doc, status: 'Published', published_on: event.data.published_on };
    case 'KnowledgeArticleArchived':
      return { ...doc, status: 'Archived' };
    case 'KnowledgeArticleViewsRecorded':
      return { ...doc, views: event.data.views };
    default:
      return doc;
  }
}

export const knowledgeProjection: DocumentProjection<KnowledgeArticleRecord> = {
  collection: 'esm.knowledge',
  handles: [
    'KnowledgeArticleDrafted',
    'KnowledgeArticlePublished',
    'KnowledgeArticleArchived',
    'KnowledgeArticleViewsRecorded',
  ],
  documentId: idFromStream,
  stream: (id) => esmStreams.article(Number(id)),
  evolve: evolveArticle,
};

/** Low 1 … Urgent 4: a priority's place in the order of urgency. */
export const priorityRank = (priority: string): number =>
  REQUEST_PRIORITIES.indexOf(priority as RequestPriority) + 1;

/**
 * The fields that follow from the others: what the status allows next, the priority's rank, and the
 * SLA fields once an event moved the targets or due times.
 */
function withDerived(doc: RequestRecord, targets: TargetStates): RequestRecord {
  const { created, response_by, resolution_by } = doc;
  const watched = response_by !== null && resolution_by !== null;
  return {
    ...doc,
    next_statuses: nextStatuses(doc.status),
    priority_rank: priorityRank(doc.priority),
    sla_state: slaState(targets),
    sla_targets: targets,
    sla_changes_at: watched ? nextSlaChange({ created, response_by, resolution_by, targets }) : null,
  };
}

function evolveRequest(doc: RequestRecord | null, stored: StoredEvent): RequestRecord | null {
  const event = stored as Event;
  const next = evolveRequestFields(doc, event);
  return next && withDerived(next, targetsAfter((doc?.sla_targets ?? ON_TRACK) as TargetStates, event));
}

function evolveRequestFields(doc: RequestRecord | null, event: Event): RequestRecord | null {
  if (event.type === 'RequestSubmitted') {
    const { data } = event;
    return {
      id: data.id,
      ref: data.ref,
      title: data.title,
      service_id: data.service_id,
      department_id: data.department_id,
      requester_id: data.requester_id,
      assignee_id: null,
      approver_id: null,
      status: data.status,
      next_statuses: [],
      priority: data.priority,
      priority_rank: 0,
      form_data: data.form_data,
      created: data.created,
      response_by: data.response_by,
      resolution_by: data.resolution_by,
      first_responded_on: null,
      approved_on: null,
      resolved_on: null,
      feedback_rating: null,
      sla_state: 'on_track',
      sla_targets: ON_TRACK,
      sla_changes_at: null,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'RequestAssigneeChanged':
      return { ...doc, assignee_id: event.data.to };
    case 'RequestPriorityChanged': {
      const { to, response_by, resolution_by } = event.data;
      return { ...doc, priority: to, response_by, resolution_by };
    }
    case 'RequestServiceChanged': {
      const { to, department_id, response_by, resolution_by } = event.data;
      return { ...doc, service_id: to, department_id, response_by, resolution_by };
    }
    case 'CommentAdded':
      return event.data.visibility === 'public'
        ? { ...doc, first_responded_on: doc.first_responded_on ?? event.data.added_on }
        : doc;
    case 'RequestApproved':
      return {
        ...doc,
        status: 'Open',
        approver_id: event.data.approver_id,
        approved_on: event.data.approved_on,
      };
    case 'RequestRejected':
      return { ...doc, status: 'Rejected', approver_id: event.data.approver_id };
    case 'RequestAssigned':
      return { ...doc, assignee_id: event.data.assignee_id };
    case 'RequestReplied':
      return {
        ...doc,
        status: 'Replied',
        first_responded_on: doc.first_responded_on ?? event.data.replied_on,
      };
    case 'RequestResolved':
      return {
        ...doc,
        status: 'Resolved',
        first_responded_on: doc.first_responded_on ?? event.data.resolved_on,
        resolved_on: event.data.resolved_on,
      };
    case 'RequestReopened':
      return { ...doc, status: 'Open', resolved_on: null };
    case 'RequestClosed':
      return { ...doc, status: 'Closed' };
    case 'RequestFeedbackGiven':
      return { ...doc, feedback_rating: event.data.rating };
    default:
      return doc;
  }
}

export const requestsProjection: DocumentProjection<RequestRecord> = {
  collection: 'esm.requests',
  handles: [
    'RequestSubmitted',
    'RequestApproved',
    'RequestRejected',
    'RequestAssigned',
    'RequestReplied',
    'RequestResolved',
    'RequestReopened',
    'RequestClosed',
    'RequestFeedbackGiven',
    'RequestAssigneeChanged',
    'RequestPriorityChanged',
    'RequestServiceChanged',
    'CommentAdded',
    'RequestSlaAtRisk',
    'RequestSlaBreached',
  ],
  documentId: idFromStream,
  stream: (id) => esmStreams.request(Number(id)),
  evolve: evolveRequest,
};

/** `42-000003`: ids in the order the comments were added, as lists read them. */
export const commentId = (requestId: number, number: number) =>
  `${requestId}-${String(number).padStart(6, '0')}`;

/** A comment as its event tells it; its author is the event's actor. */
export function commentOf(stored: StoredEvent): CommentRecord {
  const { data } = stored as Extract<Event, { type: 'CommentAdded' }>;
  const requestId = Number(idFromStream(stored));
  return {
    id: commentId(requestId, data.number),
    request_id: requestId,
    number: data.number,
    body: data.body,
    visibility: data.visibility,
    author: stored.metadata.actor,
    author_name: stored.metadata.actor_name ?? null,
    added_on: data.added_on,
  };
}

export const commentsProjection: DocumentProjection<CommentRecord> = {
  collection: 'esm.comments',
  handles: ['CommentAdded'],
  documentId: (event) => commentOf(event).id,
  writtenOnce: true,
  evolve: (_doc, event) => commentOf(event),
};

export const esmProjector: Projector = {
  name: 'esm',
  // 2: every record carries created_at and updated_at (`evolveStamped`); 3: a request's next_statuses
  // and priority_rank; 4: a knowledge article's next_statuses.
  version: 4,
  projections: [
    agentsProjection,
    departmentsProjection,
    servicesProjection,
    knowledgeProjection,
    requestsProjection,
    commentsProjection,
  ],
};

import { z } from 'zod';
import { ARTICLE_STATUSES, REQUEST_PRIORITIES, REQUEST_STATUSES, type EsmEvent } from '../events/esm';
import type { StoredEvent } from '../events/envelope';
import { idFromStream, type DocumentProjection, type Projector } from './projection';

const intOrNull = z.number().int().nullable();
const textOrNull = z.string().nullable();

export const DepartmentRecord = z
  .object({ id: intOrNull, name: z.string(), icon: textOrNull })
  .meta({ id: 'Department' });

export const ServiceRecord = z
  .object({
    id: intOrNull,
    name: z.string(),
    department_id: intOrNull,
    category: textOrNull,
    description: textOrNull,
    icon: textOrNull,
    sla_hours: z.number().int().meta({ description: 'Resolution target in hours at Medium priority' }),
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
    requester_id: intOrNull,
    assignee_id: intOrNull,
    approver_id: intOrNull,
    status: z.string().meta({ enum: [...REQUEST_STATUSES] }),
    priority: z.string().meta({ enum: [...REQUEST_PRIORITIES] }),
    form_data: textOrNull,
    created: z.string(),
    response_by: textOrNull,
    resolution_by: textOrNull,
    first_responded_on: textOrNull,
    approved_on: textOrNull,
    resolved_on: textOrNull,
    feedback_rating: intOrNull,
  })
  .meta({ id: 'Request' });

export const KnowledgeArticleRecord = z
  .object({
    id: intOrNull,
    title: z.string(),
    category_id: intOrNull,
    department_id: intOrNull,
    content: textOrNull,
    author: textOrNull,
    status: z.string().meta({ enum: [...ARTICLE_STATUSES] }),
    views: z.number().int(),
    published_on: textOrNull,
  })
  .meta({ id: 'KnowledgeArticle' });

export type DepartmentRecord = z.infer<typeof DepartmentRecord>;
export type ServiceRecord = z.infer<typeof ServiceRecord>;
export type RequestRecord = z.infer<typeof RequestRecord>;
export type KnowledgeArticleRecord = z.infer<typeof KnowledgeArticleRecord>;

type Event = StoredEvent & EsmEvent;

export const departmentsProjection: DocumentProjection<DepartmentRecord> = {
  collection: 'esm.departments',
  handles: ['DepartmentAdded'],
  documentId: idFromStream,
  evolve: (_doc, event) => {
    const { data } = event as Extract<Event, { type: 'DepartmentAdded' }>;
    return { id: data.id, name: data.name, icon: data.icon };
  },
};

export const servicesProjection: DocumentProjection<ServiceRecord> = {
  collection: 'esm.services',
  handles: ['ServiceAdded'],
  documentId: idFromStream,
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
  const event = stored as Event;
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
  evolve: evolveArticle,
};

function evolveRequest(doc: RequestRecord | null, stored: StoredEvent): RequestRecord | null {
  const event = stored as Event;
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
      priority: data.priority,
      form_data: data.form_data,
      created: data.created,
      response_by: data.response_by,
      resolution_by: data.resolution_by,
      first_responded_on: null,
      approved_on: null,
      resolved_on: null,
      feedback_rating: null,
    };
  }
  if (!doc) return null;
  switch (event.type) {
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
  ],
  documentId: idFromStream,
  evolve: evolveRequest,
};

export const esmProjector: Projector = {
  name: 'esm',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [departmentsProjection, servicesProjection, knowledgeProjection, requestsProjection],
};

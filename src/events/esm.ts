import { z } from 'zod';
import { defineEvent, ownPersonalData, type EventsOf } from './catalog';

const id = z.number().int().positive();
const timestamp = z.string();

export const REQUEST_STATUSES = [
  'Pending Approval',
  'Open',
  'Replied',
  'Resolved',
  'Closed',
  'Rejected',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const REQUEST_PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;
export type RequestPriority = (typeof REQUEST_PRIORITIES)[number];
export const ARTICLE_STATUSES = ['Draft', 'Published', 'Archived'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];
/**
 * Every legal move of a knowledge article; anything else is 409 illegal_transition. An archived
 * article may be published again.
 */
export const ARTICLE_TRANSITIONS: Readonly<Record<ArticleStatus, readonly ArticleStatus[]>> = {
  Draft: ['Published', 'Archived'],
  Published: ['Archived'],
  Archived: ['Published'],
};
export const COMMENT_VISIBILITIES = ['public', 'internal'] as const;
export type CommentVisibility = (typeof COMMENT_VISIBILITIES)[number];
const slaTarget = z.enum(['response', 'resolution']);
const slaDueTimes = { response_by: timestamp, resolution_by: timestamp };

export const esmEvents = [
  /** A member of staff who works requests: only an active agent may be assigned one. */
  defineEvent('AgentAdded', z.object({ id, name: z.string(), department_id: id.nullable() }), {
    personal: ownPersonalData('name'),
  }),
  defineEvent('AgentDeactivated', z.object({ deactivated_on: timestamp })),
  defineEvent('AgentReactivated', z.object({ reactivated_on: timestamp })),
  defineEvent('DepartmentAdded', z.object({ id, name: z.string(), icon: z.string().nullable() })),
  defineEvent(
    'ServiceAdded',
    z.object({
      id,
      name: z.string(),
      department_id: id.nullable(),
      category: z.string().nullable(),
      description: z.string().nullable(),
      icon: z.string().nullable(),
      sla_hours: z.number().int().positive(),
      requires_approval: z.boolean(),
      form_schema: z.string(),
      is_active: z.boolean(),
    }),
  ),
  defineEvent(
    'KnowledgeArticleDrafted',
    z.object({
      id,
      title: z.string(),
      category_id: id.nullable(),
      department_id: id.nullable(),
      content: z.string().nullable(),
      author: z.string().nullable(),
    }),
  ),
  defineEvent('KnowledgeArticlePublished', z.object({ published_on: timestamp })),
  defineEvent('KnowledgeArticleArchived', z.object({ archived_on: timestamp })),
  /** Total views to date, as counted by the portal that shows the article. */
  defineEvent('KnowledgeArticleViewsRecorded', z.object({ views: z.number().int().nonnegative() })),
  defineEvent(
    'RequestSubmitted',
    z.object({
      id,
      ref: z.string(),
      title: z.string(),
      service_id: id.nullable(),
      department_id: id.nullable(),
      requester_id: id.nullable(),
      status: z.enum(['Pending Approval', 'Open']),
      priority: z.enum(REQUEST_PRIORITIES),
      form_data: z.string().nullable(),
      created: timestamp,
      response_by: timestamp,
      resolution_by: timestamp,
    }),
    /** The form the requester (an employee, HR's subject) filled in is keyed to the request. */
    { personal: ownPersonalData('form_data') },
  ),
  defineEvent('RequestApproved', z.object({ approver_id: id, approved_on: timestamp })),
  defineEvent('RequestRejected', z.object({ approver_id: id, rejected_on: timestamp })),
  /** The first assignment, as recorded before assignee changes named the assignee they replace. */
  defineEvent('RequestAssigned', z.object({ assignee_id: id })),
  /** `null`: unassigned. */
  defineEvent(
    'RequestAssigneeChanged',
    z.object({ from: id.nullable(), to: id.nullable(), changed_on: timestamp }),
  ),
  /** A new priority, with the due times it sets (counted from the request's creation). */
  defineEvent(
    'RequestPriorityChanged',
    z.object({
      from: z.enum(REQUEST_PRIORITIES),
      to: z.enum(REQUEST_PRIORITIES),
      changed_on: timestamp,
      ...slaDueTimes,
    }),
  ),
  /** Another service, the department that handles it, and the due times its `sla_hours` set. */
  defineEvent(
    'RequestServiceChanged',
    z.object({
      from: id.nullable(),
      to: id,
      department_id: id.nullable(),
      changed_on: timestamp,
      ...slaDueTimes,
    }),
  ),
  /**
   * A reply (`public`: the requester sees it) or a note among staff (`internal`). Its author is the
   * event's actor. The body may name anyone: it is keyed to the request, as its form is.
   */
  defineEvent(
    'CommentAdded',
    z.object({
      number: z.number().int().positive(),
      body: z.string(),
      visibility: z.enum(COMMENT_VISIBILITIES),
      added_on: timestamp,
    }),
    { personal: ownPersonalData('body') },
  ),
  /** The last quarter of a target's window began with the target unmet (recorded by the SLA sweep). */
  defineEvent('RequestSlaAtRisk', z.object({ target: slaTarget, due: timestamp })),
  /** A target's due time passed unmet (recorded by the SLA sweep). */
  defineEvent('RequestSlaBreached', z.object({ target: slaTarget, due: timestamp })),
  defineEvent('RequestReplied', z.object({ replied_on: timestamp })),
  defineEvent('RequestResolved', z.object({ resolved_on: timestamp })),
  defineEvent('RequestReopened', z.object({ reopened_on: timestamp })),
  defineEvent('RequestClosed', z.object({ closed_on: timestamp })),
  defineEvent('RequestFeedbackGiven', z.object({ rating: z.number().int().min(1).max(5) })),
] as const;

export type EsmEvent = EventsOf<typeof esmEvents>;
export type EsmEventOf<Type extends EsmEvent['type']> = Extract<EsmEvent, { type: Type }>;

export const esmStreams = {
  agent: (agentId: number) => `esm.agent-${agentId}`,
  department: (departmentId: number) => `esm.department-${departmentId}`,
  service: (serviceId: number) => `esm.service-${serviceId}`,
  article: (articleId: number) => `esm.article-${articleId}`,
  request: (requestId: number) => `esm.request-${requestId}`,
};

export const esmCategories = {
  agent: 'esm.agent',
  department: 'esm.department',
  service: 'esm.service',
  article: 'esm.article',
  request: 'esm.request',
} as const;

import { decidingPersonOf } from './kit/deciding';
import { z } from 'zod';
import {
  addAgent,
  commentOnRequest,
  draftArticle,
  setArticleStatus,
  setAgentActive,
  submitRequest,
  changeRequest,
} from '../commands/esm/handlers';
import { MAX_COMMENT_LENGTH } from '../commands/esm/requests';
import { slaSweep } from '../commands/esm/sla-sweep';
import {
  COMMENT_VISIBILITIES,
  REQUEST_PRIORITIES,
  REQUEST_STATUSES,
  esmEvents,
  type CommentVisibility,
  type RequestPriority,
  type RequestStatus,
} from '../events/esm';
import { SLA_STATES } from '../esm/sla';
import {
  AgentRecord,
  CommentRecord,
  DepartmentRecord,
  KnowledgeArticleRecord,
  RequestRecord,
  ServiceRecord,
  agentsProjection,
  commentsProjection,
  esmProjector,
  knowledgeProjection,
  requestsProjection,
} from '../projections/esm';
import { MAX_JSON_NESTING, jsonNestsDeeperThan } from '../json-nesting';
import { seedServiceDesk } from '../seed/esm';
import { employees } from './hrm/resources';
import { ApiError } from './kit/errors';
import type { ModuleDefinition, ModuleRoute, ResourceDefinition, WriteRoute } from './kit/module';
import { ErrorEnvelopeSchema } from './kit/openapi';
import { booleanParameter, caseInsensitiveEnum, idFilter, pageParameters, pathId } from './kit/parameters';
import { executeWrite } from './kit/writes';

const CREATION_STATUSES = ['Open', 'Pending Approval'] as const;
const optionalId = z.int().positive().nullable().optional();

const RequestCreation = z
  .strictObject({
    title: z.string().trim().min(1).max(500),
    status: caseInsensitiveEnum(CREATION_STATUSES).meta({
      description:
        'Open, or Pending Approval; a service that requires approval always starts in Pending Approval',
    }),
    priority: caseInsensitiveEnum(REQUEST_PRIORITIES),
    service_id: optionalId,
    department_id: optionalId,
    requester_id: optionalId.meta({ description: 'The employee (HR) who asks' }),
    form_data: z
      .string()
      .max(65_536)
      .refine((text) => !jsonNestsDeeperThan(text), {
        message: `A JSON form may nest at most ${MAX_JSON_NESTING} levels`,
        params: { type: 'json_too_deep' },
      })
      .nullable()
      .optional()
      .meta({
        description: `The submitted form, as text (usually JSON): at most 65,536 characters, JSON nested at most ${MAX_JSON_NESTING} levels`,
      }),
  })
  .meta({ id: 'RequestCreation' });

const RequestUpdate = z
  .strictObject({
    status: caseInsensitiveEnum(REQUEST_STATUSES).optional(),
    approver_id: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ description: 'Required to approve or reject' }),
    assignee_id: optionalId.meta({ description: 'An active agent; null unassigns the request' }),
    priority: caseInsensitiveEnum(REQUEST_PRIORITIES)
      .optional()
      .meta({ description: 'Sets the SLA due times anew, counted from the request\u2019s creation' }),
    service_id: z.int().positive().optional().meta({
      description: 'An active service: its department handles the request, its sla_hours set the due times',
    }),
    feedback_rating: z.int().min(1).max(5).optional(),
  })
  .refine((update) => Object.keys(update).length > 0, {
    message: 'Send at least one field to change',
    when: (payload) => payload.issues.length === 0,
  })
  .meta({ id: 'RequestUpdate' });

const statusFilter = (values: readonly string[]) => ({
  field: 'status',
  schema: caseInsensitiveEnum(values as [string, ...string[]]),
  description: `Exact status: ${values.join(', ')}`,
});

const AgentCreation = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    department_id: optionalId,
  })
  .meta({ id: 'AgentCreation' });

const AgentUpdate = z
  .strictObject({
    is_active: z.boolean().meta({ description: 'false: no request may be assigned to the agent' }),
  })
  .meta({ id: 'AgentUpdate' });

const ArticleDraft = z
  .strictObject({
    title: z.string().trim().min(1).max(500),
    content: z.string().max(100_000).nullable().optional(),
    category_id: optionalId,
    department_id: optionalId.meta({ description: 'An existing department, or null' }),
    author: z.string().trim().min(1).max(200).nullable().optional().meta({
      description: 'As the article shows its author; default: the caller\u2019s name, if they have one',
    }),
  })
  .meta({ id: 'ArticleDraft' });

const ArticleUpdate = z
  .strictObject({
    status: caseInsensitiveEnum(['Published', 'Archived'] as const).meta({
      description:
        'Published (from Draft, or again from Archived; sets published_on), or Archived (from Draft or Published)',
    }),
  })
  .meta({ id: 'ArticleUpdate' });

const CommentCreation = z
  .strictObject({
    body: z.string().trim().min(1).max(MAX_COMMENT_LENGTH),
    visibility: caseInsensitiveEnum(COMMENT_VISIBILITIES).meta({
      description:
        'public: a reply the requester sees (the first sets first_responded_on, and moves an Open request to Replied); internal: a note among staff',
    }),
  })
  .meta({ id: 'CommentCreation' });

const agents: ResourceDefinition = {
  path: 'agents',
  name: 'Agent',
  description: 'service desk agents',
  record: AgentRecord,
  collection: {
    name: 'esm.agents',
    idKind: 'integer',
    searchFields: ['name'],
    filterFields: ['department_id', 'is_active'],
  },
  filters: {
    department_id: idFilter('department_id', 'Department the agent works in'),
    is_active: {
      field: 'is_active',
      schema: booleanParameter(),
      where: (value) => ({ field: 'is_active', op: 'eq', value: value ? 1 : 0 }),
      description: 'true: active agents only; false: deactivated ones',
    },
  },
};

const departments: ResourceDefinition = {
  path: 'departments',
  name: 'Department',
  description: 'departments',
  record: DepartmentRecord,
  collection: { name: 'esm.departments', idKind: 'integer', searchFields: ['name'], filterFields: [] },
};

const services: ResourceDefinition = {
  path: 'services',
  name: 'Service',
  description: 'catalogue services',
  record: ServiceRecord,
  collection: {
    name: 'esm.services',
    idKind: 'integer',
    searchFields: ['name', 'category', 'description'],
    filterFields: ['department_id'],
  },
  filters: {
    department_id: idFilter('department_id', 'Owning department'),
  },
};

const requests: ResourceDefinition = {
  path: 'requests',
  name: 'Request',
  description: 'service requests',
  record: RequestRecord,
  comments: 'CommentAdded',
  names: {
    assignee_name: { idField: 'assignee_id', collection: agents.collection, nameField: 'name' },
    requester_name: { idField: 'requester_id', collection: employees.collection, nameField: 'employee_name' },
  },
  derived: ['next_statuses', 'priority_rank'],
  collection: {
    name: 'esm.requests',
    idKind: 'integer',
    searchFields: ['ref', 'title', 'form_data'],
    jsonSearchFields: ['form_data'],
    filterFields: [
      'status',
      'priority',
      'service_id',
      'department_id',
      'assignee_id',
      'sla_state',
      'sla_changes_at',
    ],
    sortFields: {
      created: 'created',
      priority: 'priority_rank',
      response_by: 'response_by',
      resolution_by: 'resolution_by',
    },
  },
  filters: {
    status: statusFilter(REQUEST_STATUSES),
    assignee_id: idFilter('assignee_id', 'Assigned to this agent'),
    unassigned: {
      field: 'assignee_id',
      schema: booleanParameter(),
      where: (value) =>
        value
          ? { field: 'assignee_id', op: 'eq', value: null }
          : { field: 'assignee_id', op: 'gt', value: 0 },
      description: 'true: requests assigned to nobody; false: assigned ones',
    },
    sla_state: {
      field: 'sla_state',
      schema: caseInsensitiveEnum(SLA_STATES),
      description: `SLA state: ${SLA_STATES.join(', ')}`,
    },
    priority: {
      field: 'priority',
      schema: caseInsensitiveEnum(REQUEST_PRIORITIES),
      description: 'Exact priority',
    },
    service_id: idFilter('service_id', 'Service raised against'),
    department_id: idFilter('department_id', 'Handling department'),
  },
};

const knowledge: ResourceDefinition = {
  path: 'knowledge',
  name: 'Knowledge article',
  description: 'knowledge articles',
  record: KnowledgeArticleRecord,
  derived: ['next_statuses'],
  collection: {
    name: 'esm.knowledge',
    idKind: 'integer',
    searchFields: ['title', 'content', 'author'],
    filterFields: ['status', 'department_id'],
  },
  filters: {
    status: statusFilter(['Draft', 'Published', 'Archived']),
    department_id: idFilter('department_id', 'Owning department'),
  },
};

const createRequest: WriteRoute<z.infer<typeof RequestCreation>> = {
  method: 'post',
  path: '/api/v1/requests',
  operation: 'createRequest',
  summary: 'Submit a service request',
  body: RequestCreation,
  status: 201,
  resource: requests,
  projection: requestsProjection,
  execute: ({ body }, context) =>
    submitRequest(context, {
      title: body.title,
      status: body.status,
      priority: body.priority as RequestPriority,
      service_id: body.service_id ?? null,
      department_id: body.department_id ?? null,
      requester_id: body.requester_id ?? null,
      form_data: body.form_data ?? null,
    }),
};

const updateRequest: WriteRoute<z.infer<typeof RequestUpdate>> = {
  method: 'patch',
  path: '/api/v1/requests/:item_id',
  operation: 'updateRequest',
  summary: 'Move a request through its workflow, assign it or record the requester\u2019s rating',
  body: RequestUpdate,
  status: 200,
  resource: requests,
  projection: requestsProjection,
  execute: ({ body, params, caller }, context) =>
    changeRequest(context, pathId(params, 'item_id'), {
      ...body,
      status: body.status as RequestStatus | undefined,
      priority: body.priority as RequestPriority | undefined,
      decider: decidingPersonOf(caller),
    }),
};

const draftArticleRoute: WriteRoute<z.infer<typeof ArticleDraft>> = {
  method: 'post',
  path: '/api/v1/knowledge',
  operation: 'draftArticle',
  summary: 'Draft a knowledge article (Draft until published)',
  body: ArticleDraft,
  status: 201,
  resource: knowledge,
  projection: knowledgeProjection,
  execute: ({ body, caller }, context) =>
    draftArticle(context, {
      title: body.title,
      content: body.content ?? null,
      category_id: body.category_id ?? null,
      department_id: body.department_id ?? null,
      author: body.author ?? caller.actorName ?? null,
    }),
};

const updateArticle: WriteRoute<z.infer<typeof ArticleUpdate>> = {
  method: 'patch',
  path: '/api/v1/knowledge/:item_id',
  operation: 'updateArticle',
  summary: 'Publish a knowledge article, or archive it',
  body: ArticleUpdate,
  status: 200,
  resource: knowledge,
  projection: knowledgeProjection,
  execute: ({ body, params }, context) =>
    setArticleStatus(context, pathId(params, 'item_id'), body.status as 'Published' | 'Archived'),
};

const createAgent: WriteRoute<z.infer<typeof AgentCreation>> = {
  method: 'post',
  path: '/api/v1/agents',
  operation: 'createAgent',
  summary: 'Add a service desk agent, who may then be assigned requests',
  body: AgentCreation,
  status: 201,
  resource: agents,
  projection: agentsProjection,
  execute: ({ body }, context) =>
    addAgent(context, { name: body.name, department_id: body.department_id ?? null }),
};

const updateAgent: WriteRoute<z.infer<typeof AgentUpdate>> = {
  method: 'patch',
  path: '/api/v1/agents/:item_id',
  operation: 'updateAgent',
  summary: 'Deactivate an agent (their requests stay theirs; no new one is assigned) or activate them again',
  body: AgentUpdate,
  status: 200,
  resource: agents,
  projection: agentsProjection,
  execute: ({ body, params }, context) => setAgentActive(context, pathId(params, 'item_id'), body.is_active),
};

/** What a comment's write answers with. Not a resource of its own: comments are read in their request's list. */
const comments: ResourceDefinition = {
  path: 'comments',
  name: 'Comment',
  description: 'comments on requests',
  record: CommentRecord,
  collection: {
    name: 'esm.comments',
    idKind: 'string',
    searchFields: [],
    filterFields: ['request_id', 'visibility'],
  },
};

const commentWrite: WriteRoute<z.infer<typeof CommentCreation>> = {
  method: 'post',
  path: '/api/v1/requests/:item_id/comments',
  operation: 'addComment',
  summary: 'Reply to a request or add a note among staff',
  body: CommentCreation,
  status: 201,
  resource: comments,
  projection: commentsProjection,
  execute: ({ body, params }, context) =>
    commentOnRequest(context, pathId(params, 'item_id'), {
      body: body.body,
      visibility: body.visibility as CommentVisibility,
    }),
};

const error = (description: string) => ({ description, schema: ErrorEnvelopeSchema });
const itemParams = z.object({ item_id: z.int().positive() });
const LIST = { defaultLimit: 50, maxLimit: 200 };

/**
 * `POST /api/v1/requests/{item_id}/comments` runs through the kit's audited write (strict body,
 * Idempotency-Key, the author as the event's actor, read-your-writes, approval policies).
 */
function addCommentRoute(
  module: () => ModuleDefinition,
): ModuleRoute<unknown, z.infer<typeof CommentCreation>> {
  return {
    method: 'post',
    path: commentWrite.path,
    operation: commentWrite.operation,
    summary: `${commentWrite.summary} (Idempotency-Key honoured)`,
    tags: ['requests'],
    params: itemParams,
    body: CommentCreation,
    responses: {
      201: { description: 'The comment', schema: CommentRecord },
      404: error('No such request'),
      422: error('Invalid payload: unknown or missing field, empty or too long body'),
    },
    async handle({ body, params, caller, requestId, header }, services) {
      const answer = await executeWrite(module(), commentWrite as WriteRoute, services, {
        params,
        body,
        header,
        requestId,
        caller,
      });
      // A comment has no address of its own: it is read in its request's list.
      const headers = Object.fromEntries(
        Object.entries(answer.headers).filter(([name]) => name !== 'Location'),
      );
      return { status: answer.status, headers, body: answer.body };
    },
  };
}

const CommentQuery = z.object({
  ...pageParameters(LIST),
  visibility: caseInsensitiveEnum(COMMENT_VISIBILITIES)
    .optional()
    .meta({ description: 'public replies or internal notes only' }),
});
type CommentQuery = z.infer<typeof CommentQuery>;

/** Internal notes are for staff: the list needs a credential with the reader role, whatever reads are. */
const listComments: ModuleRoute<CommentQuery> = {
  method: 'get',
  path: '/api/v1/requests/:item_id/comments',
  operation: 'listComments',
  summary: 'List a request\u2019s replies and notes, oldest first',
  tags: ['requests'],
  auth: 'bearer',
  role: 'esm:reader',
  params: itemParams,
  query: CommentQuery,
  responses: {
    200: {
      description: 'A page of comments',
      schema: z
        .object({
          data: z.array(CommentRecord),
          meta: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
        })
        .meta({ id: 'CommentCollection' }),
    },
    404: error('No such request'),
    422: { description: 'Invalid parameter' },
  },
  async handle({ params, query }, services) {
    const requestId = pathId(params, 'item_id');
    if ((await services.readStore.get(requests.collection.name, requestId)) === null) {
      throw new ApiError('not_found', `Request ${requestId} not found`);
    }
    const limit = query.limit ?? LIST.defaultLimit;
    const offset = query.offset ?? 0;
    const filters = [
      { field: 'request_id', op: 'eq', value: requestId } as const,
      ...(query.visibility ? [{ field: 'visibility', op: 'eq', value: query.visibility } as const] : []),
    ];
    const page = await services.readStore.find(comments.collection.name, { filters, limit, offset });
    const data = page.items.map((item) => JSON.parse(item) as CommentRecord);
    return { status: 200, body: { data, meta: { total: page.total, limit, offset } } };
  },
};

export const esmModule: ModuleDefinition = {
  id: 'esm',
  title: 'Service desk',
  shortTitle: 'Service desk',
  description:
    'Service catalogue, service requests with workflow state, knowledge articles and departments. ' +
    'Reads are public; writes need a bearer token.',
  version: '1.0.0',
  itemParam: 'item_id',
  readErrors: 'detail',
  list: LIST,
  resources: [services, requests, knowledge, departments, agents],
  collections: [comments.collection],
  writes: [
    createRequest,
    updateRequest,
    draftArticleRoute,
    updateArticle,
    createAgent,
    updateAgent,
  ] as WriteRoute[],
  routes: [listComments, addCommentRoute(() => esmModule)] as ModuleRoute[],
  sweeps: [slaSweep],
  events: esmEvents,
  projector: esmProjector,
  seed: seedServiceDesk,
  seedAfter: ['hrm'],
};

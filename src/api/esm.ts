import { decidingPersonOf } from './kit/deciding';
import { z } from 'zod';
import { actOnRequest, submitRequest } from '../commands/esm/handlers';
import {
  REQUEST_PRIORITIES,
  REQUEST_STATUSES,
  esmEvents,
  esmStreams,
  type RequestPriority,
  type RequestStatus,
} from '../events/esm';
import {
  DepartmentRecord,
  KnowledgeArticleRecord,
  RequestRecord,
  ServiceRecord,
  esmProjector,
  requestsProjection,
} from '../projections/esm';
import { MAX_JSON_NESTING, jsonNestsDeeperThan } from '../json-nesting';
import { seedServiceDesk } from '../seed/esm';
import { ApiError } from './kit/errors';
import type { ModuleDefinition, ResourceDefinition, WriteRoute } from './kit/module';
import { caseInsensitiveEnum, idFilter } from './kit/parameters';
import { parseInteger } from './kit/validation';

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
    requester_id: optionalId,
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
    assignee_id: z.int().positive().optional(),
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

const departments: ResourceDefinition = {
  path: 'departments',
  name: 'Department',
  description: 'departments',
  record: DepartmentRecord,
  stream: (id) => esmStreams.department(Number(id)),
  collection: { name: 'esm.departments', idKind: 'integer', searchFields: ['name'], filterFields: [] },
};

const services: ResourceDefinition = {
  path: 'services',
  name: 'Service',
  description: 'catalogue services',
  record: ServiceRecord,
  stream: (id) => esmStreams.service(Number(id)),
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
  stream: (id) => esmStreams.request(Number(id)),
  collection: {
    name: 'esm.requests',
    idKind: 'integer',
    searchFields: ['ref', 'title', 'form_data'],
    jsonSearchFields: ['form_data'],
    filterFields: ['status', 'priority', 'service_id', 'department_id'],
  },
  filters: {
    status: statusFilter(REQUEST_STATUSES),
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
  stream: (id) => esmStreams.article(Number(id)),
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
  execute: ({ body, params, caller }, context) => {
    const id = parseInteger(params.item_id ?? '', ['path', 'item_id']);
    if (typeof id !== 'number')
      throw new ApiError('validation_error', `item_id: ${id.msg}`, { issues: [id] });
    return actOnRequest(context, id, {
      type: 'UpdateRequest',
      at: context.metadata().occurred_at,
      ...body,
      status: body.status as RequestStatus | undefined,
      decider: decidingPersonOf(caller),
    });
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
  list: { defaultLimit: 50, maxLimit: 200 },
  resources: [services, requests, knowledge, departments],
  writes: [createRequest, updateRequest] as WriteRoute[],
  events: esmEvents,
  projector: esmProjector,
  seed: seedServiceDesk,
};

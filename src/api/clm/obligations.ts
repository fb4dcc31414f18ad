import { z } from 'zod';
import { seesScope, type FeedResource } from '../../changes/change';
import { isoDate } from '../../clock';
import { reportedStatus, statusFilters, type StoredObligationStatus } from '../../clm/due-dates';
import { createObligation } from '../../commands/clm/handlers';
import { clmCollections } from '../../events/clm';
import { clmProjector, ObligationRecord, obligationsProjection } from '../../projections/clm';
import type { CollectionDefinition } from '../../projections/read-store';
import { orderParameters } from '../kit/list-order';
import { withRecordTimes } from '../kit/record-times';
import type { ModuleDefinition, ModuleRoute, ResourceDefinition, WriteRoute } from '../kit/module';
import { ErrorEnvelopeSchema } from '../kit/openapi';
import { caseInsensitiveEnum, dateString, queryFilters } from '../kit/parameters';
import {
  asOfAnswer,
  moduleRecord,
  TimeTravelQuery,
  travelDay,
  travelledAnswer,
  travels,
} from '../kit/time-travel';
import { executeWrite } from '../kit/writes';
import { listOf, pageParameters, workspacePage, workspaceRecord } from './lists';

export const obligationsCollection: CollectionDefinition = {
  name: clmCollections.obligations,
  idKind: 'string',
  searchFields: ['title'],
  filterFields: ['workspace_id', 'contract_id', 'status', 'due_date'],
};

type StoredObligation = Omit<ObligationRecord, 'status'> & { status: StoredObligationStatus };

export function presentObligation(doc: StoredObligation, today: string): ObligationRecord {
  return { ...doc, status: reportedStatus(doc.status, doc.due_date, today) };
}

const ObligationQuery = z.object({
  ...pageParameters,
  ...orderParameters(obligationsCollection),
  q: z.string().optional().meta({ description: 'Case-insensitive search in the title' }),
  contract_id: z.string().optional().meta({ description: 'Obligations of this contract' }),
  status: caseInsensitiveEnum(['open', 'overdue', 'completed'])
    .optional()
    .meta({ description: 'open (due today or later), overdue (open, due before today) or completed' }),
  due_before: dateString().optional().meta({ description: 'Due on or before this date (YYYY-MM-DD)' }),
});
type ObligationQuery = z.infer<typeof ObligationQuery>;

const error = (description: string) => ({ description, schema: ErrorEnvelopeSchema });

const listObligations: ModuleRoute<ObligationQuery> = {
  method: 'get',
  path: '/api/v1/obligations',
  operation: 'listObligations',
  summary: 'List the due work of the workspace\u2019s contracts',
  tags: ['obligations'],
  query: ObligationQuery,
  responses: {
    200: { description: 'A page of obligations', schema: listOf(ObligationRecord, 'ObligationCollection') },
    422: error('Invalid parameter'),
  },
  async handle({ query, caller }, services) {
    const today = isoDate(services.clock.now());
    const filters = [
      ...(query.status ? statusFilters(query.status, today) : []),
      ...queryFilters(query, { contract_id: 'contract_id', due_before: { field: 'due_date', op: 'lte' } }),
    ];
    return workspacePage(
      services.readStore,
      obligationsCollection,
      caller,
      query,
      filters,
      (doc: StoredObligation) => presentObligation(doc, today),
    );
  },
};

/** How a record read as of a point in time names and finds an obligation. */
const OBLIGATIONS = {
  name: 'Obligation',
  path: 'obligations',
};

const getObligation: ModuleRoute<TimeTravelQuery> = {
  method: 'get',
  path: '/api/v1/obligations/:id',
  operation: 'getObligation',
  summary:
    'Get one obligation of the workspace; with as_of, as_of_position or valid_at, as it was then (its status for that day)',
  tags: ['obligations'],
  params: z.object({ id: z.string() }),
  query: TimeTravelQuery,
  responses: {
    200: {
      description: 'Obligation (as of a point in time: under data, with meta naming the cut)',
      schema: z.union([withRecordTimes(ObligationRecord), asOfAnswer(ObligationRecord, 'ObligationAsOf')]),
    },
    404: error('No such obligation in this workspace (then)'),
    422: error('Invalid parameter'),
  },
  async handle({ params, query, caller }, services) {
    const id = params.id as string;
    if (travels(query)) {
      const record = moduleRecord(
        { id: 'clm', projector: clmProjector },
        clmCollections.obligations,
        id,
        OBLIGATIONS,
      );
      const day = travelDay(query, services.clock.now());
      return travelledAnswer(services, record, query, (doc) =>
        doc.workspace_id === caller.scope ? presentObligation(doc as StoredObligation, day) : null,
      );
    }
    const doc = await workspaceRecord<StoredObligation>(
      services.readStore,
      clmCollections.obligations,
      caller,
      id,
      'Obligation',
    );
    return { status: 200, body: presentObligation(doc, isoDate(services.clock.now())) };
  },
};

const ObligationCreation = z
  .strictObject({
    contract_id: z.string().min(1).max(64).meta({ description: 'A contract of the caller\u2019s workspace' }),
    title: z.string().trim().min(1).max(200),
    due_date: dateString(),
  })
  .meta({ id: 'ObligationCreation' });
type ObligationCreation = z.infer<typeof ObligationCreation>;

/** The obligation collection as the kit's write sees it: where a created record is found. */
const obligationsResource: ResourceDefinition = {
  path: 'obligations',
  name: 'Obligation',
  description: 'obligations',
  record: ObligationRecord,
  collection: obligationsCollection,
  scopeField: 'workspace_id',
};

const obligationWrite: WriteRoute<ObligationCreation> = {
  method: 'post',
  path: '/api/v1/obligations',
  operation: 'createObligation',
  summary: 'Create an obligation',
  body: ObligationCreation,
  status: 201,
  resource: obligationsResource,
  projection: obligationsProjection,
  execute: ({ body, caller }, context) =>
    createObligation(context, { workspace_id: caller.scope as string, ...body }),
};

/**
 * `POST /api/v1/obligations` runs through the kit's audited write (strict body, Idempotency-Key,
 * the actor and workspace on the event, read-your-writes) and answers the obligation as a read
 * would, with its status for today.
 */
function createObligationRoute(module: () => ModuleDefinition): ModuleRoute<unknown, ObligationCreation> {
  return {
    method: 'post',
    path: '/api/v1/obligations',
    operation: 'createObligation',
    summary: 'Create an audited obligation for a contract of the workspace (Idempotency-Key honoured)',
    tags: ['obligations'],
    body: ObligationCreation,
    responses: {
      201: { description: 'The created obligation', schema: ObligationRecord },
      400: error('Malformed JSON, or a missing header'),
      404: error('No such contract in this workspace'),
      413: error('Body too large'),
      415: error('Body is not JSON'),
      422: error('Invalid payload: unknown or missing field, invalid date'),
    },
    async handle({ body, caller, requestId, header }, services) {
      const answer = await executeWrite(module(), obligationWrite as WriteRoute, services, {
        params: {},
        body,
        header,
        requestId,
        caller,
      });
      const today = isoDate(services.clock.now());
      return {
        status: answer.status,
        headers: answer.headers,
        body: presentObligation(answer.body as StoredObligation, today),
      };
    },
  };
}

/** Obligations in the change feed: each workspace's, as `GET /api/v1/obligations/{id}` presents them today. */
export const obligationChanges: FeedResource = {
  ...OBLIGATIONS,
  collection: clmCollections.obligations,
  present: (doc, viewer, now) =>
    seesScope(viewer, doc.workspace_id) ? presentObligation(doc as StoredObligation, isoDate(now)) : null,
};

export const obligationRoutes = (module: () => ModuleDefinition) =>
  [listObligations, getObligation, createObligationRoute(module)] as ModuleRoute[];

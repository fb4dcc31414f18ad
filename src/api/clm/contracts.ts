import { z } from 'zod';
import { seesScope, type FeedResource } from '../../changes/change';
import { isoDate } from '../../clock';
import { summariseObligations } from '../../clm/due-dates';
import { CONTRACT_STATUSES, CONTRACT_TYPES, clmCollections } from '../../events/clm';
import { clmProjector, ContractRecord, type StoredContract } from '../../projections/clm';
import type { CollectionDefinition } from '../../projections/read-store';
import { ErrorEnvelopeSchema } from '../kit/openapi';
import { orderParameters } from '../kit/list-order';
import { withRecordTimes } from '../kit/record-times';
import type { ModuleRoute } from '../kit/module';
import { caseInsensitiveEnum, queryFilters } from '../kit/parameters';
import {
  asOfAnswer,
  moduleRecord,
  TimeTravelQuery,
  travelDay,
  travelledAnswer,
  travels,
} from '../kit/time-travel';
import { listOf, pageParameters, workspacePage, workspaceRecord } from './lists';

export const contractsCollection: CollectionDefinition = {
  name: clmCollections.contracts,
  idKind: 'string',
  searchFields: ['reference', 'title', 'counterparty_name'],
  filterFields: ['workspace_id', 'status', 'counterparty_id', 'type'],
};

/** A stored contract as answered: its obligation figures derived for `today`. */
export function presentContract(doc: StoredContract, today: string): ContractRecord {
  const { open_due_dates, ...contract } = doc;
  return { ...contract, ...summariseObligations(Object.values(open_due_dates), today) };
}

/** How a record read as of a point in time names and finds a contract: its events are on several streams. */
const CONTRACTS = { name: 'Contract', path: 'contracts' };
const clmProjectorModule = { id: 'clm', projector: clmProjector } as const;

const ContractQuery = z.object({
  ...pageParameters,
  ...orderParameters(contractsCollection),
  q: z
    .string()
    .optional()
    .meta({ description: 'Case-insensitive search in reference, title and counterparty name' }),
  status: caseInsensitiveEnum(CONTRACT_STATUSES).optional().meta({ description: 'Lifecycle status' }),
  counterparty_id: z.string().optional().meta({ description: 'Contracts with this counterparty' }),
  type: caseInsensitiveEnum(CONTRACT_TYPES).optional().meta({ description: 'Contract type' }),
});
type ContractQuery = z.infer<typeof ContractQuery>;

const listContracts: ModuleRoute<ContractQuery> = {
  method: 'get',
  path: '/api/v1/contracts',
  operation: 'listContracts',
  summary: 'List the workspace\u2019s contracts with their versions and obligation figures',
  tags: ['contracts'],
  query: ContractQuery,
  responses: {
    200: { description: 'A page of contracts', schema: listOf(ContractRecord, 'ContractCollection') },
    422: { description: 'Invalid parameter', schema: ErrorEnvelopeSchema },
  },
  async handle({ query, caller }, services) {
    const filters = queryFilters(query, {
      status: 'status',
      type: 'type',
      counterparty_id: 'counterparty_id',
    });
    const today = isoDate(services.clock.now());
    return workspacePage(
      services.readStore,
      contractsCollection,
      caller,
      query,
      filters,
      (doc: StoredContract) => presentContract(doc, today),
    );
  },
};

const getContract: ModuleRoute<TimeTravelQuery> = {
  method: 'get',
  path: '/api/v1/contracts/:id',
  operation: 'getContract',
  summary:
    'Get one contract of the workspace; with as_of, as_of_position or valid_at, as it was then (its figures for that day)',
  tags: ['contracts'],
  params: z.object({ id: z.string() }),
  query: TimeTravelQuery,
  responses: {
    200: {
      description: 'Contract (as of a point in time: under data, with meta naming the cut)',
      schema: z.union([withRecordTimes(ContractRecord), asOfAnswer(ContractRecord, 'ContractAsOf')]),
    },
    404: { description: 'No such contract in this workspace (then)', schema: ErrorEnvelopeSchema },
    422: { description: 'Invalid parameter', schema: ErrorEnvelopeSchema },
  },
  async handle({ params, query, caller }, services) {
    const id = params.id as string;
    if (travels(query)) {
      const record = moduleRecord(clmProjectorModule, clmCollections.contracts, id, CONTRACTS);
      const day = travelDay(query, services.clock.now());
      return travelledAnswer(services, record, query, (doc) =>
        doc.workspace_id === caller.scope ? presentContract(doc as StoredContract, day) : null,
      );
    }
    const doc = await workspaceRecord<StoredContract>(
      services.readStore,
      clmCollections.contracts,
      caller,
      id,
      'Contract',
    );
    return { status: 200, body: presentContract(doc, isoDate(services.clock.now())) };
  },
};

export const contractRoutes = [listContracts, getContract] as ModuleRoute[];

/** Contracts in the change feed: each workspace's, as `GET /api/v1/contracts/{id}` presents them today. */
export const contractChanges: FeedResource = {
  ...CONTRACTS,
  collection: clmCollections.contracts,
  present: (doc, viewer, now) =>
    seesScope(viewer, doc.workspace_id) ? presentContract(doc as StoredContract, isoDate(now)) : null,
};

import { z } from 'zod';
import { moveOpportunity } from '../commands/crm/handlers';
import {
  COMPANY_STATUSES,
  DEAL_STAGES,
  INDUSTRIES,
  LEAD_SOURCES,
  LEAD_STATUSES,
  LOST_REASONS,
  crmEvents,
} from '../events/crm';
import {
  CompanyRecord,
  ContactRecord,
  LeadRecord,
  OpportunityRecord,
  StageChangeRecord,
  crmProjector,
  opportunitiesProjection,
} from '../projections/crm';
import { seedCrm } from '../seed/crm';
import type { FilterDefinition, ModuleDefinition, ResourceDefinition, WriteRoute } from './kit/module';
import {
  booleanFilter,
  caseInsensitiveEnum,
  dateOrTimestamp,
  dateString,
  enumFilter,
  idFilter,
  pathId,
} from './kit/parameters';
import { freeText } from './kit/validation';

const ownerFilter: FilterDefinition = {
  field: 'owner',
  schema: z.string().trim().min(1),
  description: 'Exact owner (sales rep) name',
};

const contacts: ResourceDefinition = {
  path: 'contacts',
  name: 'Contact',
  description: 'people at customer and prospect companies',
  record: ContactRecord,
  collection: {
    name: 'crm.contacts',
    idKind: 'integer',
    searchFields: ['full_name', 'email', 'job_title', 'department'],
    filterFields: ['company_id', 'is_primary'],
  },
  filters: {
    company_id: idFilter('company_id', 'People of this company'),
    is_primary: booleanFilter('is_primary', 'Only primary contacts (true) or only the others (false)'),
  },
};

const companies: ResourceDefinition = {
  path: 'companies',
  name: 'Company',
  description: 'customer and prospect organisations',
  record: CompanyRecord,
  collection: {
    name: 'crm.companies',
    idKind: 'integer',
    searchFields: ['name', 'domain', 'city'],
    filterFields: ['status', 'industry', 'country', 'owner'],
  },
  filters: {
    status: enumFilter('status', COMPANY_STATUSES),
    industry: enumFilter('industry', INDUSTRIES),
    country: {
      field: 'country',
      schema: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'Input should be a two-letter country code')
        .transform((code) => code.toUpperCase()),
      description: 'ISO 3166-1 alpha-2 country code',
    },
    owner: ownerFilter,
  },
};

const leads: ResourceDefinition = {
  path: 'leads',
  name: 'Lead',
  description: 'sales leads, unqualified and qualified',
  record: LeadRecord,
  collection: {
    name: 'crm.leads',
    idKind: 'integer',
    searchFields: ['lead_name', 'email', 'organization', 'job_title'],
    filterFields: ['status', 'source', 'industry', 'owner'],
  },
  filters: {
    status: enumFilter('status', LEAD_STATUSES),
    source: enumFilter('source', LEAD_SOURCES),
    industry: enumFilter('industry', INDUSTRIES),
    owner: ownerFilter,
  },
};

const opportunities: ResourceDefinition = {
  path: 'opportunities',
  name: 'Opportunity',
  description: 'pipeline opportunities (deals) and their stages',
  record: OpportunityRecord,
  collection: {
    name: 'crm.opportunities',
    idKind: 'integer',
    searchFields: ['name', 'owner', 'next_step'],
    filterFields: ['stage', 'company_id', 'contact_id', 'lead_id', 'owner', 'expected_close_date'],
  },
  filters: {
    stage: enumFilter('stage', DEAL_STAGES),
    company_id: idFilter('company_id', 'Deals with this company'),
    contact_id: idFilter('contact_id', 'Deals with this contact'),
    lead_id: idFilter('lead_id', 'The deal a lead was converted into'),
    owner: ownerFilter,
    closing_before: {
      field: 'expected_close_date',
      op: 'lte',
      schema: dateString(),
      description: 'Expected to close on or before this date (YYYY-MM-DD)',
    },
  },
};

const stageChanges: ResourceDefinition = {
  path: 'stage-changes',
  name: 'Stage change',
  description: 'stage changes of the opportunities (their pipeline history), oldest first',
  record: StageChangeRecord,
  collection: {
    name: 'crm.stage-changes',
    idKind: 'integer',
    searchFields: ['lost_notes'],
    filterFields: ['opportunity_id', 'from_stage', 'to_stage', 'changed_at'],
  },
  filters: {
    opportunity_id: idFilter('opportunity_id', 'The history of this opportunity'),
    from_stage: enumFilter('from_stage', DEAL_STAGES),
    to_stage: enumFilter('to_stage', DEAL_STAGES),
    changed_after: {
      field: 'changed_at',
      op: 'gte',
      schema: dateOrTimestamp(),
      description: 'Changed at or after this date or time',
    },
    changed_before: {
      field: 'changed_at',
      op: 'lt',
      schema: dateOrTimestamp(),
      description: 'Changed before this date or time',
    },
  },
};

const StageMove = z
  .strictObject({
    stage: caseInsensitiveEnum(DEAL_STAGES).meta({
      description: 'The new stage; the probability follows it. Won and Lost close the deal.',
    }),
    lost_reason: caseInsensitiveEnum(LOST_REASONS)
      .optional()
      .meta({ description: 'Required with stage Lost, and only then' }),
    lost_notes: freeText().optional().meta({ description: 'Required when the lost reason is Other' }),
    reason: freeText()
      .optional()
      .meta({ description: 'Why the deal moves, kept in its stage history (`reason` of its stage change)' }),
  })
  .meta({ id: 'OpportunityStageMove' });

const moveOpportunityRoute: WriteRoute<z.infer<typeof StageMove>> = {
  method: 'patch',
  path: '/api/v1/opportunities/:id',
  operation: 'updateOpportunity',
  summary: 'Move an opportunity to a stage (Won and Lost close it)',
  body: StageMove,
  status: 200,
  resource: opportunities,
  projection: opportunitiesProjection,
  execute: ({ body, params }, context) => moveOpportunity(context, pathId(params), body),
};

export const crmModule: ModuleDefinition = {
  id: 'crm',
  title: 'Customer relationship',
  shortTitle: 'CRM',
  description:
    'Contacts, companies, leads and the opportunity pipeline. Reads are public; writes need a bearer token.',
  version: '1.0.0',
  itemParam: 'id',
  readErrors: 'envelope',
  list: { defaultLimit: 50, maxLimit: 200 },
  resources: [contacts, companies, leads, opportunities, stageChanges],
  writes: [moveOpportunityRoute] as WriteRoute[],
  events: crmEvents,
  projector: crmProjector,
  seed: seedCrm,
};

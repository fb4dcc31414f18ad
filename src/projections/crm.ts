import { z } from 'zod';
import {
  COMPANY_STATUSES,
  DEAL_STAGES,
  EMPLOYEE_RANGES,
  INDUSTRIES,
  LEAD_SOURCES,
  LEAD_STATUSES,
  LOST_REASONS,
  type CrmEvent,
  crmStreams,
} from '../events/crm';
import type { StoredEvent } from '../events/envelope';
import { id, text, textOrNull, oneOf, date, timestamp } from './fields';
import { idFromStream, type DocumentProjection, type Projector } from './projection';
import { derivedText } from '../privacy/sealed-value';

export const CompanyRecord = z
  .object({
    id,
    name: text,
    domain: text,
    website: text,
    industry: oneOf(INDUSTRIES),
    employees: oneOf(EMPLOYEE_RANGES, 'Head-count band'),
    annual_revenue: z.number().meta({ description: 'In `currency`' }),
    currency: text,
    country: text.meta({ description: 'ISO 3166-1 alpha-2' }),
    city: text,
    phone: text,
    owner: text.meta({ description: 'Account owner' }),
    status: oneOf(COMPANY_STATUSES),
    created_at: timestamp,
  })
  .meta({ id: 'Company' });

export const ContactRecord = z
  .object({
    id,
    company_id: id,
    salutation: textOrNull,
    first_name: text,
    last_name: text,
    full_name: text,
    email: text,
    phone: textOrNull,
    mobile: textOrNull,
    job_title: text,
    department: textOrNull,
    is_primary: z.boolean().meta({ description: 'The primary contact of the company' }),
    created_at: timestamp,
  })
  .meta({ id: 'Contact' });

export const LeadRecord = z
  .object({
    id,
    first_name: text,
    last_name: text,
    lead_name: text,
    email: text,
    phone: textOrNull,
    organization: text,
    job_title: textOrNull,
    website: textOrNull,
    industry: oneOf(INDUSTRIES),
    employees: oneOf(EMPLOYEE_RANGES),
    annual_revenue: z.number().nullable(),
    source: oneOf(LEAD_SOURCES),
    owner: text,
    status: oneOf(LEAD_STATUSES),
    converted_on: date.nullable().meta({ description: 'When the lead became an opportunity' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Lead' });

export const OpportunityRecord = z
  .object({
    id,
    name: text,
    company_id: id,
    contact_id: id,
    lead_id: id.nullable().meta({ description: 'The lead it was converted from' }),
    stage: oneOf(DEAL_STAGES),
    probability: z.number().int().meta({
      description:
        'Follows the stage: Qualification 10, Demo 25, Proposal 50, Negotiation 70, Ready to Close 90, Won 100, Lost 0',
    }),
    amount: z.number(),
    currency: text,
    expected_close_date: date,
    closed_on: date.nullable().meta({ description: 'When it was Won or Lost' }),
    lost_reason: oneOf(LOST_REASONS).nullable(),
    lost_notes: textOrNull,
    owner: text,
    source: oneOf(LEAD_SOURCES),
    next_step: textOrNull,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Opportunity' });

export const StageChangeRecord = z
  .object({
    id: id.meta({
      description:
        'The position of the event in the log: changes list in the order they happened, and the audit API proves each one',
    }),
    opportunity_id: id,
    from_stage: oneOf(DEAL_STAGES)
      .nullable()
      .meta({ description: 'null: the opportunity was opened in `to_stage`' }),
    to_stage: oneOf(DEAL_STAGES),
    probability: z.number().int().meta({ description: 'The probability the new stage stands for' }),
    lost_reason: oneOf(LOST_REASONS).nullable(),
    lost_notes: textOrNull,
    reason: textOrNull.meta({ description: 'Why the deal moved, as the move gave it' }),
    changed_at: timestamp,
  })
  .meta({ id: 'StageChange' });

export type CompanyRecord = z.infer<typeof CompanyRecord>;
export type ContactRecord = z.infer<typeof ContactRecord>;
export type LeadRecord = z.infer<typeof LeadRecord>;
export type OpportunityRecord = z.infer<typeof OpportunityRecord>;
export type StageChangeRecord = z.infer<typeof StageChangeRecord>;

type Event = StoredEvent & CrmEvent;

const companies: DocumentProjection<CompanyRecord> = {
  collection: 'crm.companies',
  handles: ['CompanyAdded'],
  documentId: idFromStream,
  stream: (id) => crmStreams.company(Number(id)),
  evolve: (_doc, stored) => {
    const event = stored as Extract<Event, { type: 'CompanyAdded' }>;
    return { ...event.data, created_at: event.metadata.occurred_at };
  },
};

const contacts: DocumentProjection<ContactRecord> = {
  collection: 'crm.contacts',
  handles: ['ContactAdded'],
  documentId: idFromStream,
  stream: (id) => crmStreams.contact(Number(id)),
  evolve: (_doc, stored) => {
    const { data, metadata } = stored as Extract<Event, { type: 'ContactAdded' }>;
    const { id, company_id, salutation, first_name, last_name, ...rest } = data;
    const full_name = derivedText([first_name, last_name]);
    return {
      id,
      company_id,
      salutation,
      first_name,
      last_name,
      full_name,
      ...rest,
      created_at: metadata.occurred_at,
    };
  },
};

function evolveLead(doc: LeadRecord | null, stored: StoredEvent): LeadRecord | null {
  const event = stored as Event;
  const at = event.metadata.occurred_at;
  if (event.type === 'LeadCaptured') {
    const { id, first_name, last_name, ...rest } = event.data;
    return {
      id,
      first_name,
      last_name,
      lead_name: derivedText([first_name, last_name]),
      ...rest,
      status: 'New',
      converted_on: null,
      created_at: at,
      updated_at: at,
    };
  }
  if (!doc || event.type !== 'LeadStatusChanged') return doc;
  const converted = event.data.to === 'Converted' ? event.data.changed_on.slice(0, 10) : null;
  return { ...doc, status: event.data.to, converted_on: converted, updated_at: at };
}

const leads: DocumentProjection<LeadRecord> = {
  collection: 'crm.leads',
  handles: ['LeadCaptured', 'LeadStatusChanged'],
  documentId: idFromStream,
  stream: (id) => crmStreams.lead(Number(id)),
  evolve: evolveLead,
  ownUpdatedAt: true,
};

function evolveOpportunity(doc: OpportunityRecord | null, stored: StoredEvent): OpportunityRecord | null {
  const event = stored as Event;
  const at = event.metadata.occurred_at;
  if (event.type === 'OpportunityOpened') {
    return {
      ...event.data,
      closed_on: null,
      lost_reason: null,
      lost_notes: null,
      created_at: at,
      updated_at: at,
    };
  }
  if (!doc || event.type !== 'OpportunityStageChanged') return doc;
  const { to, probability, changed_on, lost_reason, lost_notes } = event.data;
  const closed = to === 'Won' || to === 'Lost';
  return {
    ...doc,
    stage: to,
    probability,
    closed_on: closed ? changed_on.slice(0, 10) : null,
    lost_reason,
    lost_notes,
    updated_at: at,
  };
}

export const opportunitiesProjection: DocumentProjection<OpportunityRecord> = {
  collection: 'crm.opportunities',
  handles: ['OpportunityOpened', 'OpportunityStageChanged'],
  documentId: idFromStream,
  stream: (id) => crmStreams.opportunity(Number(id)),
  evolve: evolveOpportunity,
  ownUpdatedAt: true,
};

/**
 * The stage history of every opportunity, one record per event that put a deal in a stage (its opening
 * included), named by the event's position: a record is written once and never changes.
 */
function stageChange(_doc: StageChangeRecord | null, stored: StoredEvent): StageChangeRecord {
  const event = stored as Extract<Event, { type: 'OpportunityOpened' | 'OpportunityStageChanged' }>;
  const opportunity_id = idFromStream(event);
  if (event.type === 'OpportunityOpened') {
    const { stage, probability } = event.data;
    return {
      id: event.position,
      opportunity_id,
      from_stage: null,
      to_stage: stage,
      probability,
      lost_reason: null,
      lost_notes: null,
      reason: null,
      changed_at: event.metadata.occurred_at,
    };
  }
  const { from, to, probability, lost_reason, lost_notes, reason, changed_on } = event.data;
  return {
    id: event.position,
    opportunity_id,
    from_stage: from,
    to_stage: to,
    probability,
    lost_reason,
    lost_notes,
    reason: reason ?? null,
    changed_at: changed_on,
  };
}

const stageChanges: DocumentProjection<StageChangeRecord> = {
  collection: 'crm.stage-changes',
  handles: ['OpportunityOpened', 'OpportunityStageChanged'],
  documentId: (event) => event.position,
  writtenOnce: true,
  evolve: stageChange,
};

export const crmProjector: Projector = {
  name: 'crm',
  // 2: every record carries created_at and updated_at (`evolveStamped`); 3: a stage change's reason.
  version: 3,
  projections: [companies, contacts, leads, opportunitiesProjection, stageChanges],
};

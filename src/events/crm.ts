import { z } from 'zod';
import { defineEvent, ownPersonalData, type EventsOf } from './catalog';

const id = z.number().int().positive();
const timestamp = z.string();
const date = z.string().meta({ description: 'YYYY-MM-DD' });

export const COMPANY_STATUSES = ['Prospect', 'Customer', 'Partner', 'Former Customer'] as const;
/** Head-count bands, as Frappe CRM's `no_of_employees`. */
export const EMPLOYEE_RANGES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1000+'] as const;
export const INDUSTRIES = [
  'Manufacturing',
  'Retail',
  'Financial Services',
  'Healthcare',
  'Software',
  'Logistics',
  'Energy',
  'Education',
  'Public Sector',
  'Telecommunications',
  'Professional Services',
  'Hospitality',
] as const;

/** Lead statuses of Frappe CRM. */
export const LEAD_STATUSES = [
  'New',
  'Contacted',
  'Nurture',
  'Qualified',
  'Unqualified',
  'Junk',
  'Converted',
] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_SOURCES = [
  'Website',
  'Referral',
  'Cold Call',
  'Trade Show',
  'LinkedIn',
  'Partner',
  'Advertisement',
  'Email Campaign',
] as const;

/** Deal stages of Frappe CRM, in pipeline order, with the win probability each stands for. */
export const DEAL_STAGES = [
  'Qualification',
  'Demo',
  'Proposal',
  'Negotiation',
  'Ready to Close',
  'Won',
  'Lost',
] as const;
export type DealStage = (typeof DEAL_STAGES)[number];
export const STAGE_PROBABILITY: Record<DealStage, number> = {
  Qualification: 10,
  Demo: 25,
  Proposal: 50,
  Negotiation: 70,
  'Ready to Close': 90,
  Won: 100,
  Lost: 0,
};
export const LOST_REASONS = [
  'Price',
  'Competitor',
  'No Budget',
  'Timing',
  'No Decision',
  'Product Fit',
  'Other',
] as const;
export type LostReason = (typeof LOST_REASONS)[number];

export const crmEvents = [
  defineEvent(
    'CompanyAdded',
    z.object({
      id,
      name: z.string(),
      domain: z.string(),
      website: z.string(),
      industry: z.enum(INDUSTRIES),
      employees: z.enum(EMPLOYEE_RANGES),
      annual_revenue: z.number().nonnegative(),
      currency: z.string().length(3),
      country: z.string().length(2),
      city: z.string(),
      phone: z.string(),
      owner: z.string(),
      status: z.enum(COMPANY_STATUSES),
    }),
  ),
  defineEvent(
    'ContactAdded',
    z.object({
      id,
      company_id: id,
      salutation: z.string().nullable(),
      first_name: z.string(),
      last_name: z.string(),
      email: z.string(),
      phone: z.string().nullable(),
      mobile: z.string().nullable(),
      job_title: z.string(),
      department: z.string().nullable(),
      is_primary: z.boolean(),
    }),
    { personal: ownPersonalData('salutation', 'first_name', 'last_name', 'email', 'phone', 'mobile') },
  ),
  defineEvent(
    'LeadCaptured',
    z.object({
      id,
      first_name: z.string(),
      last_name: z.string(),
      email: z.string(),
      phone: z.string().nullable(),
      organization: z.string(),
      job_title: z.string().nullable(),
      website: z.string().nullable(),
      industry: z.enum(INDUSTRIES),
      employees: z.enum(EMPLOYEE_RANGES),
      annual_revenue: z.number().nonnegative().nullable(),
      source: z.enum(LEAD_SOURCES),
      owner: z.string(),
    }),
    { personal: ownPersonalData('first_name', 'last_name', 'email', 'phone') },
  ),
  defineEvent(
    'LeadStatusChanged',
    z.object({ from: z.enum(LEAD_STATUSES), to: z.enum(LEAD_STATUSES), changed_on: timestamp }),
  ),
  defineEvent(
    'OpportunityOpened',
    z.object({
      id,
      name: z.string(),
      company_id: id,
      contact_id: id,
      lead_id: id.nullable(),
      stage: z.enum(DEAL_STAGES),
      probability: z.number().int().min(0).max(100),
      amount: z.number().positive(),
      currency: z.string().length(3),
      expected_close_date: date,
      owner: z.string(),
      source: z.enum(LEAD_SOURCES),
      next_step: z.string().nullable(),
    }),
  ),
  defineEvent(
    'OpportunityStageChanged',
    z.object({
      from: z.enum(DEAL_STAGES),
      to: z.enum(DEAL_STAGES),
      probability: z.number().int().min(0).max(100),
      changed_on: timestamp,
      lost_reason: z.enum(LOST_REASONS).nullable(),
      lost_notes: z.string().nullable(),
      /** Why the deal moved, as the person who moved it said (absent from moves recorded before). */
      reason: z.string().nullable().optional(),
    }),
  ),
] as const;

export type CrmEvent = EventsOf<typeof crmEvents>;
export type CrmEventOf<Type extends CrmEvent['type']> = Extract<CrmEvent, { type: Type }>;

export const crmStreams = {
  company: (companyId: number) => `crm.company-${companyId}`,
  contact: (contactId: number) => `crm.contact-${contactId}`,
  lead: (leadId: number) => `crm.lead-${leadId}`,
  opportunity: (opportunityId: number) => `crm.opportunity-${opportunityId}`,
};

export const crmCategories = {
  company: 'crm.company',
  contact: 'crm.contact',
  lead: 'crm.lead',
  opportunity: 'crm.opportunity',
} as const;

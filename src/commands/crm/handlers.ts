import { eventCatalog } from '../../events/catalog';
import {
  crmCategories,
  crmEvents,
  crmStreams,
  type CrmEvent,
  type CrmEventOf,
  type DealStage,
  type LeadStatus,
  type LostReason,
} from '../../events/crm';
import { creationData, once, type CommandContext } from '../context';
import { moduleCommands } from '../module-commands';
import { companyDecider, contactDecider } from './accounts';
import { leadDecider } from './leads';
import { opportunityDecider } from './opportunities';

const { run, create } = moduleCommands(eventCatalog(crmEvents));

type Data<Type extends CrmEvent['type']> = CrmEventOf<Type>['data'];

/** The data of the event that created a record, if the record exists. */
const created = <Type extends CrmEvent['type']>(context: CommandContext, stream: string) =>
  creationData<Data<Type>>(context, stream);

export type CompanyInput = Omit<Data<'CompanyAdded'>, 'id'>;

export function addCompany(context: CommandContext, company: CompanyInput) {
  return create(context, crmCategories.company, companyDecider, (id) => ({
    type: 'AddCompany' as const,
    company: { id, ...company },
  }));
}

export type ContactInput = Omit<Data<'ContactAdded'>, 'id'>;

export function addContact(context: CommandContext, contact: ContactInput) {
  return create(context, crmCategories.contact, contactDecider, async (id) => ({
    type: 'AddContact' as const,
    contact: { id, ...contact },
    companyExists: (await created(context, crmStreams.company(contact.company_id))) !== undefined,
  }));
}

export type LeadInput = Omit<Data<'LeadCaptured'>, 'id'>;

export function captureLead(context: CommandContext, lead: LeadInput) {
  return create(context, crmCategories.lead, leadDecider, (id) => ({
    type: 'CaptureLead' as const,
    lead: { id, ...lead },
  }));
}

export function changeLeadStatus(context: CommandContext, leadId: number, status: LeadStatus) {
  const timed = once(context);
  return run(timed.context, crmStreams.lead(leadId), leadDecider, {
    type: 'ChangeLeadStatus',
    status,
    at: timed.at,
  });
}

export type OpportunityInput = Omit<Data<'OpportunityOpened'>, 'id' | 'probability'>;

export function openOpportunity(context: CommandContext, opportunity: OpportunityInput) {
  return create(context, crmCategories.opportunity, opportunityDecider, async (id) => ({
    type: 'OpenOpportunity' as const,
    opportunity: { id, ...opportunity },
    companyExists: (await created(context, crmStreams.company(opportunity.company_id))) !== undefined,
    contactCompanyId: (await created<'ContactAdded'>(context, crmStreams.contact(opportunity.contact_id)))
      ?.company_id,
    leadExists:
      opportunity.lead_id !== null &&
      (await created(context, crmStreams.lead(opportunity.lead_id))) !== undefined,
  }));
}

export interface StageMove {
  stage: DealStage;
  lost_reason?: LostReason;
  lost_notes?: string;
  reason?: string;
}

export function moveOpportunity(context: CommandContext, opportunityId: number, move: StageMove) {
  const timed = once(context);
  return run(timed.context, crmStreams.opportunity(opportunityId), opportunityDecider, {
    type: 'MoveOpportunity',
    ...move,
    at: timed.at,
  });
}

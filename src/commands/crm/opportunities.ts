import {
  STAGE_PROBABILITY,
  type CrmEvent,
  type CrmEventOf,
  type DealStage,
  type LostReason,
} from '../../events/crm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type OpportunityEvent = Extract<CrmEvent, { type: `Opportunity${string}` }>;

export interface OpenOpportunity {
  type: 'OpenOpportunity';
  opportunity: Omit<CrmEventOf<'OpportunityOpened'>['data'], 'probability'>;
  companyExists: boolean;
  /** The company of the contact it names; `undefined`: no such contact. */
  contactCompanyId: number | undefined;
  leadExists: boolean;
}

/** A move to another stage; Lost needs a reason (and notes when the reason is Other). */
export interface MoveOpportunity {
  type: 'MoveOpportunity';
  stage: DealStage;
  lost_reason?: LostReason;
  lost_notes?: string;
  /** Why it moves, kept in the stage history. */
  reason?: string;
  at: string;
}

export type OpportunityCommand = OpenOpportunity | MoveOpportunity;

/** Won and Lost close a deal: no stage change leaves them. */
export const CLOSED_STAGES: readonly DealStage[] = ['Won', 'Lost'];

function open(command: OpenOpportunity): OpportunityEvent[] {
  const { opportunity } = command;
  if (!command.companyExists) {
    throw invalidField('company_id', `company ${opportunity.company_id} does not exist`);
  }
  if (command.contactCompanyId === undefined) {
    throw invalidField('contact_id', `contact ${opportunity.contact_id} does not exist`);
  }
  if (command.contactCompanyId !== opportunity.company_id) {
    throw invalidField('contact_id', `contact ${opportunity.contact_id} works for another company`);
  }
  if (opportunity.lead_id !== null && !command.leadExists) {
    throw invalidField('lead_id', `lead ${opportunity.lead_id} does not exist`);
  }
  if (CLOSED_STAGES.includes(opportunity.stage)) throw invalidField('stage', 'a new opportunity is open');
  const probability = STAGE_PROBABILITY[opportunity.stage];
  return [{ type: 'OpportunityOpened', data: { ...opportunity, probability } }];
}

function move(command: MoveOpportunity, from: DealStage): OpportunityEvent[] {
  const { stage: to } = command;
  if (to === 'Lost') {
    if (command.lost_reason === undefined)
      throw invalidField('lost_reason', 'is required to mark a deal Lost');
    if (command.lost_reason === 'Other' && !command.lost_notes) {
      throw invalidField('lost_notes', 'are required when the lost reason is Other');
    }
  } else {
    if (command.lost_reason !== undefined) throw invalidField('lost_reason', 'is only given with stage Lost');
    if (command.lost_notes !== undefined) throw invalidField('lost_notes', 'are only given with stage Lost');
  }
  if (to === from) return [];
  if (CLOSED_STAGES.includes(from)) {
    throw new DomainError('illegal_transition', `A deal that is ${from} is closed; it cannot move to ${to}`, {
      from,
      to,
    });
  }
  const data = {
    from,
    to,
    probability: STAGE_PROBABILITY[to],
    changed_on: command.at,
    lost_reason: command.lost_reason ?? null,
    lost_notes: command.lost_notes ?? null,
    reason: command.reason ?? null,
  };
  return [{ type: 'OpportunityStageChanged', data }];
}

export const opportunityDecider: Decider<OpportunityCommand, { stage: DealStage } | null, OpportunityEvent> =
  {
    initialState: () => null,
    evolve: (_state, event) => ({
      stage: event.type === 'OpportunityOpened' ? event.data.stage : event.data.to,
    }),
    decide(command, state) {
      if (command.type === 'OpenOpportunity') {
        if (state) throw new DomainError('already_exists', `Opportunity ${command.opportunity.id} exists`);
        return open(command);
      }
      if (!state) throw new DomainError('not_found', 'Opportunity not found');
      return move(command, state.stage);
    },
  };

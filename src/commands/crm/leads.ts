import type { CrmEvent, CrmEventOf, LeadStatus } from '../../events/crm';
import type { Decider } from '../decider';
import { DomainError } from '../errors';

type LeadEvent = Extract<CrmEvent, { type: `Lead${string}` }>;

export type LeadCommand =
  | { type: 'CaptureLead'; lead: CrmEventOf<'LeadCaptured'>['data'] }
  | { type: 'ChangeLeadStatus'; status: LeadStatus; at: string };

/** Every legal move of a lead's status; Converted, Unqualified and Junk are final. */
export const LEAD_TRANSITIONS: Record<LeadStatus, readonly LeadStatus[]> = {
  New: ['Contacted', 'Unqualified', 'Junk'],
  Contacted: ['Nurture', 'Qualified', 'Unqualified', 'Junk'],
  Nurture: ['Contacted', 'Qualified', 'Unqualified'],
  Qualified: ['Converted', 'Nurture', 'Unqualified'],
  Converted: [],
  Unqualified: [],
  Junk: [],
};

export const leadDecider: Decider<LeadCommand, { status: LeadStatus } | null, LeadEvent> = {
  initialState: () => null,
  evolve: (_state, event) => ({ status: event.type === 'LeadCaptured' ? 'New' : event.data.to }),
  decide(command, state) {
    if (command.type === 'CaptureLead') {
      if (state) throw new DomainError('already_exists', `Lead ${command.lead.id} exists`);
      return [{ type: 'LeadCaptured', data: command.lead }];
    }
    if (!state) throw new DomainError('not_found', 'Lead not found');
    if (command.status === state.status) return [];
    if (!LEAD_TRANSITIONS[state.status].includes(command.status)) {
      throw new DomainError(
        'illegal_transition',
        `A lead cannot move from ${state.status} to ${command.status}`,
        {
          from: state.status,
          to: command.status,
        },
      );
    }
    return [
      { type: 'LeadStatusChanged', data: { from: state.status, to: command.status, changed_on: command.at } },
    ];
  },
};

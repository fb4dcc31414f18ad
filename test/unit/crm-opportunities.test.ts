import {
  opportunityDecider,
  type MoveOpportunity,
  type OpenOpportunity,
} from '../../src/commands/crm/opportunities';
import { leadDecider } from '../../src/commands/crm/leads';
import type { CrmEventOf, DealStage } from '../../src/events/crm';
import { deal, lead } from '../support/crm-fixtures';
import { deciderSpec } from '../support/decider-spec';

const at = '2026-11-21T09:30:00Z';
const opportunity: OpenOpportunity['opportunity'] = {
  id: 9,
  ...deal({ name: 'Nordlicht Logistics \u2013 HR Suite renewal', company_id: 3, contact_id: 12 }),
};
const opened = (stage: DealStage = 'Proposal'): CrmEventOf<'OpportunityOpened'> => ({
  type: 'OpportunityOpened',
  data: { ...opportunity, stage, probability: 50 },
});
const move = (stage: DealStage, extra: Partial<MoveOpportunity> = {}): MoveOpportunity => ({
  type: 'MoveOpportunity',
  stage,
  at,
  ...extra,
});
const moved = (
  from: DealStage,
  to: DealStage,
  probability: number,
  lost_reason = null,
  lost_notes = null,
  reason: string | null = null,
) => ({
  type: 'OpportunityStageChanged' as const,
  data: { from, to, probability, changed_on: at, lost_reason, lost_notes, reason },
});

describe('opportunities', () => {
  const given = deciderSpec(opportunityDecider);
  const open = (overrides: Partial<OpenOpportunity> = {}): OpenOpportunity => ({
    type: 'OpenOpportunity',
    opportunity,
    companyExists: true,
    contactCompanyId: 3,
    leadExists: false,
    ...overrides,
  });

  it('opens a deal with the probability of its stage', () => {
    given([])
      .when(open())
      .then([{ type: 'OpportunityOpened', data: { ...opportunity, probability: 10 } }]);
  });

  it('refuses a contact of another company, or one that does not exist', () => {
    given([])
      .when(open({ contactCompanyId: 4 }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^contact_id/) });
    given([])
      .when(open({ contactCompanyId: undefined }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^contact_id/) });
  });

  it.each([
    ['Qualification', 10],
    ['Demo', 25],
    ['Negotiation', 70],
    ['Ready to Close', 90],
    ['Won', 100],
  ] as const)('moves an open deal to %s with probability %i', (stage, probability) => {
    given([opened()])
      .when(move(stage))
      .then([moved('Proposal', stage, probability)]);
  });

  it('keeps the reason a move gives', () => {
    given([opened()])
      .when(move('Negotiation', { reason: 'Budget confirmed' }))
      .then([moved('Proposal', 'Negotiation', 70, null, null, 'Budget confirmed')]);
  });

  it('marks a deal Lost with its reason, and with notes when the reason is Other', () => {
    given([opened()])
      .when(move('Lost', { lost_reason: 'Competitor' }))
      .then([
        {
          ...moved('Proposal', 'Lost', 0),
          data: { ...moved('Proposal', 'Lost', 0).data, lost_reason: 'Competitor' },
        },
      ]);
    given([opened()])
      .when(move('Lost', { lost_reason: 'Other' }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^lost_notes/) });
  });

  it('requires lost_reason for Lost and refuses it for any other stage', () => {
    given([opened()])
      .when(move('Lost'))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^lost_reason/) });
    given([opened()])
      .when(move('Won', { lost_reason: 'Price' }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^lost_reason/) });
  });

  it.each(['Won', 'Lost'] as const)('keeps a %s deal closed (409)', (closed) => {
    given([opened(), moved('Proposal', closed, closed === 'Won' ? 100 : 0)])
      .when(move('Negotiation'))
      .thenThrows({ code: 'illegal_transition', details: { from: closed, to: 'Negotiation' } });
  });

  it('decides nothing for a move to the stage it is in', () => {
    given([opened()]).when(move('Proposal')).then([]);
  });

  it('answers not_found for a deal that does not exist', () => {
    given([]).when(move('Demo')).thenThrows({ code: 'not_found' });
  });
});

describe('leads', () => {
  const given = deciderSpec(leadDecider);
  const captured: CrmEventOf<'LeadCaptured'> = {
    type: 'LeadCaptured',
    data: { id: 1, ...lead({ email: 'sanne.dejong@polaris.example' }) },
  };

  it('contacts a new lead and qualifies it', () => {
    given([captured])
      .when({ type: 'ChangeLeadStatus', status: 'Contacted', at })
      .then([{ type: 'LeadStatusChanged', data: { from: 'New', to: 'Contacted', changed_on: at } }]);
  });

  it('refuses to convert a lead that is not qualified, and to revive a junk lead', () => {
    given([captured])
      .when({ type: 'ChangeLeadStatus', status: 'Converted', at })
      .thenThrows({ code: 'illegal_transition' });
    given([captured, { type: 'LeadStatusChanged', data: { from: 'New', to: 'Junk', changed_on: at } }])
      .when({ type: 'ChangeLeadStatus', status: 'Contacted', at })
      .thenThrows({ code: 'illegal_transition' });
  });
});

import type { Decider } from '../../commands/decider';
import { DomainError } from '../../commands/errors';
import type { PersonalPlace } from '../../privacy/personal-places';
import type { ProposalEvent, ProposalEventOf, WithdrawalReason } from './events';

export type ProposalStatus =
  'pending' | 'approved' | 'applied' | 'failed' | 'rejected' | 'expired' | 'withdrawn';

interface ProposalState {
  status: ProposalStatus | 'none';
  proposedBy?: string;
  /** The proposer's person (their actor for proposals made before persons were recorded). */
  proposerPerson?: string;
  expiresAt?: string;
}

export type ProposalCommand =
  | { type: 'Propose'; proposal: ProposalEventOf<'ChangeProposed'>['data'] }
  | {
      type: 'Approve';
      id: string;
      approvedBy: string;
      approverPerson: string;
      approverEmployee: number | null;
      at: Date;
    }
  | {
      type: 'RecordApplied';
      id: string;
      result: unknown;
      position: number;
      personalData: readonly PersonalPlace[];
    }
  | { type: 'RecordFailed'; id: string; error: { code: string; message: string } }
  | { type: 'Reject'; id: string; rejectedBy: string; reason: string; at: Date }
  | { type: 'Expire'; id: string; at: Date }
  | { type: 'Withdraw'; id: string; reason: WithdrawalReason };

/** The status a proposal has after each of its events. */
export const STATUS_AFTER: Readonly<Record<ProposalEvent['type'], ProposalStatus>> = {
  ChangeProposed: 'pending',
  ChangeApproved: 'approved',
  ChangeApplied: 'applied',
  ChangeFailed: 'failed',
  ChangeRejected: 'rejected',
  ChangeExpired: 'expired',
  ChangeWithdrawn: 'withdrawn',
};

export const isPastExpiry = (expiresAt: string | undefined, at: Date) =>
  expiresAt !== undefined && new Date(expiresAt).getTime() <= at.getTime();

function decidable(state: ProposalState, at: Date): void {
  if (state.status === 'none') throw new DomainError('not_found', 'No such proposal');
  if (state.status === 'pending' && isPastExpiry(state.expiresAt, at)) {
    throw new DomainError('proposal_expired', 'The proposal has expired');
  }
  if (state.status !== 'pending') {
    throw new DomainError('proposal_not_pending', `The proposal is ${state.status} already`, {
      status: state.status,
    });
  }
}

/**
 * A proposal is decided once: approved by a person other than its proposer, whichever credential
 * either used (then applied, or failed), rejected, expired, or withdrawn once its proposer's key
 * ended. Only one of two approvers at once can take the decision.
 */
export const proposalDecider: Decider<ProposalCommand, ProposalState, ProposalEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) =>
    event.type === 'ChangeProposed'
      ? {
          status: 'pending',
          proposedBy: event.data.caller.actor,
          proposerPerson: event.data.caller.person ?? event.data.caller.actor,
          expiresAt: event.data.expires_at,
        }
      : { ...state, status: STATUS_AFTER[event.type] },
  decide(command, state) {
    switch (command.type) {
      case 'Propose':
        if (state.status !== 'none') throw new DomainError('already_exists', 'This proposal exists already');
        return [{ type: 'ChangeProposed', data: command.proposal }];
      case 'Approve':
        if (command.approvedBy === state.proposedBy || command.approverPerson === state.proposerPerson) {
          throw new DomainError('self_approval', 'A proposal is approved by someone other than its proposer');
        }
        decidable(state, command.at);
        return [
          {
            type: 'ChangeApproved',
            data: {
              id: command.id,
              approved_by: command.approvedBy,
              approver_person: command.approverPerson,
              approver_employee: command.approverEmployee,
            },
          },
        ];
      case 'RecordApplied':
      case 'RecordFailed':
        if (state.status !== 'approved') {
          throw new DomainError('proposal_not_pending', `The proposal is ${state.status}`);
        }
        return command.type === 'RecordApplied'
          ? [
              {
                type: 'ChangeApplied',
                data: {
                  id: command.id,
                  result: command.result,
                  position: command.position,
                  ...(command.personalData.length > 0 && { personal_data: [...command.personalData] }),
                },
              },
            ]
          : [{ type: 'ChangeFailed', data: { id: command.id, error: command.error } }];
      case 'Reject':
        decidable(state, command.at);
        return [
          {
            type: 'ChangeRejected',
            data: { id: command.id, rejected_by: command.rejectedBy, reason: command.reason },
          },
        ];
      case 'Withdraw':
        return state.status === 'pending'
          ? [{ type: 'ChangeWithdrawn', data: { id: command.id, reason: command.reason } }]
          : [];
      case 'Expire':
        return state.status === 'pending' && isPastExpiry(state.expiresAt, command.at)
          ? [{ type: 'ChangeExpired', data: { id: command.id } }]
          : [];
    }
  },
};

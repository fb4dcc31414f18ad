import type { ClmEventOf } from '../../events/clm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type ObligationEvent = ClmEventOf<'ObligationCreated'> | ClmEventOf<'ObligationCompleted'>;

export interface CreateObligation {
  type: 'CreateObligation';
  obligation: ClmEventOf<'ObligationCreated'>['data'];
  /** The contract it names, as its stream tells; `undefined` when there is none. */
  contract: { workspace_id: string } | undefined;
}

export interface CompleteObligation {
  type: 'CompleteObligation';
  workspace_id: string;
  on: string;
}

export type ObligationState = {
  workspace_id: string;
  contract_id: string;
  due_date: string;
  completed: boolean;
} | null;

export const obligationDecider: Decider<
  CreateObligation | CompleteObligation,
  ObligationState,
  ObligationEvent
> = {
  initialState: () => null,
  evolve(state, event) {
    if (event.type === 'ObligationCreated') {
      const { workspace_id, contract_id, due_date } = event.data;
      return { workspace_id, contract_id, due_date, completed: false };
    }
    return state && { ...state, completed: true };
  },
  decide(command, state) {
    if (command.type === 'CreateObligation') {
      const { obligation, contract } = command;
      if (state) throw new DomainError('already_exists', `Obligation ${obligation.id} exists`);
      // Another workspace's contract is not found, exactly like one that does not exist.
      if (contract?.workspace_id !== obligation.workspace_id) {
        throw new DomainError('not_found', `Contract ${obligation.contract_id} not found`, {
          issues: [
            { loc: ['body', 'contract_id'], msg: 'No such contract in this workspace', type: 'not_found' },
          ],
        });
      }
      if (obligation.title.trim() === '') throw invalidField('title', 'must not be blank');
      return [{ type: 'ObligationCreated', data: obligation }];
    }
    if (!state || state.workspace_id !== command.workspace_id) {
      throw new DomainError('not_found', 'Obligation not found');
    }
    if (state.completed) return [];
    return [
      {
        type: 'ObligationCompleted',
        data: { workspace_id: state.workspace_id, contract_id: state.contract_id, completed_on: command.on },
      },
    ];
  },
};

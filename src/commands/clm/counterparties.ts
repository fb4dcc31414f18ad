import type { ClmEventOf } from '../../events/clm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type CounterpartyRegistered = ClmEventOf<'CounterpartyRegistered'>;

export interface RegisterCounterparty {
  type: 'RegisterCounterparty';
  counterparty: CounterpartyRegistered['data'];
  workspaceExists: boolean;
}

export const counterpartyDecider: Decider<RegisterCounterparty, { exists: boolean }, CounterpartyRegistered> =
  {
    initialState: () => ({ exists: false }),
    evolve: () => ({ exists: true }),
    decide({ counterparty, workspaceExists }, state) {
      if (state.exists) throw new DomainError('already_exists', `Counterparty ${counterparty.id} exists`);
      if (!workspaceExists) {
        throw invalidField('workspace_id', `workspace ${counterparty.workspace_id} does not exist`);
      }
      const emails = counterparty.contacts.map((contact) => contact.email.toLowerCase());
      if (new Set(emails).size !== emails.length) throw invalidField('contacts', 'emails must be unique');
      return [{ type: 'CounterpartyRegistered', data: counterparty }];
    },
  };

import type { EsmEventOf } from '../../events/esm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type AgentEvent = EsmEventOf<'AgentAdded' | 'AgentDeactivated' | 'AgentReactivated'>;

export type AgentCommand =
  | {
      type: 'AddAgent';
      agent: EsmEventOf<'AgentAdded'>['data'];
      /** Whether the department the agent works in exists (when one is named). */
      departmentExists: boolean;
    }
  | { type: 'SetAgentActive'; is_active: boolean; at: string };

export type AgentState = { is_active: boolean } | null;

/** Service desk agents: added active; deactivated agents keep their requests but take no new ones. */
export const agentDecider: Decider<AgentCommand, AgentState, AgentEvent> = {
  initialState: () => null,
  evolve(_state, event) {
    return { is_active: event.type !== 'AgentDeactivated' };
  },
  decide(command, state) {
    if (command.type === 'AddAgent') {
      if (state) throw new DomainError('already_exists', `Agent ${command.agent.id} exists`);
      const { department_id } = command.agent;
      if (department_id !== null && !command.departmentExists) {
        throw invalidField('department_id', `department ${department_id} does not exist`);
      }
      return [{ type: 'AgentAdded', data: command.agent }];
    }
    if (!state) throw new DomainError('not_found', 'Agent not found');
    if (command.is_active === state.is_active) return [];
    return command.is_active
      ? [{ type: 'AgentReactivated', data: { reactivated_on: command.at } }]
      : [{ type: 'AgentDeactivated', data: { deactivated_on: command.at } }];
  },
};

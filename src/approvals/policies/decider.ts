import type { Decider } from '../../commands/decider';
import { DomainError } from '../../commands/errors';
import type { Role } from '../../iam/principal';
import type { PolicyEvent, PolicyEventOf } from './events';

export interface RequireApproval {
  type: 'RequireApproval';
  policy: PolicyEventOf<'ApprovalRequired'>['data'];
  /** The module's writes that may wait for an approval (`proposableRoutes`). */
  proposable: readonly string[];
}

export type PolicyCommand =
  | RequireApproval
  | { type: 'ClearApprovalRequirement'; policy: PolicyEventOf<'ApprovalRequirementCleared'>['data'] };

/** The approver role of each route of the module under a policy. */
type PolicyState = ReadonlyMap<string, Role>;

/** The role that may never approve: auditing is a separate duty from taking business decisions. */
export const NEVER_APPROVES: Role = 'auditor';

function putUnderPolicy({ policy, proposable }: RequireApproval, state: PolicyState): PolicyEvent[] {
  if (policy.approver_role === NEVER_APPROVES) {
    throw new DomainError(
      'validation_error',
      'approver_role: auditor cannot approve: auditing is a separate duty, and an auditor takes no business decision',
      { field: 'approver_role' },
    );
  }
  if (!proposable.includes(policy.route)) {
    const writes =
      proposable.length === 0
        ? `${policy.module} has no write that can wait for an approval`
        : `the writes of ${policy.module} that can wait for an approval are ${proposable.join(', ')}`;
    const message = `${policy.module} "${policy.route}" cannot be put under a policy: ${writes}`;
    throw new DomainError('validation_error', message, { routes: proposable });
  }
  if (state.get(policy.route) === policy.approver_role) return [];
  return [{ type: 'ApprovalRequired', data: policy }];
}

/**
 * A module's approval policies: a route is under one, with an approver role, or not. Requiring again
 * with another role changes the role; with the same role, nothing.
 */
export const policyDecider: Decider<PolicyCommand, PolicyState, PolicyEvent> = {
  initialState: () => new Map(),
  evolve(state, event) {
    const next = new Map(state);
    if (event.type === 'ApprovalRequired') next.set(event.data.route, event.data.approver_role);
    else next.delete(event.data.route);
    return next;
  },
  decide(command, state) {
    if (command.type === 'RequireApproval') return putUnderPolicy(command, state);
    const { module, route } = command.policy;
    if (!state.has(route)) throw new DomainError('not_found', `${module} has no policy on "${route}"`);
    return [{ type: 'ApprovalRequirementCleared', data: command.policy }];
  },
};

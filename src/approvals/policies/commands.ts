import { proposableRoutes, type SuiteModule } from '../../modules/module';
import type { CommandContext } from '../../commands/context';
import { moduleCommands } from '../../commands/module-commands';
import { eventCatalog } from '../../events/catalog';
import type { Role } from '../../iam/principal';
import { policyDecider } from './decider';
import { policyEvents, policyStreams } from './events';

const { run } = moduleCommands(eventCatalog(policyEvents));

/** Puts a write of the module under a policy, or changes the role that approves under it. */
export function requireApproval(
  context: CommandContext,
  module: SuiteModule,
  route: string,
  approverRole: Role,
) {
  return run(context, policyStreams.policies(module.id), policyDecider, {
    type: 'RequireApproval',
    policy: { module: module.id, route, approver_role: approverRole },
    proposable: proposableRoutes(module),
  });
}

export function clearApprovalRequirement(context: CommandContext, module: SuiteModule, route: string) {
  return run(context, policyStreams.policies(module.id), policyDecider, {
    type: 'ClearApprovalRequirement',
    policy: { module: module.id, route },
  });
}

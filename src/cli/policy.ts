import { InvalidArgumentError, type Command } from 'commander';
import type { ModuleDefinition } from '../api/kit/module';
import { MODULES } from '../api/modules';
import { NEVER_APPROVES } from '../approvals/policies/decider';
import {
  clearApprovalRequirement,
  policiesInLog,
  requireApproval,
  type PolicyRecord,
} from '../approvals/policies';
import { ROLES, isRole, type Role } from '../iam/principal';
import { alignedColumns, dataDirOption, operatorContext, withStores } from './common';
import { jsonText, escaped } from './terminal';

function moduleNamed(value: string): ModuleDefinition {
  const module = MODULES.find((candidate) => candidate.id === value);
  if (!module) throw new InvalidArgumentError(`the modules are: ${MODULES.map(({ id }) => id).join(', ')}`);
  return module;
}

function role(value: string): Role {
  if (!isRole(value)) throw new InvalidArgumentError(`the roles are: ${ROLES.join(', ')}`);
  if (value === NEVER_APPROVES) {
    throw new InvalidArgumentError(
      'auditor cannot approve: auditing is a separate duty, and an auditor takes no business decision',
    );
  }
  return value;
}

function table(policies: readonly PolicyRecord[]): string[] {
  const rows = [
    ['MODULE', 'ROUTE', 'APPROVER ROLE', 'REQUIRED', 'BY'],
    ...policies.map((policy) => [
      policy.module,
      policy.route,
      policy.approver_role,
      policy.required_at,
      policy.required_by,
    ]),
  ];
  return alignedColumns(rows);
}

const ROUTE_HELP = 'the write as the module describes it, in quotes: "PATCH /api/v1/leave/{id}"';

/** `suite policy require-approval`, `suite policy clear` and `suite policy list`. */
export function addPolicyCommands(program: Command): void {
  const policy = program
    .command('policy')
    .description(
      'approval policies: a write under one waits for a second principal holding the approver role; a running suite follows a change within a second',
    );

  policy
    .command('require-approval')
    .description('put a write of a module under a policy, or change its approver role')
    .argument('<module>', 'the module id', moduleNamed)
    .argument('<route>', ROUTE_HELP)
    .addOption(dataDirOption())
    .option('--approver-role <role>', 'the role that approves (default: <module>:approver)', role)
    .action(
      async (module: ModuleDefinition, route: string, options: { dataDir?: string; approverRole?: Role }) => {
        await withStores(options, async (suite) => {
          const approver = options.approverRole ?? `${module.id}:approver`;
          const { outcome } = await requireApproval(operatorContext(suite), module, route, approver);
          console.log(
            outcome.events.length > 0
              ? escaped`${module.id} "${route}" now waits for the approval of ${approver}.`
              : escaped`${module.id} "${route}" already waits for the approval of ${approver}; nothing changed.`,
          );
        });
      },
    );

  policy
    .command('clear')
    .description('take a write of a module out of its policy: it applies at once again')
    .argument('<module>', 'the module id', moduleNamed)
    .argument('<route>', ROUTE_HELP)
    .addOption(dataDirOption())
    .action(async (module: ModuleDefinition, route: string, options: { dataDir?: string }) => {
      await withStores(options, async (suite) => {
        await clearApprovalRequirement(operatorContext(suite), module, route);
        console.log(escaped`${module.id} "${route}" no longer waits for an approval.`);
      });
    });

  policy
    .command('list')
    .description('list the policies and the role that approves under each, as the log records them')
    .addOption(dataDirOption())
    .option('--json', 'print them as a JSON array')
    .action(async (options: { dataDir?: string; json?: boolean }) => {
      await withStores(options, async (suite) => {
        const policies = await policiesInLog(suite.eventStore);
        if (options.json) console.log(jsonText(policies, 2));
        else {
          if (policies.length > 0) for (const line of table(policies)) console.log(line);
          console.log(`${policies.length} ${policies.length === 1 ? 'policy' : 'policies'}`);
        }
      });
    });
}

import { z } from 'zod';
import { MODULE_IDS, type ModuleId } from '../../modules/ids';
import { defineEvent, type EventsOf } from '../../events/catalog';
import { ROLES } from '../../iam/principal';

/** A write as its module's description names it (`routeName`): `PATCH /api/v1/leave/{id}`. */
export const ROUTE_NAME = /^(POST|PUT|PATCH|DELETE) \/\S*$/;

const moduleId = z.enum(MODULE_IDS);
const route = z.string().regex(ROUTE_NAME);

export const policyEvents = [
  defineEvent('ApprovalRequired', z.object({ module: moduleId, route, approver_role: z.enum(ROLES) })),
  defineEvent('ApprovalRequirementCleared', z.object({ module: moduleId, route })),
] as const;

export type PolicyEvent = EventsOf<typeof policyEvents>;
export type PolicyEventOf<Type extends PolicyEvent['type']> = Extract<PolicyEvent, { type: Type }>;

/** One stream per module holds the policies on its routes. */
export const policyStreams = {
  policies: (moduleId: ModuleId) => `approvals.policy-${moduleId}`,
};

import type { ModuleId } from '../../modules/ids';
import type { StoredEvent } from '../../events/envelope';
import type { DocumentProjection } from '../../projections/projection';
import type { CollectionDefinition, ReadStore } from '../../projections/read-store';
import type { Role } from '../../iam/principal';
import type { PolicyEvent } from './events';

export const POLICIES_COLLECTION = 'approvals.policies';

export type PolicyRecord = {
  /** `<module> <METHOD PATH>`: `hrm PATCH /api/v1/leave/{id}`. */
  id: string;
  module: ModuleId;
  route: string;
  approver_role: Role;
  /** When the route was put under the policy with this role, and by whom (`os:<user>` from the CLI). */
  required_at: string;
  required_by: string;
};

const policyId = (module: string, route: string): string => `${module} ${route}`;

export const policiesCollection: CollectionDefinition = {
  name: POLICIES_COLLECTION,
  idKind: 'string',
  searchFields: [],
  filterFields: ['module'],
};

type Event = StoredEvent & PolicyEvent;

/** One document per route under a policy; clearing the policy deletes it. */
export const policiesProjection: DocumentProjection<PolicyRecord> = {
  collection: POLICIES_COLLECTION,
  handles: ['ApprovalRequired', 'ApprovalRequirementCleared'],
  documentId: (event) => policyId((event as Event).data.module, (event as Event).data.route),
  evolve(_doc, stored) {
    const event = stored as Event;
    if (event.type === 'ApprovalRequirementCleared') return null;
    const { actor, occurred_at } = event.metadata;
    return {
      id: policyId(event.data.module, event.data.route),
      ...event.data,
      required_at: occurred_at,
      required_by: actor,
    };
  },
};

/** More policies than any module has writes: a module's policies fit one page. */
const MOST_POLICIES = 200;

/**
 * The policy a write of the module is under, or `null`: what the kit asks on every write. It reads the
 * module's policies as one page, which the read store keeps until a commit changes it (a miss by id
 * would be a query every time), and which a running suite keeps up with the log: a policy set or
 * cleared by `suite policy` counts once projected.
 */
export async function policyOf(
  readStore: ReadStore,
  module: string,
  route: string,
): Promise<{ approver_role: Role } | null> {
  const filters = [{ field: 'module', op: 'eq' as const, value: module }];
  const page = await readStore.find(POLICIES_COLLECTION, { filters, limit: MOST_POLICIES, offset: 0 });
  const id = policyId(module, route);
  const policy = page.items
    .map((item) => JSON.parse(item) as PolicyRecord)
    .find((record) => record.id === id);
  return policy ? { approver_role: policy.approver_role } : null;
}

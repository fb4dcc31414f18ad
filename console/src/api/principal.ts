import { holds } from '../../../src/iam/holds';
import type { WriteOperation } from './openapi';

/** The suite's own rule of who holds a role, shared with the server (its module has no Node imports). */
export { holds };

/** Who is signed in, as `GET /api/v1/me` names them. */
export interface Principal {
  id: string;
  kind: 'bootstrap' | 'key' | 'oidc';
  name: string | null;
  roles: string[];
  member: string | null;
  workspace: string | null;
  /** The person behind the credential: four eyes compare persons (absent from an older suite). */
  person?: string;
}

/** Whether the principal may see a module's proposals: its writers and approvers, and admin. */
export const seesProposals = (principal: Principal, module: string): boolean =>
  holds(principal, `${module}:writer`) || holds(principal, `${module}:approver`);

export const displayName = (principal: Principal): string => principal.name ?? principal.id;

/** Whether the principal holds the role a write needs, as its description names it (`x-required-role`). */
export const mayMake = (principal: Principal, write: WriteOperation): boolean => {
  const role = write.operation['x-required-role'];
  return role === undefined || holds(principal, role);
};

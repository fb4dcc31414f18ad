import { holds } from '../../../src/iam/holds';

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
}

/** Whether the principal may see a module's proposals: its writers and approvers, and admin. */
export const seesProposals = (principal: Principal, module: string): boolean =>
  holds(principal, `${module}:writer`) || holds(principal, `${module}:approver`);

export const displayName = (principal: Principal): string => principal.name ?? principal.id;

/** Who is signed in, as `GET /api/v1/me` names them. */
export interface Principal {
  id: string;
  kind: 'bootstrap' | 'key' | 'oidc';
  name: string | null;
  roles: string[];
  member: string | null;
  workspace: string | null;
}

/**
 * Whether a principal holds a role, as the suite decides it: `admin` holds every module's roles (never
 * `auditor`), and a module's writer or approver may also read it.
 */
export function holds(principal: Principal, role: string): boolean {
  const { roles } = principal;
  if (roles.includes(role)) return true;
  if (role === 'auditor') return false;
  if (roles.includes('admin')) return true;
  const [module, duty] = role.split(':');
  return (
    duty === 'reader' && roles.some((held) => held === `${module}:writer` || held === `${module}:approver`)
  );
}

/** Whether the principal may see a module's proposals: its writers and approvers, and admin. */
export const seesProposals = (principal: Principal, module: string): boolean =>
  holds(principal, `${module}:writer`) || holds(principal, `${module}:approver`);

export const displayName = (principal: Principal): string => principal.name ?? principal.id;

/**
 * Whether a principal holds a role: `admin` holds every module's roles (never `auditor`: auditing is a
 * separate duty), and a module's writer or approver may also read it.
 *
 * Pure and free of Node's modules: the web console imports it too, so that it offers what the suite
 * allows, decided the same way.
 */
export function holds(principal: { readonly roles: readonly string[] }, role: string): boolean {
  const { roles } = principal;
  if (roles.includes(role)) return true;
  if (role === 'auditor') return false;
  if (roles.includes('admin')) return true;
  const [module, duty] = role.split(':');
  return (
    duty === 'reader' && roles.some((held) => held === `${module}:writer` || held === `${module}:approver`)
  );
}

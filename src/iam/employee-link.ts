import type { ReadStore } from '../projections/read-store';

/** A person named `hrm.employee-<id>` is that employee of the HR module. */
const EMPLOYEE_PERSON = /^hrm\.employee-([1-9]\d{0,9})$/;
const EMPLOYEES_COLLECTION = 'hrm.employees';
/** Enough to find one company e-mail among those it is a part of. */
const CANDIDATES = 50;

/**
 * The HR employee a person is: the one their person names (`--person hrm.employee-19`), else the one
 * whose company e-mail is the e-mail their identity provider names; `null` when neither links them. A
 * store that cannot tell (a suite without the HR module) links nobody: such a person may then name only
 * a record's designated approver.
 */
export async function linkedEmployee(
  readStore: ReadStore,
  who: { person?: string; email?: string },
): Promise<number | null> {
  const named = who.person === undefined ? undefined : EMPLOYEE_PERSON.exec(who.person)?.[1];
  if (named !== undefined) return Number(named);
  if (who.email === undefined) return null;
  const email = who.email.toLowerCase();
  let page;
  try {
    page = await readStore.find(EMPLOYEES_COLLECTION, { q: email, limit: CANDIDATES, offset: 0 });
  } catch {
    return null;
  }
  const employee = page.items
    .map((item) => JSON.parse(item) as { id: number; company_email?: unknown })
    .find((candidate) => String(candidate.company_email).toLowerCase() === email);
  return employee?.id ?? null;
}

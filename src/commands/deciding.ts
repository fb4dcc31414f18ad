import { DomainError, invalidField } from './errors';

/**
 * Who takes a decision a record names its decider for (a leave's `approved_by`, a request's
 * `approver_id`): a person linked to an HR employee (`employee`), one linked to none (`null`), or
 * nobody yet: a write checked to be proposed, whose decider is its approver, later.
 */
export type DecidingPerson = { employee: number | null } | 'proposing';

/**
 * The employee a decision records as its decider. A person linked to an employee is that employee: a
 * body naming another is refused (403 `not_the_approver`). A person linked to none may name only the
 * record's designated approver (422 otherwise), who is the decider by default.
 */
export function decidingEmployee(
  field: string,
  named: number | undefined,
  designated: number | null,
  decider: DecidingPerson,
): number | undefined {
  if (decider === 'proposing') return named ?? designated ?? undefined;
  const { employee } = decider;
  if (employee !== null) {
    if (named !== undefined && named !== employee) {
      throw new DomainError(
        'not_the_approver',
        `${field}: you are employee ${employee}; a decision you take names you, not employee ${named}`,
        { field, employee, named },
      );
    }
    return employee;
  }
  if (named !== undefined && designated !== null && named !== designated) {
    throw invalidField(
      field,
      `only the designated approver (employee ${designated}) may be named by a credential linked to no employee`,
    );
  }
  return named ?? designated ?? undefined;
}

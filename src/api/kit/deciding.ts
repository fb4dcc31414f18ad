import type { DecidingPerson } from '../../commands/deciding';
import type { Caller } from './module';

/**
 * Who decides in a write, in the domain's terms: its approver, for a held-back write applied on
 * approval; nobody yet, while it is checked to be proposed; else the caller.
 */
export function decidingPersonOf(caller: Caller): DecidingPerson {
  if (caller.approval) return { employee: caller.approval.approver_employee ?? null };
  if (caller.proposing) return 'proposing';
  return { employee: caller.employee ?? null };
}

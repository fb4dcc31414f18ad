import type { HrmEvent, HrmEventOf } from '../../events/hrm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

/** What the handler found out about a record that a new record refers to. */
export interface Reference {
  /** The payload field that names it: `department_id`. */
  field: string;
  /** For messages: `department`. */
  entity: string;
  id: number;
  /** Its status now; `null` when it does not exist. */
  status: string | null;
  /** The statuses in which it may be referred to; any when absent. */
  allowed?: readonly string[];
}

/** Every foreign key must resolve, to a record in a usable status (422 naming the field otherwise). */
export function checkReferences(references: readonly Reference[]): void {
  for (const reference of references) {
    const { field, entity, id, status, allowed } = reference;
    if (status === null) throw invalidField(field, `${entity} ${id} does not exist`);
    if (allowed && !allowed.includes(status)) throw invalidField(field, `${entity} ${id} is ${status}`);
  }
}

type StatusChangeType = Extract<HrmEvent, { data: { status: string; changed_on: string } }>['type'];
type LifecycleAddedType =
  | 'OrganizationAdded'
  | 'BrandAdded'
  | 'CareerSiteAdded'
  | 'DepartmentAdded'
  | 'OrganizationTeamAdded'
  | 'JobOpened'
  | 'JobDistributed'
  | 'CandidateAdded';

export type StatusOf<Changed extends StatusChangeType> = HrmEventOf<Changed>['data']['status'];

export type LifecycleCommand<Data, Status> =
  | { type: 'Add'; data: Data; references: readonly Reference[] }
  | { type: 'ChangeStatus'; status: Status; at: string };

export type LifecycleEvent<Added extends LifecycleAddedType, Changed extends StatusChangeType> =
  HrmEventOf<Added> | HrmEventOf<Changed>;

export type LifecycleState<Status> = { status: Status } | null;

export type LifecycleDecider<Added extends LifecycleAddedType, Changed extends StatusChangeType> = Decider<
  LifecycleCommand<HrmEventOf<Added>['data'], StatusOf<Changed>>,
  LifecycleState<StatusOf<Changed>>,
  LifecycleEvent<Added, Changed>
>;

export interface LifecycleSpec<Added extends LifecycleAddedType, Changed extends StatusChangeType> {
  entity: string;
  added: Added;
  changed: Changed;
  initial: StatusOf<Changed>;
  /** Every legal move of the status; anything else is an illegal transition (409). */
  transitions: Readonly<Record<StatusOf<Changed>, readonly StatusOf<Changed>[]>>;
  /** Rules on a new record beyond its references; throws a domain error. */
  check?: (data: HrmEventOf<Added>['data']) => void;
}

/**
 * A record that is added once and then only moves through a small status table: organizations,
 * brands, career sites, departments, teams, jobs, job distributions and candidates.
 */
export function lifecycleDecider<Added extends LifecycleAddedType, Changed extends StatusChangeType>(
  spec: LifecycleSpec<Added, Changed>,
): LifecycleDecider<Added, Changed> {
  type Status = StatusOf<Changed>;
  const title = spec.entity.charAt(0).toUpperCase() + spec.entity.slice(1);
  return {
    initialState: () => null,
    evolve(_state, event) {
      const { type, data } = event as { type: string; data: unknown };
      return type === spec.added ? { status: spec.initial } : { status: (data as { status: Status }).status };
    },
    decide(command, state) {
      if (command.type === 'Add') {
        if (state) throw new DomainError('already_exists', `${title} ${command.data.id} exists`);
        checkReferences(command.references);
        spec.check?.(command.data);
        return [{ type: spec.added, data: command.data } as HrmEventOf<Added>];
      }
      if (!state) throw new DomainError('not_found', `${title} not found`);
      if (!spec.transitions[state.status].includes(command.status)) {
        throw new DomainError(
          'illegal_transition',
          `A ${spec.entity} cannot move from ${state.status} to ${command.status}`,
          { from: state.status, to: command.status },
        );
      }
      return [
        {
          type: spec.changed,
          data: { status: command.status, changed_on: command.at },
        } as HrmEventOf<Changed>,
      ];
    },
  };
}

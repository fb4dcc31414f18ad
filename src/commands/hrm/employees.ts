import type { EmployeeStatus, HrmEventOf } from '../../events/hrm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';
import { checkReferences, type Reference } from './lifecycle';
import { derivedText } from '../../privacy/sealed-value';

type EmployeeEvent = HrmEventOf<'EmployeeJoined'> | HrmEventOf<'EmployeeStatusChanged'>;

export type JoinEmployee = {
  type: 'JoinEmployee';
  employee: Omit<HrmEventOf<'EmployeeJoined'>['data'], 'employee_number'>;
  /** The department, organisation and manager (`reports_to`) it names. */
  references: readonly Reference[];
};

export type ChangeEmployeeStatus = {
  type: 'ChangeEmployeeStatus';
  status: EmployeeStatus;
  at: string;
  relieving_date: string | null;
  reason: string | null;
};

export type EmployeeCommand = JoinEmployee | ChangeEmployeeStatus;

/** What other decisions need to know about an employee (leave, attendance, references). */
export type EmployeeFacts = {
  id: number;
  status: EmployeeStatus;
  employee_name: string;
  department_id: number;
  reports_to: number | null;
  date_of_joining: string;
};

export type EmployeeState = EmployeeFacts | null;

/** Every legal move of an employee's status (Frappe HRMS); Left is final. */
export const EMPLOYEE_TRANSITIONS: Readonly<Record<EmployeeStatus, readonly EmployeeStatus[]>> = {
  Active: ['Inactive', 'Suspended', 'Left'],
  Inactive: ['Active', 'Left'],
  Suspended: ['Active', 'Left'],
  Left: [],
};

/** Frappe HRMS's naming series for employees: `HR-EMP-00042`. */
export function employeeNumber(id: number): string {
  return `HR-EMP-${String(id).padStart(5, '0')}`;
}

function changeStatus(command: ChangeEmployeeStatus, state: EmployeeFacts): EmployeeEvent[] {
  if (!EMPLOYEE_TRANSITIONS[state.status].includes(command.status)) {
    throw new DomainError(
      'illegal_transition',
      `An employee cannot move from ${state.status} to ${command.status}`,
      { from: state.status, to: command.status },
    );
  }
  if (command.status === 'Left') {
    if (command.relieving_date === null) throw invalidField('relieving_date', 'is required when leaving');
    if (command.relieving_date < state.date_of_joining) {
      throw invalidField('relieving_date', `must not be before the date of joining ${state.date_of_joining}`);
    }
  } else if (command.relieving_date !== null) {
    throw invalidField('relieving_date', 'is only set when the employee leaves');
  }
  const { status, at, relieving_date, reason } = command;
  return [{ type: 'EmployeeStatusChanged', data: { status, changed_on: at, relieving_date, reason } }];
}

export const employeeDecider: Decider<EmployeeCommand, EmployeeState, EmployeeEvent> = {
  initialState: () => null,
  evolve(state, event) {
    if (event.type === 'EmployeeJoined') {
      const { id, first_name, last_name, department_id, reports_to, date_of_joining } = event.data;
      const employee_name = derivedText([first_name, last_name]);
      return { id, status: 'Active', employee_name, department_id, reports_to, date_of_joining };
    }
    return state && { ...state, status: event.data.status };
  },
  decide(command, state) {
    if (command.type === 'JoinEmployee') {
      if (state) throw new DomainError('already_exists', `Employee ${command.employee.id} exists`);
      checkReferences(command.references);
      const { employee } = command;
      return [
        { type: 'EmployeeJoined', data: { ...employee, employee_number: employeeNumber(employee.id) } },
      ];
    }
    if (!state) throw new DomainError('not_found', 'Employee not found');
    return changeStatus(command, state);
  },
};

import { LEAVE_TRANSITIONS, type HrmEventOf, type LeaveStatus } from '../../events/hrm';
import type { Decider } from '../decider';
import { DomainError, illegalMove, invalidField } from '../errors';
import type { EmployeeFacts } from './employees';

export type LeaveEvent =
  | HrmEventOf<'LeaveApplicationSubmitted'>
  | HrmEventOf<'LeaveApplicationApproved'>
  | HrmEventOf<'LeaveApplicationRejected'>
  | HrmEventOf<'LeaveApplicationCancelled'>
  | HrmEventOf<'LeaveNumberVoided'>;

export type LeaveDecision = Exclude<LeaveStatus, 'Open'>;
export const LEAVE_DECISIONS = [
  'Approved',
  'Rejected',
  'Cancelled',
] as const satisfies readonly LeaveDecision[];

/** Records an application whose days the employee's calendar has booked. */
export interface SubmitLeave {
  type: 'SubmitLeave';
  application: HrmEventOf<'LeaveApplicationSubmitted'>['data'];
}

export interface DecideLeave {
  type: 'DecideLeave';
  status: LeaveDecision;
  at: string;
  /** Who approves or rejects, when the request names someone; else the application's leave approver. */
  approver_id?: number;
  /** That employee as the handler found them (the named one, else the leave approver); null when absent. */
  approver: EmployeeFacts | null;
  /** Why the approver rejects it; only with Rejected, and never required. */
  reason?: string;
}

export type LeaveCommand = SubmitLeave | DecideLeave;

export interface LeaveApplicationState {
  status: LeaveStatus;
  employee_id: number;
  leave_approver_id: number | null;
  from_date: string;
  to_date: string;
}

/** `voided`: the number holds no application and never will (`LeaveNumberVoided`). */
export type LeaveState = LeaveApplicationState | null | 'voided';

function approverOf(command: DecideLeave, state: LeaveApplicationState): number {
  const approverId = command.approver_id ?? state.leave_approver_id;
  const verb = command.status === 'Approved' ? 'approve' : 'reject';
  if (approverId === null) {
    throw invalidField('approver_id', `is required to ${verb}: the employee has no leave approver`);
  }
  const { approver } = command;
  if (!approver) throw invalidField('approver_id', `employee ${approverId} does not exist`);
  if (approver.status !== 'Active')
    throw invalidField('approver_id', `employee ${approverId} is ${approver.status}`);
  if (approverId === state.employee_id) {
    throw invalidField('approver_id', `an employee cannot ${verb} their own leave`);
  }
  return approverId;
}

function decideLeave(command: DecideLeave, state: LeaveApplicationState): LeaveEvent[] {
  const allowed = LEAVE_TRANSITIONS[state.status];
  if (!allowed.includes(command.status)) {
    throw illegalMove('A leave application', state.status, command.status, allowed);
  }
  if (command.reason !== undefined && command.status !== 'Rejected') {
    throw invalidField('reason', 'is only given to reject');
  }
  const at = command.at;
  switch (command.status) {
    case 'Approved':
      return [
        {
          type: 'LeaveApplicationApproved',
          data: { approved_by: approverOf(command, state), approved_on: at },
        },
      ];
    case 'Rejected':
      return [
        {
          type: 'LeaveApplicationRejected',
          data: {
            rejected_by: approverOf(command, state),
            rejected_on: at,
            employee_id: state.employee_id,
            reason: command.reason ?? null,
          },
        },
      ];
    case 'Cancelled':
      if (command.approver_id !== undefined) {
        throw invalidField('approver_id', 'is only given to approve or reject');
      }
      return [{ type: 'LeaveApplicationCancelled', data: { cancelled_on: at } }];
  }
}

const applied = (state: LeaveState, status: LeaveStatus): LeaveState =>
  state && state !== 'voided' ? { ...state, status } : state;

export const leaveDecider: Decider<LeaveCommand, LeaveState, LeaveEvent> = {
  initialState: () => null,
  evolve(state, event) {
    switch (event.type) {
      case 'LeaveApplicationSubmitted': {
        const { employee_id, leave_approver_id, from_date, to_date } = event.data;
        return { status: 'Open', employee_id, leave_approver_id, from_date, to_date };
      }
      case 'LeaveApplicationApproved':
        return applied(state, 'Approved');
      case 'LeaveApplicationRejected':
        return applied(state, 'Rejected');
      case 'LeaveApplicationCancelled':
        return applied(state, 'Cancelled');
      case 'LeaveNumberVoided':
        return 'voided';
    }
  },
  decide(command, state) {
    if (command.type === 'SubmitLeave') {
      if (state)
        throw new DomainError('already_exists', `Leave application ${command.application.id} exists`);
      return [{ type: 'LeaveApplicationSubmitted', data: command.application }];
    }
    if (!state || state === 'voided') throw new DomainError('not_found', 'Leave application not found');
    return decideLeave(command, state);
  },
};

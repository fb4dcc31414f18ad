import { decidingEmployee, type DecidingPerson } from '../deciding';
import { isoTimestamp } from '../../clock';
import type { EsmEvent, EsmEventOf, RequestPriority, RequestStatus } from '../../events/esm';
import type { Decider } from '../decider';
import { DomainError, illegalTransition, invalidField } from '../errors';
import { DEFAULT_SLA_HOURS, slaTargets } from './sla';

/** What the decision needs to know about the service a request is raised against. */
export interface ServiceFacts {
  department_id: number | null;
  sla_hours: number;
  requires_approval: boolean;
  is_active: boolean;
}

export interface SubmitRequest {
  type: 'SubmitRequest';
  id: number;
  at: Date;
  title: string;
  status: 'Open' | 'Pending Approval';
  priority: RequestPriority;
  service_id: number | null;
  /** `undefined`: the service named by `service_id` does not exist. */
  service: ServiceFacts | null | undefined;
  department_id: number | null;
  departmentExists: boolean;
  requester_id: number | null;
  form_data: string | null;
}

export type RequestAction = 'approve' | 'reject' | 'reply' | 'resolve' | 'reopen' | 'close';

export type RequestCommand =
  | SubmitRequest
  | { type: 'ApproveRequest'; approver_id: number; at: string }
  | { type: 'RejectRequest'; approver_id: number; at: string }
  | { type: 'ReplyToRequest'; at: string }
  | { type: 'ResolveRequest'; at: string }
  | { type: 'ReopenRequest'; at: string }
  | { type: 'CloseRequest'; at: string }
  | { type: 'AssignRequest'; assignee_id: number }
  | { type: 'GiveFeedback'; rating: number }
  | UpdateRequest;

/** A back-office edit: any of an assignee, a new status and a rating, applied in that order. */
export interface UpdateRequest {
  type: 'UpdateRequest';
  at: string;
  status?: RequestStatus;
  approver_id?: number;
  /** Who takes an approval or rejection (`decidingEmployee`); unset: whoever the body names. */
  decider?: DecidingPerson;
  assignee_id?: number;
  feedback_rating?: number;
}

type RequestEvent = Extract<EsmEvent, { type: `Request${string}` }>;

export type RequestState = { status: RequestStatus } | null;

/** Every legal move of a request's status; anything else is an illegal transition (409). */
export const REQUEST_TRANSITIONS: Record<RequestAction, Partial<Record<RequestStatus, RequestStatus>>> = {
  approve: { 'Pending Approval': 'Open' },
  reject: { 'Pending Approval': 'Rejected' },
  reply: { Open: 'Replied' },
  resolve: { Open: 'Resolved', Replied: 'Resolved' },
  reopen: { Replied: 'Open', Resolved: 'Open' },
  close: { Open: 'Closed', Replied: 'Closed', Resolved: 'Closed' },
};

const ASSIGNABLE: readonly RequestStatus[] = ['Pending Approval', 'Open', 'Replied'];
const RATEABLE: readonly RequestStatus[] = ['Resolved', 'Closed'];

export function requestRef(id: number): string {
  return `REQ-${String(id).padStart(6, '0')}`;
}

function submit(command: SubmitRequest): RequestEvent[] {
  const { service } = command;
  if (service === undefined) {
    throw invalidField('service_id', `service ${command.service_id} does not exist`);
  }
  if (service && !service.is_active) {
    throw invalidField('service_id', `service ${command.service_id} is not active`);
  }
  if (command.department_id !== null && !command.departmentExists) {
    throw invalidField('department_id', `department ${command.department_id} does not exist`);
  }
  const sla = slaTargets(command.at, service?.sla_hours ?? DEFAULT_SLA_HOURS, command.priority);
  const data: EsmEventOf<'RequestSubmitted'>['data'] = {
    id: command.id,
    ref: requestRef(command.id),
    title: command.title,
    service_id: command.service_id,
    department_id: command.department_id ?? service?.department_id ?? null,
    requester_id: command.requester_id,
    status: service?.requires_approval ? 'Pending Approval' : command.status,
    priority: command.priority,
    form_data: command.form_data,
    created: isoTimestamp(command.at),
    ...sla,
  };
  return [{ type: 'RequestSubmitted', data }];
}

/** The action that moves a request from its status to `target`, if the transition table has one. */
function actionTo(from: RequestStatus, target: RequestStatus): RequestAction | undefined {
  const actions = Object.keys(REQUEST_TRANSITIONS) as RequestAction[];
  return actions.find((action) => REQUEST_TRANSITIONS[action][from] === target);
}

function statusCommand(update: UpdateRequest, from: RequestStatus): RequestCommand | null {
  const target = update.status;
  if (target === undefined || target === from) return null;
  const action = actionTo(from, target);
  if (!action) {
    throw new DomainError('illegal_transition', `A request cannot move from ${from} to ${target}`, {
      from,
      to: target,
    });
  }
  const at = update.at;
  if (action === 'approve' || action === 'reject') {
    // A request has no designated approver: the decider names themselves, or is named.
    const approverId =
      update.decider === undefined
        ? update.approver_id
        : decidingEmployee('approver_id', update.approver_id, null, update.decider);
    if (approverId === undefined) {
      throw invalidField('approver_id', `is required to ${action} a request`);
    }
    const type = action === 'approve' ? 'ApproveRequest' : 'RejectRequest';
    return { type, approver_id: approverId, at };
  }
  const types = {
    reply: 'ReplyToRequest',
    resolve: 'ResolveRequest',
    reopen: 'ReopenRequest',
    close: 'CloseRequest',
  } as const;
  return { type: types[action], at };
}

function update(command: UpdateRequest, state: { status: RequestStatus }): RequestEvent[] {
  const steps: (RequestCommand | null)[] = [
    command.assignee_id === undefined ? null : { type: 'AssignRequest', assignee_id: command.assignee_id },
    statusCommand(command, state.status),
    command.feedback_rating === undefined ? null : { type: 'GiveFeedback', rating: command.feedback_rating },
  ];
  const events: RequestEvent[] = [];
  let current: RequestState = state;
  for (const step of steps) {
    if (!step) continue;
    const decided = requestDecider.decide(step, current);
    events.push(...decided);
    current = decided.reduce(requestDecider.evolve, current);
  }
  return events;
}

function move(state: { status: RequestStatus }, action: RequestAction): void {
  if (!REQUEST_TRANSITIONS[action][state.status]) throw illegalTransition('request', state.status, action);
}

export const requestDecider: Decider<RequestCommand, RequestState, RequestEvent> = {
  initialState: () => null,
  evolve(state, event) {
    switch (event.type) {
      case 'RequestSubmitted':
        return { status: event.data.status };
      case 'RequestApproved':
        return { status: 'Open' };
      case 'RequestRejected':
        return { status: 'Rejected' };
      case 'RequestReplied':
        return { status: 'Replied' };
      case 'RequestResolved':
        return { status: 'Resolved' };
      case 'RequestReopened':
        return { status: 'Open' };
      case 'RequestClosed':
        return { status: 'Closed' };
      case 'RequestAssigned':
      case 'RequestFeedbackGiven':
        return state;
    }
  },
  decide(command, state) {
    if (command.type === 'SubmitRequest') {
      if (state) throw new DomainError('already_exists', `Request ${command.id} exists`);
      return submit(command);
    }
    if (!state) throw new DomainError('not_found', 'Request not found');
    switch (command.type) {
      case 'ApproveRequest':
        move(state, 'approve');
        return [
          { type: 'RequestApproved', data: { approver_id: command.approver_id, approved_on: command.at } },
        ];
      case 'RejectRequest':
        move(state, 'reject');
        return [
          { type: 'RequestRejected', data: { approver_id: command.approver_id, rejected_on: command.at } },
        ];
      case 'ReplyToRequest':
        move(state, 'reply');
        return [{ type: 'RequestReplied', data: { replied_on: command.at } }];
      case 'ResolveRequest':
        move(state, 'resolve');
        return [{ type: 'RequestResolved', data: { resolved_on: command.at } }];
      case 'ReopenRequest':
        move(state, 'reopen');
        return [{ type: 'RequestReopened', data: { reopened_on: command.at } }];
      case 'CloseRequest':
        move(state, 'close');
        return [{ type: 'RequestClosed', data: { closed_on: command.at } }];
      case 'AssignRequest':
        if (!ASSIGNABLE.includes(state.status)) throw illegalTransition('request', state.status, 'assign');
        return [{ type: 'RequestAssigned', data: { assignee_id: command.assignee_id } }];
      case 'GiveFeedback':
        if (!RATEABLE.includes(state.status)) throw illegalTransition('request', state.status, 'rate');
        return [{ type: 'RequestFeedbackGiven', data: { rating: command.rating } }];
      case 'UpdateRequest':
        return update(command, state);
    }
  },
};

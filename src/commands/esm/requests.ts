import { decidingEmployee, type DecidingPerson } from '../deciding';
import { isoTimestamp } from '../../clock';
import type {
  CommentVisibility,
  EsmEvent,
  EsmEventOf,
  RequestPriority,
  RequestStatus,
} from '../../events/esm';
import {
  DEFAULT_SLA_HOURS,
  ON_TRACK,
  slaChanges,
  slaTargets,
  targetsAfter,
  type TargetStates,
} from '../../esm/sla';
import { actionTo, nextStatuses, REQUEST_TRANSITIONS, type RequestAction } from '../../esm/workflow';
import type { Decider } from '../decider';
import { DomainError, illegalMove, illegalTransition, invalidField } from '../errors';

/** What the decision needs to know about the service a request is raised against. */
export interface ServiceFacts {
  department_id: number | null;
  sla_hours: number;
  requires_approval: boolean;
  is_active: boolean;
}

/** An agent named as assignee: `undefined` when there is none of that id. */
export type AgentFacts = { is_active: boolean } | undefined;

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
  /** Whether the employee named by `requester_id` exists (read by the handler). */
  requesterExists: boolean;
  form_data: string | null;
}

/** A new assignee (`null`: unassigned), with what the agent store says of them. */
export interface AssignRequest {
  type: 'AssignRequest';
  assignee_id: number | null;
  agent: AgentFacts;
  at: string;
}

/** A new priority; `sla_hours` is the request's service's (or the default), to set the due times anew. */
export interface ChangePriority {
  type: 'ChangePriority';
  priority: RequestPriority;
  sla_hours: number;
  at: string;
}

export interface ChangeService {
  type: 'ChangeService';
  service_id: number;
  /** `undefined`: no such service. */
  service: ServiceFacts | undefined;
  at: string;
}

export interface AddComment {
  type: 'AddComment';
  body: string;
  visibility: CommentVisibility;
  at: string;
}

export type RequestCommand =
  | SubmitRequest
  | { type: 'ApproveRequest'; approver_id: number; at: string }
  | { type: 'RejectRequest'; approver_id: number; at: string }
  | { type: 'ReplyToRequest'; at: string }
  | { type: 'ResolveRequest'; at: string }
  | { type: 'ReopenRequest'; at: string }
  | { type: 'CloseRequest'; at: string }
  | AssignRequest
  | ChangePriority
  | ChangeService
  | AddComment
  | { type: 'GiveFeedback'; rating: number }
  /** The SLA sweep: records the targets that became at risk or were breached by `at`. */
  | { type: 'CheckSla'; at: string }
  | UpdateRequest;

/**
 * A back-office edit: any of an assignee, a priority, a service, a new status and a rating, applied in
 * that order. The handler adds the facts each needs (`agent`, `service`, `sla_hours`).
 */
export interface UpdateRequest {
  type: 'UpdateRequest';
  at: string;
  status?: RequestStatus;
  approver_id?: number;
  /** Who takes an approval or rejection (`decidingEmployee`); unset: whoever the body names. */
  decider?: DecidingPerson;
  /** `null`: unassign. */
  assignee_id?: number | null;
  /** The agent `assignee_id` names (`undefined`: there is none). */
  agent?: AgentFacts;
  priority?: RequestPriority;
  /** The service's (the new one's, when `service_id` changes it) resolution target at Medium. */
  sla_hours?: number;
  service_id?: number;
  /** The service `service_id` names (`undefined`: there is none). */
  service?: ServiceFacts | undefined;
  feedback_rating?: number;
}

type RequestEvent = Extract<EsmEvent, { type: `Request${string}` | 'CommentAdded' }>;

export interface OpenRequest {
  status: RequestStatus;
  created: string;
  priority: RequestPriority;
  service_id: number | null;
  assignee_id: number | null;
  response_by: string;
  resolution_by: string;
  comments: number;
  targets: TargetStates;
}

export type RequestState = OpenRequest | null;

/** The statuses in which a request is still worked: assigned, reprioritised, moved to another service. */
const IN_PROGRESS: readonly RequestStatus[] = ['Pending Approval', 'Open', 'Replied'];
const RATEABLE: readonly RequestStatus[] = ['Resolved', 'Closed'];

export const MAX_COMMENT_LENGTH = 10_000;

export function requestRef(id: number): string {
  return `REQ-${String(id).padStart(6, '0')}`;
}

function checkedService(service_id: number | null, service: ServiceFacts | null | undefined) {
  if (service === undefined) throw invalidField('service_id', `service ${service_id} does not exist`);
  if (service && !service.is_active) throw invalidField('service_id', `service ${service_id} is not active`);
  return service;
}

function submit(command: SubmitRequest): RequestEvent[] {
  const service = checkedService(command.service_id, command.service);
  if (command.department_id !== null && !command.departmentExists) {
    throw invalidField('department_id', `department ${command.department_id} does not exist`);
  }
  if (command.requester_id !== null && !command.requesterExists) {
    throw invalidField('requester_id', `employee ${command.requester_id} does not exist`);
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

function statusCommand(update: UpdateRequest, from: RequestStatus): RequestCommand | null {
  const target = update.status;
  if (target === undefined || target === from) return null;
  const action = actionTo(from, target);
  if (!action) {
    throw illegalMove('A request', from, target, nextStatuses(from));
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

function update(command: UpdateRequest, state: OpenRequest): RequestEvent[] {
  const { at } = command;
  const steps: (RequestCommand | null)[] = [
    command.assignee_id === undefined
      ? null
      : { type: 'AssignRequest', assignee_id: command.assignee_id, agent: command.agent, at },
    command.priority === undefined
      ? null
      : {
          type: 'ChangePriority',
          priority: command.priority,
          sla_hours: command.sla_hours ?? DEFAULT_SLA_HOURS,
          at,
        },
    command.service_id === undefined
      ? null
      : { type: 'ChangeService', service_id: command.service_id, service: command.service, at },
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

function move(state: OpenRequest, action: RequestAction): void {
  if (!REQUEST_TRANSITIONS[action][state.status]) throw illegalTransition('request', state.status, action);
}

function inProgress(state: OpenRequest, action: string): void {
  if (!IN_PROGRESS.includes(state.status)) throw illegalTransition('request', state.status, action);
}

function assign(command: AssignRequest, state: OpenRequest): RequestEvent[] {
  inProgress(state, 'assign');
  const to = command.assignee_id;
  if (to === state.assignee_id) return [];
  if (to !== null) {
    if (!command.agent) throw invalidField('assignee_id', `agent ${to} does not exist`);
    if (!command.agent.is_active) throw invalidField('assignee_id', `agent ${to} is not active`);
  }
  return [{ type: 'RequestAssigneeChanged', data: { from: state.assignee_id, to, changed_on: command.at } }];
}

function changePriority(command: ChangePriority, state: OpenRequest): RequestEvent[] {
  inProgress(state, 'reprioritise');
  if (command.priority === state.priority) return [];
  const due = slaTargets(new Date(state.created), command.sla_hours, command.priority);
  const data = { from: state.priority, to: command.priority, changed_on: command.at, ...due };
  return [{ type: 'RequestPriorityChanged', data }];
}

function changeService(command: ChangeService, state: OpenRequest): RequestEvent[] {
  inProgress(state, 'move to another service');
  if (command.service_id === state.service_id) return [];
  const service = checkedService(command.service_id, command.service) as ServiceFacts;
  const due = slaTargets(new Date(state.created), service.sla_hours, state.priority);
  const data = {
    from: state.service_id,
    to: command.service_id,
    department_id: service.department_id,
    changed_on: command.at,
    ...due,
  };
  return [{ type: 'RequestServiceChanged', data }];
}

function comment(command: AddComment, state: OpenRequest): RequestEvent[] {
  const body = command.body.trim();
  if (body.length === 0 || body.length > MAX_COMMENT_LENGTH) {
    throw invalidField('body', `must hold 1 to ${MAX_COMMENT_LENGTH} characters besides surrounding spaces`);
  }
  const added: RequestEvent = {
    type: 'CommentAdded',
    data: { number: state.comments + 1, body, visibility: command.visibility, added_on: command.at },
  };
  // A public reply to an open request answers it, as a helpdesk agent's reply does.
  const answers = command.visibility === 'public' && state.status === 'Open';
  return answers ? [added, { type: 'RequestReplied', data: { replied_on: command.at } }] : [added];
}

function checkSla(at: string, state: OpenRequest): RequestEvent[] {
  return slaChanges(state, at).map(({ target, state: reached, due }) =>
    reached === 'breached'
      ? { type: 'RequestSlaBreached', data: { target, due } }
      : { type: 'RequestSlaAtRisk', data: { target, due } },
  );
}

function evolveOpen(state: OpenRequest, event: RequestEvent): OpenRequest {
  const targets = targetsAfter(state.targets, event);
  switch (event.type) {
    case 'RequestApproved':
      return { ...state, targets, status: 'Open' };
    case 'RequestRejected':
      return { ...state, targets, status: 'Rejected' };
    case 'RequestReplied':
      return { ...state, targets, status: 'Replied' };
    case 'RequestResolved':
      return { ...state, targets, status: 'Resolved' };
    case 'RequestReopened':
      return { ...state, targets, status: 'Open' };
    case 'RequestClosed':
      return { ...state, targets, status: 'Closed' };
    case 'RequestAssigned':
      return { ...state, assignee_id: event.data.assignee_id };
    case 'RequestAssigneeChanged':
      return { ...state, assignee_id: event.data.to };
    case 'RequestPriorityChanged': {
      const { to, response_by, resolution_by } = event.data;
      return { ...state, targets, priority: to, response_by, resolution_by };
    }
    case 'RequestServiceChanged': {
      const { to, response_by, resolution_by } = event.data;
      return { ...state, targets, service_id: to, response_by, resolution_by };
    }
    case 'CommentAdded':
      return { ...state, targets, comments: event.data.number };
    default:
      return { ...state, targets };
  }
}

export const requestDecider: Decider<RequestCommand, RequestState, RequestEvent> = {
  initialState: () => null,
  evolve(state, event) {
    if (event.type === 'RequestSubmitted') {
      const { status, created, priority, service_id, response_by, resolution_by } = event.data;
      const base = { created, priority, service_id, response_by, resolution_by };
      return { ...base, status, assignee_id: null, comments: 0, targets: ON_TRACK };
    }
    return state && evolveOpen(state, event);
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
        return assign(command, state);
      case 'ChangePriority':
        return changePriority(command, state);
      case 'ChangeService':
        return changeService(command, state);
      case 'AddComment':
        return comment(command, state);
      case 'GiveFeedback':
        if (!RATEABLE.includes(state.status)) throw illegalTransition('request', state.status, 'rate');
        return [{ type: 'RequestFeedbackGiven', data: { rating: command.rating } }];
      case 'CheckSla':
        return checkSla(command.at, state);
      case 'UpdateRequest':
        return update(command, state);
    }
  },
};

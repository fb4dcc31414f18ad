import { REQUEST_STATUSES, type RequestStatus } from '../events/esm';

export type RequestAction = 'approve' | 'reject' | 'reply' | 'resolve' | 'reopen' | 'close';

/** Every legal move of a request's status; anything else is an illegal transition (409). */
export const REQUEST_TRANSITIONS: Record<RequestAction, Partial<Record<RequestStatus, RequestStatus>>> = {
  approve: { 'Pending Approval': 'Open' },
  reject: { 'Pending Approval': 'Rejected' },
  reply: { Open: 'Replied' },
  resolve: { Open: 'Resolved', Replied: 'Resolved' },
  reopen: { Replied: 'Open', Resolved: 'Open' },
  close: { Open: 'Closed', Replied: 'Closed', Resolved: 'Closed' },
};

const NEXT_STATUSES = new Map<string, readonly RequestStatus[]>(
  REQUEST_STATUSES.map((from) => {
    const reachable = new Set(Object.values(REQUEST_TRANSITIONS).flatMap((moves) => moves[from] ?? []));
    return [from, REQUEST_STATUSES.filter((status) => reachable.has(status))];
  }),
);

/** The statuses a request in `from` may move to, in the workflow's order. */
export function nextStatuses(from: string): RequestStatus[] {
  return [...(NEXT_STATUSES.get(from) ?? [])];
}

/** The action that moves a request from its status to `target`, if the transition table has one. */
export function actionTo(from: RequestStatus, target: RequestStatus): RequestAction | undefined {
  const actions = Object.keys(REQUEST_TRANSITIONS) as RequestAction[];
  return actions.find((action) => REQUEST_TRANSITIONS[action][from] === target);
}

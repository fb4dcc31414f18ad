import { nextStatuses } from './workflows';

/** What an action knows beyond the record: the desk's agent the signed-in person works as. */
export interface ActionContext {
  agentId: number | undefined;
}

/**
 * A named step staff take on a record (`Reply`, `Resolve`, `Approve leave`): one of the module's
 * writes, with what it always sends and the fields the person fills in (prefilled with the record's
 * values), offered only while it is a valid next step. The write's role and the module's rules
 * still decide; a step the module refuses is shown with its answer.
 */
export interface RecordAction {
  label: string;
  /** The write, as the module's description keys it (`PATCH /api/v1/requests/{item_id}`). */
  write: string;
  /** What it sends whatever is filled in. */
  sends(record: Record<string, unknown>, context: ActionContext): Record<string, unknown>;
  /** The body's fields it asks for, those the write takes (a reason, once the module takes one). */
  asks: readonly string[];
  offered(record: Record<string, unknown>, context: ActionContext): boolean;
}

const REQUEST = 'PATCH /api/v1/requests/{item_id}';
const COMMENT = 'POST /api/v1/requests/{item_id}/comments';
const LEAVE = 'PATCH /api/v1/leave/{id}';
const OPPORTUNITY = 'PATCH /api/v1/opportunities/{id}';
const ARTICLE = 'PATCH /api/v1/knowledge/{item_id}';

/** Whether a record's status may move to `status` now, as the record tells. */
const movesTo = (status: string) => (record: Record<string, unknown>) =>
  nextStatuses(record).includes(status);

/** A request still being worked: it may be assigned, reprioritised. */
const inProgress = (record: Record<string, unknown>) =>
  ['Pending Approval', 'Open', 'Replied'].includes(String(record.status));

const statusStep = (
  write: string,
  label: string,
  status: string,
  asks: readonly string[] = [],
): RecordAction => ({
  label,
  write,
  sends: () => ({ status }),
  asks,
  offered: movesTo(status),
});

/** The named actions of each resource whose staff work its records, by module and resource. */
const ACTIONS: Readonly<Record<string, readonly RecordAction[]>> = {
  'esm/requests': [
    {
      label: 'Reply',
      write: COMMENT,
      sends: () => ({ visibility: 'public' }),
      asks: ['body'],
      offered: () => true,
    },
    {
      label: 'Add internal note',
      write: COMMENT,
      sends: () => ({ visibility: 'internal' }),
      asks: ['body'],
      offered: () => true,
    },
    {
      label: 'Assign to me',
      write: REQUEST,
      sends: (_record, { agentId }) => ({ assignee_id: agentId }),
      asks: [],
      offered: (record, { agentId }) =>
        agentId !== undefined && inProgress(record) && record.assignee_id !== agentId,
    },
    { label: 'Change priority', write: REQUEST, sends: () => ({}), asks: ['priority'], offered: inProgress },
    statusStep(REQUEST, 'Resolve', 'Resolved'),
    {
      ...statusStep(REQUEST, 'Reopen', 'Open'),
      // Out of Pending Approval, Open is an approval, which names its approver: the full form's.
      offered: (record) => ['Replied', 'Resolved'].includes(String(record.status)),
    },
    statusStep(REQUEST, 'Close', 'Closed'),
  ],
  'hrm/leave': [
    statusStep(LEAVE, 'Approve leave', 'Approved'),
    statusStep(LEAVE, 'Reject leave', 'Rejected', ['reason']),
    statusStep(LEAVE, 'Cancel leave', 'Cancelled'),
  ],
  'esm/knowledge': [statusStep(ARTICLE, 'Publish', 'Published'), statusStep(ARTICLE, 'Archive', 'Archived')],
  'crm/opportunities': [
    {
      label: 'Move to another stage',
      write: OPPORTUNITY,
      sends: () => ({}),
      asks: ['stage', 'reason', 'lost_reason', 'lost_notes'],
      offered: (record) => !['Won', 'Lost'].includes(String(record.stage)),
    },
  ],
};

export const actionsOf = (module: string, resource: string): readonly RecordAction[] =>
  ACTIONS[`${module}/${resource}`] ?? [];

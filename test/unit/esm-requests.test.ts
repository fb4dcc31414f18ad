import { requestDecider, type ServiceFacts, type SubmitRequest } from '../../src/commands/esm/requests';
import type { EsmEventOf } from '../../src/events/esm';
import { deciderSpec } from '../support/decider-spec';

const given = deciderSpec(requestDecider);
const at = new Date('2026-11-21T09:30:00Z');
const laptop: ServiceFacts = { department_id: 2, sla_hours: 24, requires_approval: false, is_active: true };

const submit = (overrides: Partial<SubmitRequest> = {}): SubmitRequest => ({
  type: 'SubmitRequest',
  id: 42,
  at,
  title: 'New laptop',
  status: 'Open',
  priority: 'Medium',
  service_id: 7,
  service: laptop,
  department_id: null,
  departmentExists: false,
  requester_id: 1001,
  requesterExists: true,
  form_data: '{"model":"14 inch"}',
  ...overrides,
});

const submitted = (
  overrides: Partial<EsmEventOf<'RequestSubmitted'>['data']> = {},
): EsmEventOf<'RequestSubmitted'> => ({
  type: 'RequestSubmitted',
  data: {
    id: 42,
    ref: 'REQ-000042',
    title: 'New laptop',
    service_id: 7,
    department_id: 2,
    requester_id: 1001,
    status: 'Open',
    priority: 'Medium',
    form_data: '{"model":"14 inch"}',
    created: '2026-11-21T09:30:00Z',
    response_by: '2026-11-23T17:00:00Z',
    resolution_by: '2026-11-25T17:00:00Z',
    ...overrides,
  },
});

describe('submitting a request', () => {
  it('assigns the ref, the creation time, the department of the service and the SLA targets', () => {
    given([]).when(submit()).then([submitted()]);
  });

  it('starts a request for a service that requires approval in Pending Approval', () => {
    given([])
      .when(submit({ service: { ...laptop, requires_approval: true } }))
      .then([submitted({ status: 'Pending Approval' })]);
  });

  it('refuses a requester who is no employee, naming the field', () => {
    given([])
      .when(submit({ requester_id: 9999, requesterExists: false }))
      .thenThrows({ code: 'validation_error', message: 'requester_id: employee 9999 does not exist' });
    given([])
      .when(submit({ requester_id: null, requesterExists: false }))
      .then([submitted({ requester_id: null })]);
  });

  it('keeps the department the requester named', () => {
    given([])
      .when(submit({ department_id: 5, departmentExists: true }))
      .then([submitted({ department_id: 5 })]);
  });

  it('applies the default 24 hour target when no service is named', () => {
    given([])
      .when(submit({ service_id: null, service: null, priority: 'Urgent' }))
      .then([
        submitted({
          service_id: null,
          department_id: null,
          priority: 'Urgent',
          response_by: '2026-11-23T09:30:00Z',
          resolution_by: '2026-11-23T11:00:00Z',
        }),
      ]);
  });

  it('rejects an unknown service, an inactive service and an unknown department', () => {
    given([])
      .when(submit({ service: undefined }))
      .thenThrows({ code: 'validation_error', message: expect.stringContaining('service_id') });
    given([])
      .when(submit({ service: { ...laptop, is_active: false } }))
      .thenThrows({ code: 'validation_error' });
    given([])
      .when(submit({ department_id: 99, departmentExists: false }))
      .thenThrows({ code: 'validation_error', message: expect.stringContaining('department_id') });
  });

  it('refuses to submit the same request twice', () => {
    given([submitted()]).when(submit()).thenThrows({ code: 'already_exists' });
  });
});

describe('moving a request through its workflow', () => {
  const now = '2026-11-21T12:00:00Z';

  it('approves a pending request, recording the approver and time', () => {
    given([submitted({ status: 'Pending Approval' })])
      .when({ type: 'ApproveRequest', approver_id: 9, at: now })
      .then([{ type: 'RequestApproved', data: { approver_id: 9, approved_on: now } }]);
  });

  it('rejects approving a request that is not pending approval', () => {
    given([submitted()])
      .when({ type: 'ApproveRequest', approver_id: 9, at: now })
      .thenThrows({ code: 'illegal_transition' });
  });

  it('resolves, closes and reopens along the transition table only', () => {
    given([submitted()])
      .when({ type: 'ResolveRequest', at: now })
      .then([{ type: 'RequestResolved', data: { resolved_on: now } }]);
    const closed = [submitted(), { type: 'RequestClosed' as const, data: { closed_on: now } }];
    given(closed).when({ type: 'ReopenRequest', at: now }).thenThrows({ code: 'illegal_transition' });
    given(closed)
      .when({ type: 'AssignRequest', assignee_id: 3, agent: { is_active: true }, at: now })
      .thenThrows({ code: 'illegal_transition' });
  });

  it('takes feedback only once the request is resolved or closed', () => {
    given([submitted()]).when({ type: 'GiveFeedback', rating: 5 }).thenThrows({ code: 'illegal_transition' });
    given([submitted(), { type: 'RequestResolved', data: { resolved_on: now } }])
      .when({ type: 'GiveFeedback', rating: 5 })
      .then([{ type: 'RequestFeedbackGiven', data: { rating: 5 } }]);
  });

  it('answers a command for a request that does not exist with not_found', () => {
    given([]).when({ type: 'ResolveRequest', at: now }).thenThrows({ code: 'not_found' });
  });
});

describe('updating a request from the back office', () => {
  const now = '2026-11-21T12:00:00Z';

  it('assigns, turns a status into the matching transition, then rates', () => {
    given([submitted()])
      .when({
        type: 'UpdateRequest',
        at: now,
        status: 'Resolved',
        assignee_id: 3,
        agent: { is_active: true },
        feedback_rating: 4,
      })
      .then([
        { type: 'RequestAssigneeChanged', data: { from: null, to: 3, changed_on: now } },
        { type: 'RequestResolved', data: { resolved_on: now } },
        { type: 'RequestFeedbackGiven', data: { rating: 4 } },
      ]);
  });

  it('needs an approver to approve', () => {
    given([submitted({ status: 'Pending Approval' })])
      .when({ type: 'UpdateRequest', at: now, status: 'Open' })
      .thenThrows({ code: 'validation_error', message: expect.stringContaining('approver_id') });
  });

  it('refuses a status the table cannot reach from the current one', () => {
    given([submitted(), { type: 'RequestClosed', data: { closed_on: now } }])
      .when({ type: 'UpdateRequest', at: now, status: 'Open' })
      .thenThrows({
        code: 'illegal_transition',
        message: 'A request cannot move from Closed to Open (no status follows it)',
        details: { from: 'Closed', to: 'Open', allowed: [] },
      });
  });

  it('names the statuses a refused move could have gone to', () => {
    given([submitted()])
      .when({ type: 'UpdateRequest', at: now, status: 'Pending Approval' })
      .thenThrows({
        code: 'illegal_transition',
        message:
          'A request cannot move from Open to Pending Approval (valid next statuses: Replied, Resolved, Closed)',
        details: { from: 'Open', to: 'Pending Approval', allowed: ['Replied', 'Resolved', 'Closed'] },
      });
  });

  it('changes nothing when the status is already the one asked for', () => {
    given([submitted()]).when({ type: 'UpdateRequest', at: now, status: 'Open' }).then([]);
  });
});

describe('assignee, priority and service changes', () => {
  const now = '2026-11-23T12:00:00Z';
  const assigned = { type: 'RequestAssigneeChanged' as const, data: { from: null, to: 3, changed_on: now } };

  it('records each change with what it replaced', () => {
    given([submitted(), assigned])
      .when({ type: 'AssignRequest', assignee_id: 5, agent: { is_active: true }, at: now })
      .then([{ type: 'RequestAssigneeChanged', data: { from: 3, to: 5, changed_on: now } }]);
    given([submitted(), assigned])
      .when({ type: 'AssignRequest', assignee_id: null, agent: undefined, at: now })
      .then([{ type: 'RequestAssigneeChanged', data: { from: 3, to: null, changed_on: now } }]);
  });

  it('assigns only an active agent, naming the field', () => {
    given([submitted()])
      .when({ type: 'AssignRequest', assignee_id: 9, agent: undefined, at: now })
      .thenThrows({ code: 'validation_error', message: expect.stringContaining('assignee_id') });
    given([submitted()])
      .when({ type: 'AssignRequest', assignee_id: 9, agent: { is_active: false }, at: now })
      .thenThrows({ code: 'validation_error', message: 'assignee_id: agent 9 is not active' });
  });

  it('sets the due times anew from the creation when the priority changes', () => {
    given([submitted()])
      .when({ type: 'ChangePriority', priority: 'Urgent', sla_hours: 24, at: now })
      .then([
        {
          type: 'RequestPriorityChanged',
          data: {
            from: 'Medium',
            to: 'Urgent',
            changed_on: now,
            response_by: '2026-11-23T09:30:00Z',
            resolution_by: '2026-11-23T11:00:00Z',
          },
        },
      ]);
  });

  it('moves the request to an active service, its department and its SLA', () => {
    const desk: ServiceFacts = { department_id: 4, sla_hours: 8, requires_approval: false, is_active: true };
    given([submitted()])
      .when({ type: 'ChangeService', service_id: 9, service: desk, at: now })
      .then([
        {
          type: 'RequestServiceChanged',
          data: {
            from: 7,
            to: 9,
            department_id: 4,
            changed_on: now,
            response_by: '2026-11-23T17:00:00Z',
            resolution_by: '2026-11-23T17:00:00Z',
          },
        },
      ]);
    given([submitted()])
      .when({ type: 'ChangeService', service_id: 9, service: undefined, at: now })
      .thenThrows({ code: 'validation_error', message: expect.stringContaining('service_id') });
  });

  it('changes nothing to set what already holds, and nothing of a finished request', () => {
    given([submitted()])
      .when({ type: 'ChangePriority', priority: 'Medium', sla_hours: 24, at: now })
      .then([]);
    given([submitted(), { type: 'RequestClosed', data: { closed_on: now } }])
      .when({ type: 'ChangePriority', priority: 'High', sla_hours: 24, at: now })
      .thenThrows({ code: 'illegal_transition' });
  });
});

describe('comments', () => {
  const now = '2026-11-23T12:00:00Z';
  const note = { type: 'AddComment' as const, body: 'Ordered from the supplier', at: now };

  it('numbers an internal note and leaves the workflow alone', () => {
    given([submitted()])
      .when({ ...note, visibility: 'internal' })
      .then([
        {
          type: 'CommentAdded',
          data: { number: 1, body: 'Ordered from the supplier', visibility: 'internal', added_on: now },
        },
      ]);
  });

  it('moves an open request to Replied with a public reply', () => {
    given([submitted()])
      .when({ ...note, visibility: 'public' })
      .then([
        {
          type: 'CommentAdded',
          data: { number: 1, body: 'Ordered from the supplier', visibility: 'public', added_on: now },
        },
        { type: 'RequestReplied', data: { replied_on: now } },
      ]);
  });

  it('counts on from the comments before, and refuses an empty body', () => {
    const first = {
      type: 'CommentAdded' as const,
      data: { number: 1, body: 'Hi', visibility: 'internal' as const, added_on: now },
    };
    given([submitted(), first])
      .when({ ...note, visibility: 'internal' })
      .then([
        { type: 'CommentAdded', data: { ...first.data, number: 2, body: 'Ordered from the supplier' } },
      ]);
    given([submitted()])
      .when({ ...note, body: '   ', visibility: 'public' })
      .thenThrows({ code: 'validation_error', message: expect.stringContaining('body') });
  });
});

describe('the SLA sweep', () => {
  it('records the target at risk, then its breach, once each', () => {
    const atRisk = {
      type: 'RequestSlaAtRisk' as const,
      data: { target: 'response' as const, due: '2026-11-23T17:00:00Z' },
    };
    given([submitted()]).when({ type: 'CheckSla', at: '2026-11-23T10:00:00Z' }).then([]);
    given([submitted()]).when({ type: 'CheckSla', at: '2026-11-23T15:00:00Z' }).then([atRisk]);
    given([submitted(), atRisk]).when({ type: 'CheckSla', at: '2026-11-23T15:00:00Z' }).then([]);
    given([submitted(), atRisk])
      .when({ type: 'CheckSla', at: '2026-11-23T17:00:00Z' })
      .then([{ type: 'RequestSlaBreached', data: { target: 'response', due: '2026-11-23T17:00:00Z' } }]);
  });

  it('no longer watches the response once a public reply answered it', () => {
    given([
      submitted(),
      {
        type: 'CommentAdded',
        data: { number: 1, body: 'On it', visibility: 'public', added_on: '2026-11-23T10:00:00Z' },
      },
    ])
      .when({ type: 'CheckSla', at: '2026-11-23T17:30:00Z' })
      .then([]);
  });
});

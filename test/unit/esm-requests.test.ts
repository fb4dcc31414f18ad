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
    response_by: '2026-11-21T17:30:00Z',
    resolution_by: '2026-11-22T09:30:00Z',
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
          response_by: '2026-11-21T10:00:00Z',
          resolution_by: '2026-11-21T11:30:00Z',
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
    given(closed).when({ type: 'AssignRequest', assignee_id: 3 }).thenThrows({ code: 'illegal_transition' });
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
      .when({ type: 'UpdateRequest', at: now, status: 'Resolved', assignee_id: 3, feedback_rating: 4 })
      .then([
        { type: 'RequestAssigned', data: { assignee_id: 3 } },
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
      .thenThrows({ code: 'illegal_transition', message: 'A request cannot move from Closed to Open' });
  });

  it('changes nothing when the status is already the one asked for', () => {
    given([submitted()]).when({ type: 'UpdateRequest', at: now, status: 'Open' }).then([]);
  });
});

import { obligationDecider } from '../../src/commands/clm/obligations';
import type { ClmEventOf } from '../../src/events/clm';
import { reportedStatus, statusFilters, summariseObligations } from '../../src/clm/due-dates';
import { deciderSpec } from '../support/decider-spec';

const given = deciderSpec(obligationDecider);

const created: ClmEventOf<'ObligationCreated'> = {
  type: 'ObligationCreated',
  data: {
    id: 'obl_1',
    workspace_id: 'ws-acme',
    contract_id: 'ctr_1',
    title: 'Annual audit',
    due_date: '2026-12-15',
  },
};
const create = (contract: { workspace_id: string } | undefined) => ({
  type: 'CreateObligation' as const,
  obligation: created.data,
  contract,
});
const complete = (workspace_id = 'ws-acme') => ({
  type: 'CompleteObligation' as const,
  workspace_id,
  on: '2026-12-10',
});
const completed: ClmEventOf<'ObligationCompleted'> = {
  type: 'ObligationCompleted',
  data: { workspace_id: 'ws-acme', contract_id: 'ctr_1', completed_on: '2026-12-10' },
};

describe('obligations', () => {
  it('creates an obligation on a contract of the same workspace', () => {
    given([])
      .when(create({ workspace_id: 'ws-acme' }))
      .then([created]);
  });

  it('does not find a contract of another workspace, or none (404)', () => {
    given([])
      .when(create({ workspace_id: 'ws-globex' }))
      .thenThrows({ code: 'not_found' });
    given([]).when(create(undefined)).thenThrows({ code: 'not_found' });
  });

  it('refuses to create one twice', () => {
    given([created])
      .when(create({ workspace_id: 'ws-acme' }))
      .thenThrows({ code: 'already_exists' });
  });

  it('completes once; completing again changes nothing', () => {
    given([created]).when(complete()).then([completed]);
    given([created, completed]).when(complete()).then([]);
  });

  it('does not complete another workspace\u2019s obligation', () => {
    given([created]).when(complete('ws-globex')).thenThrows({ code: 'not_found' });
  });
});

describe('overdue by date', () => {
  it('reports an open obligation due before today as overdue, and one due today as open', () => {
    expect(reportedStatus('open', '2026-11-20', '2026-11-21')).toBe('overdue');
    expect(reportedStatus('open', '2026-11-21', '2026-11-21')).toBe('open');
    expect(reportedStatus('completed', '2026-01-01', '2026-11-21')).toBe('completed');
  });

  it('turns a reported status into read-store filters', () => {
    expect(statusFilters('overdue', '2026-11-21')).toEqual([
      { field: 'status', op: 'eq', value: 'open' },
      { field: 'due_date', op: 'lt', value: '2026-11-21' },
    ]);
    expect(statusFilters('open', '2026-11-21')).toEqual([
      { field: 'status', op: 'eq', value: 'open' },
      { field: 'due_date', op: 'gte', value: '2026-11-21' },
    ]);
  });

  it('summarises a contract\u2019s open obligations: overdue ones count, the next due date is today or later', () => {
    expect(summariseObligations(['2027-03-01', '2026-11-01', '2026-12-15'], '2026-11-21')).toEqual({
      open_obligations: 3,
      overdue_obligations: 1,
      next_due_date: '2026-12-15',
    });
    expect(summariseObligations(['2026-11-01'], '2026-11-21')).toEqual({
      open_obligations: 1,
      overdue_obligations: 1,
      next_due_date: null,
    });
  });
});

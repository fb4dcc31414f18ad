import path from 'node:path';
import { policyDecider, type RequireApproval } from '../../src/approvals/policies/decider';
import type { PolicyEventOf } from '../../src/approvals/policies/events';
import {
  policiesCollection,
  policiesProjection,
  policyOf,
  POLICIES_COLLECTION,
} from '../../src/approvals/policies/projection';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { deciderSpec } from '../support/decider-spec';
import { storedEvent, testMetadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

const route = 'PATCH /api/v1/leave/{id}';
const proposable = ['POST /api/v1/leave', route, 'POST /api/v1/attendance'];
const policy = { module: 'hrm' as const, route, approver_role: 'hrm:approver' as const };
const required: PolicyEventOf<'ApprovalRequired'> = { type: 'ApprovalRequired', data: policy };
const byAdmin: PolicyEventOf<'ApprovalRequired'> = {
  type: 'ApprovalRequired',
  data: { ...policy, approver_role: 'admin' },
};
const cleared: PolicyEventOf<'ApprovalRequirementCleared'> = {
  type: 'ApprovalRequirementCleared',
  data: { module: 'hrm', route },
};
const requiring = (
  overrides: Partial<RequireApproval['policy']> = {},
  routes = proposable,
): RequireApproval => ({
  type: 'RequireApproval',
  policy: { ...policy, ...overrides },
  proposable: routes,
});
const clear = { type: 'ClearApprovalRequirement' as const, policy: { module: 'hrm' as const, route } };

describe('approval policies', () => {
  const given = deciderSpec(policyDecider);

  it('puts a proposable write under a policy; the same role again changes nothing', () => {
    given([]).when(requiring()).then([required]);
    given([required]).when(requiring()).then([]);
    given([required, cleared]).when(requiring()).then([required]);
  });

  it('changes the approver role when required again with another one', () => {
    given([required])
      .when(requiring({ approver_role: 'admin' }))
      .then([byAdmin]);
    given([required, byAdmin]).when(requiring()).then([required]);
  });

  it('keeps the policies of other routes of the module apart', () => {
    const other = requiring({ route: 'POST /api/v1/leave' });
    given([required])
      .when(other)
      .then([{ type: 'ApprovalRequired', data: other.policy }]);
    given([{ type: 'ApprovalRequired', data: other.policy }])
      .when(clear)
      .thenThrows({ code: 'not_found' });
  });

  it('refuses a route the module does not describe as a proposable write, naming those it does', () => {
    given([])
      .when(requiring({ route: 'DELETE /api/v1/leave/{id}' }))
      .thenThrows({
        code: 'validation_error',
        message: expect.stringContaining(proposable.join(', ')),
        details: { routes: proposable },
      });
  });

  it('refuses every route of a module with no proposable write (market sessions never wait)', () => {
    given([])
      .when(requiring({ module: 'market', route: 'POST /api/session', approver_role: 'market:approver' }, []))
      .thenThrows({
        code: 'validation_error',
        message: expect.stringContaining('market has no write that can wait for an approval'),
      });
  });

  it('clears a policy; clearing a route without one answers no policy', () => {
    given([required]).when(clear).then([cleared]);
    given([])
      .when(clear)
      .thenThrows({ code: 'not_found', message: expect.stringContaining('no policy') });
    given([required, cleared]).when(clear).thenThrows({ code: 'not_found' });
  });
});

describe('the approvals.policies read model', () => {
  const stream = 'approvals.policy-hrm';
  const at = (occurred_at: string, actor = 'os:ops') => ({
    metadata: { ...testMetadata, actor, occurred_at },
  });
  const requiredAt = storedEvent(stream, 0, { ...required, ...at('2026-11-21T09:30:00Z') });
  const changedAt = storedEvent(stream, 1, { ...byAdmin, ...at('2026-11-22T10:00:00Z', 'os:lead') });
  const clearedAt = storedEvent(stream, 2, { ...cleared, ...at('2026-11-23T11:00:00Z') });
  const fold = (...events: ReturnType<typeof storedEvent>[]) =>
    events.reduce<ReturnType<typeof policiesProjection.evolve>>(policiesProjection.evolve, null);

  it('keeps one document per module and route, with its approver role, when and by whom', () => {
    expect(policiesProjection.documentId(requiredAt)).toBe('hrm PATCH /api/v1/leave/{id}');
    expect(fold(requiredAt)).toEqual({
      id: 'hrm PATCH /api/v1/leave/{id}',
      ...policy,
      required_at: '2026-11-21T09:30:00Z',
      required_by: 'os:ops',
    });
    expect(fold(requiredAt, changedAt)).toMatchObject({
      approver_role: 'admin',
      required_at: '2026-11-22T10:00:00Z',
      required_by: 'os:lead',
    });
  });

  it('deletes the document of a cleared policy', () => {
    expect(policiesProjection.documentId(clearedAt)).toBe('hrm PATCH /api/v1/leave/{id}');
    expect(fold(requiredAt, clearedAt)).toBeNull();
  });

  it('answers the policy of a write in one read, and null once cleared', async () => {
    const { dir, cleanup } = tempDir();
    const readStore = openSqliteReadStore(path.join(dir, 'read.db'));
    try {
      await readStore.defineCollections([policiesCollection]);
      await expect(policyOf(readStore, 'hrm', route)).resolves.toBeNull();
      const id = policiesProjection.documentId(requiredAt);
      await readStore.commit([{ collection: POLICIES_COLLECTION, id, doc: fold(requiredAt) }], new Map());
      await expect(policyOf(readStore, 'hrm', route)).resolves.toEqual({ approver_role: 'hrm:approver' });
      await expect(policyOf(readStore, 'esm', route)).resolves.toBeNull();
      await readStore.commit([{ collection: POLICIES_COLLECTION, id, doc: null }], new Map());
      await expect(policyOf(readStore, 'hrm', route)).resolves.toBeNull();
    } finally {
      await readStore.close();
      cleanup();
    }
  });
});

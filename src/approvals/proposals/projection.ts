import type { StoredEvent } from '../../events/envelope';
import type { Role } from '../../iam/principal';
import type { DocumentProjection } from '../../projections/projection';
import type { CollectionDefinition } from '../../projections/read-store';
import type { PersonalPlace } from '../../privacy/personal-places';
import { isPastExpiry, type ProposalStatus } from './decider';
import type { ProposalEvent, ProposedCaller } from './events';

export const PROPOSALS_COLLECTION = 'approvals.proposals';

/** A proposal as kept: what it answers (`Proposal`), and what applying it needs. */
export type ProposalRecord = Proposal & {
  params: Record<string, string>;
  caller: ProposedCaller;
  approver_role: Role;
  /** The workspace a contract proposal belongs to: it is seen there only. */
  scope: string | null;
  /** Where the payload holds personal data, and whose (proposals made before it was kept have none). */
  personal_data?: PersonalPlace[];
};

/** A proposal as the proposal routes answer it. */
export type Proposal = {
  id: string;
  module: string;
  route: string;
  path: string;
  payload: unknown;
  proposed_by: string;
  status: ProposalStatus;
  created_at: string;
  expires_at: string;
  decided_by: string | null;
  reason: string | null;
  /** The record the write answered once applied. */
  result: unknown;
  /** Why the write was refused when it was applied (a failed proposal). */
  error: { code: string; message: string } | null;
};

export const proposalsCollection: CollectionDefinition = {
  name: PROPOSALS_COLLECTION,
  idKind: 'string',
  searchFields: [],
  filterFields: ['module', 'status', 'scope', 'expires_at'],
};

type Event = StoredEvent & ProposalEvent;

export const proposalsProjection: DocumentProjection<ProposalRecord> = {
  collection: PROPOSALS_COLLECTION,
  handles: [
    'ChangeProposed',
    'ChangeApproved',
    'ChangeApplied',
    'ChangeFailed',
    'ChangeRejected',
    'ChangeExpired',
  ],
  documentId: (event) => (event as Event).data.id,
  evolve(doc, stored) {
    const event = stored as Event;
    if (event.type === 'ChangeProposed') {
      const { caller, ...data } = event.data;
      return {
        ...data,
        caller,
        proposed_by: caller.actor,
        status: 'pending',
        created_at: event.metadata.occurred_at,
        decided_by: null,
        reason: null,
        result: null,
        error: null,
        scope: caller.scope ?? null,
      };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'ChangeApproved':
        return { ...doc, status: 'approved', decided_by: event.data.approved_by };
      case 'ChangeApplied':
        return { ...doc, status: 'applied', result: event.data.result };
      case 'ChangeFailed':
        return { ...doc, status: 'failed', error: event.data.error };
      case 'ChangeRejected':
        return { ...doc, status: 'rejected', decided_by: event.data.rejected_by, reason: event.data.reason };
      case 'ChangeExpired':
        return { ...doc, status: 'expired' };
    }
  },
};

/** What a proposal answers, as of `now`: one still pending past its expiry is expired already. */
export function presentProposal(record: ProposalRecord, now: Date): Proposal {
  const expired = record.status === 'pending' && isPastExpiry(record.expires_at, now);
  return {
    id: record.id,
    module: record.module,
    route: record.route,
    path: record.path,
    payload: record.payload,
    proposed_by: record.proposed_by,
    status: expired ? 'expired' : record.status,
    created_at: record.created_at,
    expires_at: record.expires_at,
    decided_by: record.decided_by,
    reason: record.reason,
    result: record.result,
    error: record.error,
  };
}

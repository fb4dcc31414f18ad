import type { StoredEvent } from '../../events/envelope';
import type { Role } from '../../iam/principal';
import type { DocumentProjection } from '../../projections/projection';
import type { CollectionDefinition } from '../../projections/read-store';
import type { PersonalPlace } from '../../privacy/personal-places';
import { isPastExpiry, type ProposalStatus } from './decider';
import { proposalStream, type ProposalEvent, type ProposedCaller } from './events';

export const PROPOSALS_COLLECTION = 'approvals.proposals';

/** A proposal as kept: what it answers (`Proposal`), and what applying it needs. */
export type ProposalRecord = Proposal & {
  /** When it was approved: a proposal left `approved` a while is finished by the follower. */
  approved_at: string | null;
  /** The HR employee the approver is, who decided in the domain's terms; `null`: none. */
  approver_employee: number | null;
  /** `<module> <resource>/<id>`: the record a change of one names in its path, whose history shows it. */
  target: string | null;
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
  /** The proposer's person (their actor for proposals made before persons were recorded). */
  proposer_person: string;
  /** The approver's person, once approved. */
  approver_person: string | null;
  status: ProposalStatus;
  created_at: string;
  /** Stamped on every fold (`evolveStamped`). */
  updated_at?: string;
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
  filterFields: ['module', 'status', 'scope', 'expires_at', 'target'],
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
    'ChangeWithdrawn',
  ],
  documentId: (event) => (event as Event).data.id,
  stream: (id) => proposalStream(String(id)),
  evolve(doc, stored) {
    const event = stored as Event;
    if (event.type === 'ChangeProposed') {
      const { caller, ...data } = event.data;
      return {
        ...data,
        caller,
        proposed_by: caller.actor,
        proposer_person: caller.person ?? caller.actor,
        approver_person: null,
        approved_at: null,
        approver_employee: null,
        target: proposalTarget(data.module, data.path),
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
        return {
          ...doc,
          status: 'approved',
          decided_by: event.data.approved_by,
          approver_person: event.data.approver_person ?? event.data.approved_by,
          approved_at: event.metadata.occurred_at,
          approver_employee: event.data.approver_employee ?? null,
        };
      case 'ChangeApplied':
        return { ...doc, status: 'applied', result: event.data.result };
      case 'ChangeFailed':
        return { ...doc, status: 'failed', error: event.data.error };
      case 'ChangeRejected':
        return { ...doc, status: 'rejected', decided_by: event.data.rejected_by, reason: event.data.reason };
      case 'ChangeExpired':
        return { ...doc, status: 'expired' };
      case 'ChangeWithdrawn':
        return { ...doc, status: 'withdrawn', reason: event.data.reason };
    }
  },
};

/** The record a proposal's path names (`/api/v1/leave/405` → `hrm leave/405`); none for a creation. */
export function proposalTarget(module: string, path: string): string | null {
  const [resource, id] = path.replace(/^\/api\/v1\//, '').split('/');
  return resource && id ? `${module} ${resource}/${id}` : null;
}

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
    proposer_person: record.proposer_person,
    approver_person: record.approver_person,
    status: expired ? 'expired' : record.status,
    created_at: record.created_at,
    updated_at: record.updated_at,
    expires_at: record.expires_at,
    decided_by: record.decided_by,
    reason: record.reason,
    result: record.result,
    error: record.error,
  };
}

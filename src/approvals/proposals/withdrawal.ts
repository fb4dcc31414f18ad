import { hasExpired } from '../../iam/keys/events';
import { KEYS_COLLECTION, type KeyRecord } from '../../iam/keys/projection';
import { scanAll } from '../../projections/read-all';
import type { ReadStore } from '../../projections/read-store';
import type { Expiring } from '../../workers/expiry-sweep';
import { decideProposal } from './commands';
import type { WithdrawalReason } from './events';
import { PROPOSALS_COLLECTION, type ProposalRecord } from './projection';

const KEY_ACTOR = /^key:(key_[a-z0-9]{16})$/;

/**
 * Why nobody stands behind a proposal any more, as of `now`: its proposer's key was revoked, or has
 * expired; `null` while it is valid. Other credentials (the bootstrap tokens, an identity provider's
 * tokens) are valid for as long as they are accepted at all.
 */
export async function proposerGone(
  readStore: ReadStore,
  proposerActor: string,
  now: Date,
): Promise<WithdrawalReason | null> {
  const keyId = KEY_ACTOR.exec(proposerActor)?.[1];
  if (keyId === undefined) return null;
  const stored = await readStore.get(KEYS_COLLECTION, keyId);
  if (stored === null) return null;
  const key = JSON.parse(stored) as KeyRecord;
  if (key.status === 'revoked') return 'proposer_revoked';
  if (key.status === 'expired' || hasExpired(key.expires_at, now)) return 'expired';
  return null;
}

async function pendingRecord(readStore: ReadStore, id: string): Promise<ProposalRecord | null> {
  const stored = await readStore.get(PROPOSALS_COLLECTION, id);
  const record = stored === null ? null : (JSON.parse(stored) as ProposalRecord);
  return record?.status === 'pending' ? record : null;
}

/** Pending proposals whose proposer's key was revoked or expired are withdrawn (`ChangeWithdrawn`). */
const PENDING = { field: 'status', op: 'eq', value: 'pending' } as const;

export const proposalWithdrawal: Expiring = {
  name: 'proposal-withdrawal',
  collection: PROPOSALS_COLLECTION,
  live: PENDING,
  async due(readStore, now) {
    const ids: string[] = [];
    const filters = [PENDING];
    for await (const { doc } of scanAll(readStore, PROPOSALS_COLLECTION, { filters }, { pageSize: 500 })) {
      const record = JSON.parse(doc) as ProposalRecord;
      if ((await proposerGone(readStore, record.caller.actor, now)) !== null) ids.push(record.id);
    }
    return ids;
  },
  async expire(context, id, readStore) {
    const record = await pendingRecord(readStore, id);
    const reason = record && (await proposerGone(readStore, record.caller.actor, context.clock.now()));
    if (reason) await decideProposal(context, { type: 'Withdraw', id, reason });
  },
};

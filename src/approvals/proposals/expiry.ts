import type { Expiring } from '../../workers/expiry-sweep';
import { decideProposal } from './commands';
import { PROPOSALS_COLLECTION } from './projection';

/** Pending proposals past their `expires_at` are recorded as expired (`ChangeExpired`). */
export const proposalExpiry: Expiring = {
  name: 'proposal-expiry',
  collection: PROPOSALS_COLLECTION,
  live: { field: 'status', op: 'eq', value: 'pending' },
  expire: (context, id) => decideProposal(context, { type: 'Expire', id, at: context.clock.now() }),
};

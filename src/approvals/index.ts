import type { Projector } from '../projections/projection';
import { policiesCollection, policiesProjection, policyEvents } from './policies';
import { proposalEvents } from './proposals/events';
import { proposalsCollection, proposalsProjection } from './proposals/projection';

const approvalsProjector: Projector = {
  name: 'approvals',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [policiesProjection, proposalsProjection],
};

/**
 * Four-eyes approvals, a capability of the kit: the policies that hold writes back and the proposals
 * they make (stream category `approvals`), their projector and read models.
 */
export const approvalsCapability = {
  id: 'approvals',
  events: [...policyEvents, ...proposalEvents],
  projector: approvalsProjector,
  collections: [policiesCollection, proposalsCollection],
};

export { policyOf } from './policies';
export { decideProposal, newProposalId, propose, type NewProposal } from './proposals/commands';
export { PROPOSAL_ID, proposalStream, type ProposedCaller } from './proposals/events';
export { proposalExpiry } from './proposals/expiry';
export { proposalWithdrawal, proposerGone } from './proposals/withdrawal';
export {
  PROPOSALS_COLLECTION,
  presentProposal,
  proposalsCollection,
  proposalsProjection,
  proposalTarget,
  type Proposal,
  type ProposalRecord,
} from './proposals/projection';

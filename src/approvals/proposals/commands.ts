import { randomBytes } from 'node:crypto';
import type { CommandContext } from '../../commands/context';
import { moduleCommands } from '../../commands/module-commands';
import { eventCatalog } from '../../events/catalog';
import { proposalDecider, type ProposalCommand } from './decider';
import { proposalEvents, proposalStream, type ProposalEventOf } from './events';

const { run } = moduleCommands(eventCatalog(proposalEvents));

export const newProposalId = (at: Date): string =>
  `prp_${at.getTime().toString(36).padStart(9, '0')}${randomBytes(5).toString('hex')}`;

export type NewProposal = ProposalEventOf<'ChangeProposed'>['data'];

export const propose = (context: CommandContext, proposal: NewProposal) =>
  run(context, proposalStream(proposal.id), proposalDecider, { type: 'Propose', proposal });

/** Any other decision on a proposal (approve, record its outcome, reject, expire). */
export const decideProposal = (
  context: CommandContext,
  command: Exclude<ProposalCommand, { type: 'Propose' }>,
) => run(context, proposalStream(command.id), proposalDecider, command);

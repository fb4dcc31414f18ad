import { eventCatalog } from '../../events/catalog';
import {
  clmEvents,
  clmStreams,
  type ClmEvent,
  type ClmEventOf,
  type ContractStatus,
  type MemberRole,
} from '../../events/clm';
import { recordId } from '../../clm/ids';
import { creationData, once, type CommandContext } from '../context';
import { fold } from '../decider';
import { moduleCommands } from '../module-commands';
import {
  contractDecider,
  type ContractState,
  type MemberFacts,
  type PrepareSignaturePayload,
} from './contracts';
import { counterpartyDecider } from './counterparties';
import { obligationDecider } from './obligations';
import { memberDecider, workspaceDecider } from './workspaces';

const { run } = moduleCommands(eventCatalog(clmEvents));

type Data<Type extends ClmEvent['type']> = ClmEventOf<Type>['data'];

async function exists(context: CommandContext, stream: string): Promise<boolean> {
  return (await context.eventStore.readStream(stream, { toRevision: 0 })).length > 0;
}

async function memberFacts(context: CommandContext, memberId: string): Promise<MemberFacts | undefined> {
  const events = await context.eventStore.readStream(clmStreams.member(memberId));
  return fold(memberDecider, events as unknown as Parameters<typeof memberDecider.evolve>[1][]) ?? undefined;
}

/** A contract as its stream tells it (null when it does not exist). */
export async function contractState(context: CommandContext, contractId: string): Promise<ContractState> {
  const events = await context.eventStore.readStream(clmStreams.contract(contractId));
  return fold(contractDecider, events as unknown as Parameters<typeof contractDecider.evolve>[1][]);
}

/** A new record's id, from the command's time: one id per command, drawn before anything is awaited. */
function newId(context: CommandContext, prefix: 'cp' | 'ctr' | 'obl'): string {
  return recordId(prefix, context.clock.now(), context.eventId());
}

export function createWorkspace(context: CommandContext, workspace: Data<'WorkspaceCreated'>) {
  return run(context, clmStreams.workspace(workspace.workspace_id), workspaceDecider, {
    type: 'CreateWorkspace',
    workspace,
  });
}

export async function addMember(context: CommandContext, member: Data<'MemberAdded'>) {
  return run(context, clmStreams.member(member.member_id), memberDecider, {
    type: 'AddMember',
    member,
    workspaceExists: await exists(context, clmStreams.workspace(member.workspace_id)),
  });
}

export function changeMemberRole(context: CommandContext, memberId: string, role: MemberRole) {
  return run(context, clmStreams.member(memberId), memberDecider, { type: 'ChangeMemberRole', role });
}

export type CounterpartyInput = Omit<Data<'CounterpartyRegistered'>, 'id'>;

export async function registerCounterparty(context: CommandContext, counterparty: CounterpartyInput) {
  const id = newId(context, 'cp');
  const result = await run(context, clmStreams.counterparty(id), counterpartyDecider, {
    type: 'RegisterCounterparty',
    counterparty: { id, ...counterparty },
    workspaceExists: await exists(context, clmStreams.workspace(counterparty.workspace_id)),
  });
  return { id, ...result };
}

export type ContractInput = Omit<Data<'ContractDrafted'>, 'id' | 'counterparty_name'>;

export async function draftContract(context: CommandContext, contract: ContractInput) {
  const id = newId(context, 'ctr');
  const counterparty = await creationData<Data<'CounterpartyRegistered'>>(
    context,
    clmStreams.counterparty(contract.counterparty_id),
  );
  const result = await run(context, clmStreams.contract(id), contractDecider, {
    type: 'DraftContract',
    contract: { id, ...contract, counterparty_name: counterparty?.legal_name ?? '' },
    counterparty,
    owner: await memberFacts(context, contract.owner_id),
  });
  return { id, ...result };
}

export interface VersionInput {
  workspace_id: string;
  author_id: string;
  note: string;
  content: string;
}

export async function addContractVersion(context: CommandContext, contractId: string, input: VersionInput) {
  return run(context, clmStreams.contract(contractId), contractDecider, {
    type: 'AddContractVersion',
    ...input,
    author: await memberFacts(context, input.author_id),
  });
}

export function changeContractStatus(
  context: CommandContext,
  contractId: string,
  workspaceId: string,
  to: ContractStatus,
) {
  const timed = once(context);
  return run(timed.context, clmStreams.contract(contractId), contractDecider, {
    type: 'ChangeContractStatus',
    workspace_id: workspaceId,
    to,
    at: timed.at,
  });
}

export function recordSignaturePayload(
  context: CommandContext,
  contractId: string,
  command: Omit<PrepareSignaturePayload, 'type'>,
) {
  return run(context, clmStreams.contract(contractId), contractDecider, {
    type: 'PrepareSignaturePayload',
    ...command,
  });
}

export type ObligationInput = Omit<Data<'ObligationCreated'>, 'id'>;

export async function createObligation(context: CommandContext, obligation: ObligationInput) {
  const id = newId(context, 'obl');
  const contract = await creationData<Data<'ContractDrafted'>>(
    context,
    clmStreams.contract(obligation.contract_id),
  );
  const result = await run(context, clmStreams.obligation(id), obligationDecider, {
    type: 'CreateObligation',
    obligation: { id, ...obligation },
    contract,
  });
  return { id, ...result };
}

export function completeObligation(
  context: CommandContext,
  obligationId: string,
  workspaceId: string,
  on: string,
) {
  return run(context, clmStreams.obligation(obligationId), obligationDecider, {
    type: 'CompleteObligation',
    workspace_id: workspaceId,
    on,
  });
}

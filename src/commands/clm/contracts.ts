import { createHash } from 'node:crypto';
import {
  WRITING_ROLES,
  type ClmEvent,
  type ClmEventOf,
  type ContractStatus,
  type MemberRole,
  type SignatureProvider,
} from '../../events/clm';
import type { Decider } from '../decider';
import { DomainError, illegalTransition, invalidField } from '../errors';

type ContractEvent = Extract<
  ClmEvent,
  { type: 'ContractDrafted' | 'ContractVersionAdded' | 'ContractStatusChanged' | 'SignaturePayloadPrepared' }
>;

/** What a decision needs to know about a workspace member it names. */
export interface MemberFacts {
  workspace_id: string;
  role: MemberRole;
}

export interface DraftContract {
  type: 'DraftContract';
  contract: ClmEventOf<'ContractDrafted'>['data'];
  /** `undefined`: the counterparty does not exist. */
  counterparty: { workspace_id: string } | undefined;
  owner: MemberFacts | undefined;
}

export interface AddContractVersion {
  type: 'AddContractVersion';
  workspace_id: string;
  author_id: string;
  author: MemberFacts | undefined;
  note: string;
  content: string;
}

export interface ChangeContractStatus {
  type: 'ChangeContractStatus';
  workspace_id: string;
  to: ContractStatus;
  at: string;
}

export interface PrepareSignaturePayload {
  type: 'PrepareSignaturePayload';
  workspace_id: string;
  provider: SignatureProvider;
  /** The version the payload was built from: it must still be the current one. */
  version: number;
  payload_sha256: string;
  signers: { name: string; email: string }[];
  at: string;
}

export type ContractCommand =
  DraftContract | AddContractVersion | ChangeContractStatus | PrepareSignaturePayload;

export interface ContractVersion {
  version: number;
  content: string;
  content_sha256: string;
}

export type ContractState = {
  workspace_id: string;
  counterparty_id: string;
  status: ContractStatus;
  current: ContractVersion | null;
} | null;

/** Every legal move of a contract's status; expired and terminated are final. */
export const CONTRACT_TRANSITIONS: Record<ContractStatus, readonly ContractStatus[]> = {
  draft: ['in_review', 'terminated'],
  in_review: ['draft', 'approved', 'terminated'],
  approved: ['in_review', 'signed', 'terminated'],
  signed: ['active', 'terminated'],
  active: ['expired', 'terminated'],
  expired: [],
  terminated: [],
};

/** Text changes only while the contract is negotiated. */
const EDITABLE: readonly ContractStatus[] = ['draft', 'in_review'];
/** A signature payload is prepared for a contract that is not signed yet. */
const SIGNABLE: readonly ContractStatus[] = ['draft', 'in_review', 'approved'];

export const contentSha256 = (content: string): string =>
  createHash('sha256').update(content, 'utf8').digest('hex');

function mayWrite(member: MemberFacts | undefined, workspace: string): boolean {
  return member?.workspace_id === workspace && WRITING_ROLES.includes(member.role);
}

function draft(command: DraftContract): ContractEvent[] {
  const { contract } = command;
  if (command.counterparty?.workspace_id !== contract.workspace_id) {
    throw invalidField('counterparty_id', `counterparty ${contract.counterparty_id} does not exist`);
  }
  if (!mayWrite(command.owner, contract.workspace_id)) {
    throw invalidField('owner_id', `${contract.owner_id} is not a member who may write in this workspace`);
  }
  if (contract.end_date !== null && contract.end_date < contract.start_date) {
    throw invalidField('end_date', 'must not be before start_date');
  }
  return [{ type: 'ContractDrafted', data: contract }];
}

function addVersion(command: AddContractVersion, state: NonNullable<ContractState>): ContractEvent[] {
  if (!EDITABLE.includes(state.status)) illegal(state, 'add a version to');
  if (!mayWrite(command.author, state.workspace_id)) {
    throw invalidField('author_id', `${command.author_id} is not a member who may write in this workspace`);
  }
  return [
    {
      type: 'ContractVersionAdded',
      data: {
        workspace_id: state.workspace_id,
        version: (state.current?.version ?? 0) + 1,
        author_id: command.author_id,
        note: command.note,
        content: command.content,
        content_sha256: contentSha256(command.content),
      },
    },
  ];
}

function changeStatus(command: ChangeContractStatus, state: NonNullable<ContractState>): ContractEvent[] {
  const from = state.status;
  if (command.to === from) return [];
  if (!CONTRACT_TRANSITIONS[from].includes(command.to)) {
    throw new DomainError('illegal_transition', `A contract cannot move from ${from} to ${command.to}`, {
      from,
      to: command.to,
    });
  }
  if (command.to !== 'terminated' && command.to !== 'draft' && !state.current) {
    throw new DomainError('illegal_transition', 'A contract without a version cannot move on', { from });
  }
  const { workspace_id, counterparty_id } = state;
  return [
    {
      type: 'ContractStatusChanged',
      data: { workspace_id, counterparty_id, from, to: command.to, changed_on: command.at },
    },
  ];
}

/** The version a signature payload is prepared from, or why there is none (409). */
export function signableVersion(state: NonNullable<ContractState>): ContractVersion {
  if (!SIGNABLE.includes(state.status)) illegal(state, 'prepare signatures for');
  if (!state.current) {
    throw new DomainError('illegal_transition', 'The contract has no version to sign yet', {
      from: state.status,
    });
  }
  return state.current;
}

function prepare(command: PrepareSignaturePayload, state: NonNullable<ContractState>): ContractEvent[] {
  const current = signableVersion(state);
  if (current.version !== command.version) {
    throw new DomainError('concurrency_conflict', 'A newer version was added meanwhile; prepare again');
  }
  return [
    {
      type: 'SignaturePayloadPrepared',
      data: {
        workspace_id: state.workspace_id,
        provider: command.provider,
        version: command.version,
        content_sha256: current.content_sha256,
        payload_sha256: command.payload_sha256,
        signers: command.signers,
        prepared_at: command.at,
      },
    },
  ];
}

function illegal(state: NonNullable<ContractState>, action: string): never {
  throw illegalTransition('contract', state.status, action);
}

export const contractDecider: Decider<ContractCommand, ContractState, ContractEvent> = {
  initialState: () => null,
  evolve(state, event) {
    switch (event.type) {
      case 'ContractDrafted': {
        const { workspace_id, counterparty_id } = event.data;
        return { workspace_id, counterparty_id, status: 'draft', current: null };
      }
      case 'ContractVersionAdded': {
        const { version, content, content_sha256 } = event.data;
        return state && { ...state, current: { version, content, content_sha256 } };
      }
      case 'ContractStatusChanged':
        return state && { ...state, status: event.data.to };
      case 'SignaturePayloadPrepared':
        return state;
    }
  },
  decide(command, state) {
    if (command.type === 'DraftContract') {
      if (state) throw new DomainError('already_exists', `Contract ${command.contract.id} exists`);
      return draft(command);
    }
    // A contract of another workspace is as absent as one that does not exist.
    if (!state || state.workspace_id !== command.workspace_id) {
      throw new DomainError('not_found', 'Contract not found');
    }
    switch (command.type) {
      case 'AddContractVersion':
        return addVersion(command, state);
      case 'ChangeContractStatus':
        return changeStatus(command, state);
      case 'PrepareSignaturePayload':
        return prepare(command, state);
    }
  },
};

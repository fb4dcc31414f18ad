import type { Decider } from '../../commands/decider';
import { DomainError, invalidField } from '../../commands/errors';
import { hasExpired, type KeyEvent, type KeyEventOf } from './events';

export type KeyStatus = 'active' | 'revoked' | 'expired';

export interface IssueKey {
  type: 'IssueKey';
  key: KeyEventOf<'KeyIssued'>['data'];
  /** The workspace of the member the key is bound to; `undefined`: no such member (or none named). */
  memberWorkspace: string | undefined;
}

export type KeyCommand =
  | IssueKey
  | { type: 'RevokeKey'; id: string }
  /** `at`: the time of the sweep that found the key past its expiry. */
  | { type: 'ExpireKey'; id: string; at: Date };

type KeyState = { status: KeyStatus; expires_at: string | null } | null;

/**
 * A key bound to a member acts as that member in contracts only: the member must be one of the
 * workspace's, and the key must hold a role there.
 */
function issue({ key, memberWorkspace }: IssueKey): KeyEvent[] {
  if ((key.member === null) !== (key.workspace === null)) {
    throw invalidField(
      key.member === null ? 'member' : 'workspace',
      'member and workspace are given together',
    );
  }
  if (key.member !== null) {
    if (memberWorkspace !== key.workspace) {
      throw invalidField('member', `${key.member} is not a member of workspace ${key.workspace}`);
    }
    if (!key.roles.some((role) => role.startsWith('clm:'))) {
      throw invalidField(
        'roles',
        'a key bound to a member needs a clm: role (clm:writer, clm:reader, clm:approver)',
      );
    }
  }
  return [{ type: 'KeyIssued', data: key }];
}

function expire(command: { id: string; at: Date }, expiresAt: string | null): KeyEvent[] {
  if (!hasExpired(expiresAt, command.at)) {
    throw new DomainError(
      'illegal_transition',
      expiresAt === null ? 'This key never expires' : `This key expires at ${expiresAt}`,
      { expires_at: expiresAt },
    );
  }
  return [{ type: 'KeyExpired', data: { id: command.id } }];
}

/**
 * A key is issued once, and ends once: revoked, or expired after its `expires_at`. Ending a key that
 * has ended changes nothing, so a revocation repeated, or an expiry two workers both found, is no error.
 */
export const keyDecider: Decider<KeyCommand, KeyState, KeyEvent> = {
  initialState: () => null,
  evolve(state, event) {
    if (event.type === 'KeyIssued') return { status: 'active', expires_at: event.data.expires_at };
    if (!state) return state;
    return { ...state, status: event.type === 'KeyRevoked' ? 'revoked' : 'expired' };
  },
  decide(command, state) {
    if (command.type === 'IssueKey') {
      if (state) throw new DomainError('already_exists', `Key ${command.key.id} exists`);
      return issue(command);
    }
    if (!state) throw new DomainError('not_found', `No key ${command.id}`);
    if (state.status !== 'active') return [];
    if (command.type === 'RevokeKey') return [{ type: 'KeyRevoked', data: { id: command.id } }];
    return expire(command, state.expires_at);
  },
};

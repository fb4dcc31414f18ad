import type { ClmEventOf, MemberRole } from '../../events/clm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type WorkspaceCreated = ClmEventOf<'WorkspaceCreated'>;

/** Workspace and member ids are chosen by whoever sets the workspace up: short, lower-case, URL-safe. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export interface CreateWorkspace {
  type: 'CreateWorkspace';
  workspace: WorkspaceCreated['data'];
}

export const workspaceDecider: Decider<CreateWorkspace, { exists: boolean }, WorkspaceCreated> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ workspace }, state) {
    if (state.exists) throw new DomainError('already_exists', `Workspace ${workspace.workspace_id} exists`);
    if (!SLUG.test(workspace.workspace_id)) throw invalidField('workspace_id', 'must be a lower-case slug');
    return [{ type: 'WorkspaceCreated', data: workspace }];
  },
};

type MemberEvent = ClmEventOf<'MemberAdded'> | ClmEventOf<'MemberRoleChanged'>;

export interface AddMember {
  type: 'AddMember';
  member: ClmEventOf<'MemberAdded'>['data'];
  workspaceExists: boolean;
}

export interface ChangeMemberRole {
  type: 'ChangeMemberRole';
  role: MemberRole;
}

export type MemberState = { workspace_id: string; role: MemberRole } | null;

/** A member belongs to one workspace; their id names them on every event they cause. */
export const memberDecider: Decider<AddMember | ChangeMemberRole, MemberState, MemberEvent> = {
  initialState: () => null,
  evolve: (state, event) =>
    event.type === 'MemberAdded'
      ? { workspace_id: event.data.workspace_id, role: event.data.role }
      : state && { ...state, role: event.data.to },
  decide(command, state) {
    if (command.type === 'AddMember') {
      const { member } = command;
      if (state) throw new DomainError('already_exists', `Member ${member.member_id} exists`);
      if (!SLUG.test(member.member_id)) throw invalidField('member_id', 'must be a lower-case slug');
      if (!command.workspaceExists) {
        throw invalidField('workspace_id', `workspace ${member.workspace_id} does not exist`);
      }
      return [{ type: 'MemberAdded', data: member }];
    }
    if (!state) throw new DomainError('not_found', 'Member not found');
    if (state.role === command.role) return [];
    return [
      {
        type: 'MemberRoleChanged',
        data: { workspace_id: state.workspace_id, from: state.role, to: command.role },
      },
    ];
  },
};

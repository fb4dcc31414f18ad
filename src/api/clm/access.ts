import { WRITING_ROLES, clmCollections, type MemberRole } from '../../events/clm';
import type { Principal } from '../../iam/principal';
import { callerOf, modulePrincipalCheck } from '../kit/auth';
import { BEARER_AUTH } from '../kit/bearer-scheme';
import { ApiError } from '../kit/errors';
import type { AccessRequest, ModuleAccess } from '../kit/module';
import { shortened } from '../kit/validation';

export const ORGANISATION_HEADER = 'X-Svc-Organisation';
export const ACTOR_HEADER = 'X-Svc-Actor';

const API_DISABLED = new ApiError(
  'api_disabled',
  'The contract API is disabled until an API token is configured',
);

function required(request: AccessRequest, name: string): string {
  const value = request.header(name)?.trim();
  if (!value) throw new ApiError('missing_header', `The ${name} header is required`, { header: name });
  return value;
}

/** A key bound to one member of one workspace (`suite keys create --member --workspace`) acts only as that member. */
function boundTo(principal: Principal, header: string, expected: string | undefined, given: string): void {
  if (expected !== undefined && expected !== given) {
    throw new ApiError('forbidden', `This credential acts only as ${shortened(expected)}`, { header });
  }
}

/**
 * The contract module is private: every data request needs a bearer credential holding the
 * operation's `clm:` role (503 while none can be checked, 401 when invalid, 403 without the role) and
 * names its workspace; every write also names the member who makes it, who must belong to that
 * workspace in a role that may write. A credential bound to a member acts only as that member, in
 * that workspace; an unbound one (an integration account, the bootstrap token) acts for any member.
 * Events name both: the principal as `actor`, the member as `member`.
 */
export const clmAccess: ModuleAccess = {
  async authorize(request, need, services, settings) {
    const principal = await modulePrincipalCheck(settings, API_DISABLED)(
      request.header('authorization'),
      need.role,
    );
    const workspace = required(request, ORGANISATION_HEADER);
    boundTo(principal, ORGANISATION_HEADER, principal.workspace, workspace);
    if ((await services.readStore.get(clmCollections.workspaces, workspace)) === null) {
      throw new ApiError('forbidden', `Workspace ${shortened(workspace)} is unknown or not accessible`, {
        header: ORGANISATION_HEADER,
      });
    }
    const caller = { ...callerOf(principal), scope: workspace };
    if (need.kind === 'read') return caller;

    const actor = required(request, ACTOR_HEADER);
    boundTo(principal, ACTOR_HEADER, principal.member, actor);
    const member = await services.readStore.get(clmCollections.members, actor);
    const facts = member === null ? null : (JSON.parse(member) as { workspace_id: string; role: MemberRole });
    if (facts?.workspace_id !== workspace) {
      throw new ApiError(
        'forbidden',
        `${shortened(actor)} is not a member of workspace ${shortened(workspace)}`,
        { header: ACTOR_HEADER },
      );
    }
    if (!WRITING_ROLES.includes(facts.role)) {
      throw new ApiError('forbidden', `A ${facts.role} may not write in this workspace`, {
        header: ACTOR_HEADER,
        role: facts.role,
      });
    }
    return { ...caller, member: actor };
  },
  securitySchemes: { bearerAuth: BEARER_AUTH },
  headers: [
    {
      name: ORGANISATION_HEADER,
      description: 'The workspace id the request is scoped to (e.g. ws-acme)',
      on: 'all',
    },
    {
      name: ACTOR_HEADER,
      description: 'The id of the workspace member making the write (owner or editor), recorded for audit',
      on: 'writes',
    },
  ],
  errors: {
    400: `Missing ${ORGANISATION_HEADER} (or, on writes, ${ACTOR_HEADER}) header`,
    401: 'Missing or invalid bearer credential',
    403:
      'A credential without the role, or bound to another member or workspace; an unknown workspace; ' +
      'an actor who is not a member of it or may not write',
    503: 'No credential can be checked: no API token, no identity provider (and no valid API key)',
  },
};

import { WRITING_ROLES, clmCollections, type MemberRole } from '../../events/clm';
import { apiTokenCheck } from '../kit/auth';
import { ApiError } from '../kit/errors';
import type { AccessRequest, ModuleAccess } from '../kit/module';
import { shortened } from '../kit/validation';

export const ORGANISATION_HEADER = 'X-Svc-Organisation';
export const ACTOR_HEADER = 'X-Svc-Actor';

function required(request: AccessRequest, name: string): string {
  const value = request.header(name)?.trim();
  if (!value) throw new ApiError('missing_header', `The ${name} header is required`, { header: name });
  return value;
}

/**
 * The contract module is private: every data request needs the bearer token (503 until one is
 * configured, 401 when wrong) and names its workspace; every write also names the member who makes
 * it, who must belong to that workspace in a role that may write.
 */
export const clmAccess: ModuleAccess = {
  async authorize(request, kind, services, settings) {
    if (settings.apiToken === undefined) {
      throw new ApiError('api_disabled', 'The contract API is disabled until an API token is configured');
    }
    const tokenHolder = apiTokenCheck(settings)(request.header('authorization'));
    const workspace = required(request, ORGANISATION_HEADER);
    if ((await services.readStore.get(clmCollections.workspaces, workspace)) === null) {
      throw new ApiError('forbidden', `Workspace ${shortened(workspace)} is unknown or not accessible`, {
        header: ORGANISATION_HEADER,
      });
    }
    if (kind === 'read') return { actor: tokenHolder, scope: workspace };

    const actor = required(request, ACTOR_HEADER);
    const member = await services.readStore.get(clmCollections.members, actor);
    const facts = member === null ? null : (JSON.parse(member) as { workspace_id: string; role: MemberRole });
    if (facts?.workspace_id !== workspace) {
      throw new ApiError(
        'forbidden',
        `${shortened(actor)} is not a member of workspace ${shortened(workspace)}`,
        {
          header: ACTOR_HEADER,
        },
      );
    }
    if (!WRITING_ROLES.includes(facts.role)) {
      throw new ApiError('forbidden', `A ${facts.role} may not write in this workspace`, {
        header: ACTOR_HEADER,
        role: facts.role,
      });
    }
    return { actor, scope: workspace };
  },
  securitySchemes: {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      description: 'The deployment\u2019s API token (SUITE_API_TOKEN), for server-side use only',
    },
  },
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
    401: 'Missing or wrong bearer token',
    403: 'Unknown workspace, or an actor who is not a member of it or may not write',
    503: 'The API is disabled until an API token is configured',
  },
};

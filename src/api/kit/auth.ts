import type { IncomingMessage } from 'node:http';
import type { Principal, Role } from '../../iam/principal';
import { UNTHROTTLED, type AuthThrottle } from './auth-throttle';
import { ApiError } from './errors';
import { createIdentity, requireRole, type Identity } from './identity';
import type { AccessNeed, Caller, ModuleSettings } from './module';

/** What a credential check answers while no credential could be valid: no token, no identity provider. */
const DISABLED = {
  writes: new ApiError('writes_disabled', 'Writes are disabled until an API token is configured'),
  audit: new ApiError('audit_disabled', 'The audit API is disabled until an auditor token is configured'),
};

/** Checks an `Authorization` header for a principal holding a role (if one is named); answers the principal. */
export type PrincipalCheck = (authorization: string | undefined, role?: Role) => Promise<Principal>;

/**
 * Bearer authentication: 401 for a missing or invalid credential (503 `disabled` instead while none
 * could be valid: the bootstrap token unset and no identity provider, unless the request carries a
 * valid API key), then 403 `forbidden` for a principal without the role.
 */
function principalCheck(identity: Identity, bootstrapped: boolean, disabled: ApiError): PrincipalCheck {
  return async (authorization, role) => {
    let principal: Principal;
    try {
      principal = await identity.principal(authorization);
    } catch (error) {
      const nothingConfigured = !bootstrapped && !identity.federated;
      if (nothingConfigured && error instanceof ApiError && error.code === 'unauthorized') throw disabled;
      throw error;
    }
    if (role) requireRole(principal, role);
    return principal;
  };
}

/** Identities made for settings that name none: the bootstrap administrator's token alone. */
const bootstrapIdentities = new WeakMap<ModuleSettings, Identity>();

function identityOf(settings: ModuleSettings): Identity {
  if (settings.identity) return settings.identity;
  let identity = bootstrapIdentities.get(settings);
  if (!identity)
    bootstrapIdentities.set(settings, (identity = createIdentity({ apiToken: settings.apiToken })));
  return identity;
}

/**
 * The module ports' check: the settings' identity (by default the bootstrap administrator's token
 * alone); `disabled` is what it answers while no credential could be valid.
 */
export function modulePrincipalCheck(
  settings: ModuleSettings,
  disabled: ApiError = DISABLED.writes,
): PrincipalCheck {
  return principalCheck(identityOf(settings), settings.apiToken !== undefined, disabled);
}

/** The caller a principal makes: recorded as `actor` (and `actor_name`) on the events it causes. */
export const callerOf = (principal: Principal): Caller => ({
  actor: principal.id,
  ...(principal.name !== undefined && { actorName: principal.name }),
  person: principal.person,
  principal,
});

/**
 * The audit API's check, behind the failed-authentication throttle: a bearer credential holding the
 * route's role (the auditor's; 503 `audit_disabled` while no auditor token is set and no identity
 * provider), or any valid credential for a route that names none (`GET /api/v1/me`; 503 while
 * neither bootstrap token is set and no identity provider).
 */
export function auditorCheck(
  identity: Identity,
  tokens: { auditToken: string | undefined; apiToken: string | undefined },
  throttle: AuthThrottle = UNTHROTTLED,
): (req: IncomingMessage, need: AccessNeed) => Promise<Caller> {
  const auditor = principalCheck(identity, tokens.auditToken !== undefined, DISABLED.audit);
  const anyone = principalCheck(
    identity,
    tokens.auditToken !== undefined || tokens.apiToken !== undefined,
    DISABLED.audit,
  );
  return async (req, need) => {
    const check = need.role ? auditor : anyone;
    return callerOf(await throttle.guard(req, () => check(req.headers.authorization, need.role)));
  };
}

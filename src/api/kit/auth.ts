import type { RequestHandler } from 'express';
import type { Principal, Role } from '../../iam/principal';
import { UNTHROTTLED, type AuthThrottle } from './auth-throttle';
import { ApiError } from './errors';
import { createIdentity, requireRole, type Identity } from './identity';
import type { Caller, ModuleSettings } from './module';

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

/** The audit API's check, as express middleware behind the failed-authentication throttle: the auditor role. */
export function requireAuditor(
  identity: Identity,
  auditToken: string | undefined,
  throttle: AuthThrottle = UNTHROTTLED,
): RequestHandler {
  const check = principalCheck(identity, auditToken !== undefined, DISABLED.audit);
  return (req, _res, next) => {
    throttle.guard(req, () => check(req.get('authorization'), 'auditor')).then(() => next(), next);
  };
}

/**
 * The audit API's `GET /api/v1/me`: any valid credential, whatever its roles (503 while none could be
 * valid); the principal is left in `res.locals.principal`.
 */
export function requireCredential(
  identity: Identity,
  bootstrapped: boolean,
  throttle: AuthThrottle = UNTHROTTLED,
): RequestHandler {
  const check = principalCheck(identity, bootstrapped, DISABLED.audit);
  return (req, res, next) => {
    throttle
      .guard(req, () => check(req.get('authorization')))
      .then((principal) => {
        res.locals.principal = principal;
        next();
      }, next);
  };
}

/**
 * The check of the audit API's administrative writes (erasures): the `admin` role, the bootstrap
 * administrator's token included; the principal is left in `res.locals.principal`.
 */
export function requireAdministrator(
  identity: Identity,
  apiToken: string | undefined,
  throttle: AuthThrottle = UNTHROTTLED,
): RequestHandler {
  const check = principalCheck(identity, apiToken !== undefined, DISABLED.writes);
  return (req, res, next) => {
    throttle
      .guard(req, () => check(req.get('authorization'), 'admin'))
      .then((principal) => {
        res.locals.principal = principal;
        next();
      }, next);
  };
}

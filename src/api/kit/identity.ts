import { createHash, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../commands/errors';
import { holds } from '../../iam/holds';
import { unauthorized, type Authenticator, type Principal, type Role } from '../../iam/principal';
import { ApiError, toApiError } from './errors';

/** Names the principal of a request's `Authorization: Bearer` header. */
export interface Identity {
  /** The principal the header names; the 401 `ApiError` when it names none. */
  principal(authorization: string | undefined): Promise<Principal>;
  /** Whether credentials beyond the bootstrap tokens are configured (an identity provider). */
  federated: boolean;
}

export interface IdentitySources {
  /** `SUITE_API_TOKEN`: the bootstrap administrator. */
  apiToken?: string;
  /** `SUITE_AUDIT_TOKEN`: the bootstrap auditor. */
  auditToken?: string;
  /** API keys, an identity provider's tokens: asked in order after the bootstrap tokens. */
  authenticators?: readonly Authenticator[];
  federated?: boolean;
}

export const ADMIN: Principal = { id: 'token:admin', kind: 'bootstrap', roles: ['admin'], person: 'admin' };
export const AUDITOR: Principal = {
  id: 'token:auditor',
  kind: 'bootstrap',
  roles: ['auditor'],
  person: 'auditor',
};

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The suite's credentials: the bootstrap tokens, compared as fixed-length digests in constant time,
 * then each authenticator (API keys, OIDC) in turn. Tokens are never logged.
 */
export function createIdentity(sources: IdentitySources): Identity {
  const bootstrap = [
    { token: sources.apiToken, principal: ADMIN },
    { token: sources.auditToken, principal: AUDITOR },
  ].flatMap(({ token, principal }) => (token === undefined ? [] : [{ digest: digest(token), principal }]));
  const authenticators = sources.authenticators ?? [];
  return {
    federated: sources.federated === true,
    async principal(authorization) {
      try {
        const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
        if (!token) throw unauthorized();
        const given = digest(token);
        const known = bootstrap.find((candidate) => timingSafeEqual(given, candidate.digest));
        if (known) return known.principal;
        for (const authenticate of authenticators) {
          const principal = await authenticate(token);
          if (principal) return principal;
        }
        throw unauthorized();
      } catch (error) {
        // A refused credential answers as HTTP says (401 with its challenge, 503); a fault stays one.
        throw error instanceof DomainError ? toApiError(error) : error;
      }
    },
  };
}

/** Throws the 403 `forbidden` error, naming the role, unless the principal holds it. */
export function requireRole(principal: Principal, role: Role): void {
  if (!holds(principal, role)) {
    throw new ApiError('forbidden', `This needs the role ${role}`, { required_role: role });
  }
}

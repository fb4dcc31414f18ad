import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { DomainError } from '../commands/errors';
import { ConfigError, type OidcConfig } from '../config';
import type { JwksSource } from './jwks-source';
import { isRole, PERSON, unauthorized, type Authenticator, type Principal, type Role } from './principal';

/** Identity providers' signature algorithms; never a shared secret (HS*) nor `none`. */
const ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];
const CLOCK_SKEW_SECONDS = 60;
/** Identity providers' tokens are 1 to 4 kB; a longer one is refused before it is parsed. */
const MAX_TOKEN_LENGTH = 8_192;
/** Header, payload and signature, base64url-encoded; the signature is empty for `alg: none` (refused later). */
const COMPACT_JWS = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/** The longest `sub` and name (`name`, `email`) taken: every event a caller causes names them. */
export const MAX_SUBJECT_LENGTH = 255;
export const MAX_NAME_LENGTH = 200;
/** The token types (`typ`) of a JWT or an OAuth access token (RFC 9068), with or without `application/`. */
const TOKEN_TYPES = new Set(['jwt', 'at+jwt']);

/** `invalid_token`: a token signed by the provider whose claims the suite does not take. */
const invalidToken = (message: string) => new DomainError('invalid_token', message);

/** The errors the key set itself raises when a token names no key of it: the token's fault. */
const TOKEN_FAULTS = new Set([
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
]);

/** The identity provider's keys could not be fetched or used: no token can be checked, and none is at fault. */
const keySetUnavailable = (cause: unknown) =>
  new DomainError(
    'identity_provider_unavailable',
    'The identity provider\u2019s keys cannot be fetched; try again later',
    undefined,
    { cause },
  );

function fileKeySet(file: string): JWTVerifyGetKey {
  try {
    return createLocalJWKSet(JSON.parse(readFileSync(file, 'utf8')));
  } catch (cause) {
    throw new ConfigError('SUITE_OIDC_JWKS: the file is not a JSON Web Key Set', { cause });
  }
}

/** jose fetches the keys on first use, keeps them 10 minutes, and refetches for an unknown `kid` (at most every 30 s). */
function remoteKeySet(url: URL): JWTVerifyGetKey {
  const keys = createRemoteJWKSet(url);
  return async (header, token) => {
    try {
      return await keys(header, token);
    } catch (error) {
      if (error instanceof errors.JOSEError && TOKEN_FAULTS.has(error.code)) throw error;
      throw keySetUnavailable(error);
    }
  };
}

const keySet = (jwks: JwksSource) => ('url' in jwks ? remoteKeySet(jwks.url) : fileKeySet(jwks.file));

/** The claim of that exact name (`https://example.com/roles`), else the dotted path (`realm_access.roles`). */
function claimAt(payload: JWTPayload, name: string): unknown {
  if (Object.hasOwn(payload, name)) return payload[name];
  return name
    .split('.')
    .reduce<unknown>(
      (claims, key) =>
        typeof claims === 'object' && claims !== null && Object.hasOwn(claims, key)
          ? (claims as Record<string, unknown>)[key]
          : undefined,
      payload,
    );
}

/**
 * The suite's roles among the claim's strings; whatever else the identity provider lists is ignored,
 * `admin` too unless the provider may grant it (`SUITE_OIDC_ADMIN_ROLE`).
 */
const knownRoles = (claim: unknown, adminRole: boolean): Role[] =>
  Array.isArray(claim)
    ? [
        ...new Set(
          claim.filter(
            (role): role is Role =>
              typeof role === 'string' && isRole(role) && (adminRole || role !== 'admin'),
          ),
        ),
      ]
    : [];

/** The caller's name: `name`, else `email`; either, when given, at most MAX_NAME_LENGTH characters. */
function displayName(payload: JWTPayload): string | undefined {
  const names = [payload.name, payload.email].filter(
    (claim): claim is string => typeof claim === 'string' && claim !== '',
  );
  if (names.some((claim) => claim.length > MAX_NAME_LENGTH)) {
    throw invalidToken(`The token's name and email claims may hold at most ${MAX_NAME_LENGTH} characters`);
  }
  return names[0];
}

/** The person a token names: its `sub`, or the configured claim, which a token must then carry. */
function personOf(payload: JWTPayload, sub: string, personClaim: string | undefined): string {
  if (personClaim === undefined) return sub;
  const person = claimAt(payload, personClaim);
  if (typeof person !== 'string' || !PERSON.test(person)) throw unauthorized();
  return person;
}

function principalOf(payload: JWTPayload, oidc: OidcConfig): Principal {
  const { sub, email } = payload;
  if (typeof sub !== 'string' || sub === '') throw unauthorized();
  if (sub.length > MAX_SUBJECT_LENGTH) {
    throw invalidToken(`The token's sub claim may hold at most ${MAX_SUBJECT_LENGTH} characters`);
  }
  const name = displayName(payload);
  return {
    id: `oidc:${sub}`,
    kind: 'oidc',
    ...(name !== undefined && { name }),
    roles: knownRoles(claimAt(payload, oidc.rolesClaim), oidc.adminRole),
    person: personOf(payload, sub, oidc.personClaim),
    ...(typeof email === 'string' && email !== '' && { email }),
  };
}

/** A `typ`, when the token names one, of a JWT or an access token. */
function knownType(header: JWTHeaderParameters): boolean {
  if (header.typ === undefined) return true;
  return TOKEN_TYPES.has(header.typ.toLowerCase().replace(/^application\//, ''));
}

/** Issued (`iat`) no later than the clock skew ahead of now: a token from the future is refused. */
const issuedInThePast = (payload: JWTPayload): boolean =>
  payload.iat === undefined || payload.iat <= Date.now() / 1000 + CLOCK_SKEW_SECONDS;

/**
 * The identity provider's signed tokens (JWTs) as credentials: checked against its keys, issuer and
 * audience, with a minute of clock skew either way on `exp` (required), `nbf` and `iat` (not in the
 * future), its `typ` a JWT's when it names one, and its claims bounded (401 `invalid_token`). `null` for a token that
 * is not a compact JWS; 503 `identity_provider_unavailable` (not a 401) while the provider's keys cannot be
 * fetched.
 * A JWKS file is read here, once: a `ConfigError` when it is not a key set.
 */
export function createOidcAuthenticator(oidc: OidcConfig): Authenticator {
  const keys = keySet(oidc.jwks);
  return async (token) => {
    if (!COMPACT_JWS.test(token)) return null;
    if (token.length > MAX_TOKEN_LENGTH) throw unauthorized();
    let payload: JWTPayload;
    let header: JWTHeaderParameters;
    try {
      ({ payload, protectedHeader: header } = await jwtVerify(token, keys, {
        issuer: oidc.issuer,
        audience: oidc.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw unauthorized();
    }
    if (!knownType(header) || !issuedInThePast(payload)) throw unauthorized();
    return principalOf(payload, oidc);
  };
}

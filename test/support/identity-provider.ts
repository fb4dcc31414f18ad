import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type GenerateKeyPairResult,
  type JSONWebKeySet,
  type JWTHeaderParameters,
  type JWTPayload,
} from 'jose';
import { createIdentity, type Identity } from '../../src/api/kit/identity';
import { loadConfig } from '../../src/config';
import { createOidcAuthenticator } from '../../src/iam/oidc';

export const ISSUER = 'https://idp.example.test/realms/suite';
export const AUDIENCE = 'suite-api';
export const ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** Seconds since the epoch, as JWT time claims count. */
export const epochSeconds = () => Math.floor(Date.now() / 1000);

/** A stand-in identity provider: one signing key per algorithm, published as a JSON Web Key Set. */
export interface IdentityProvider {
  jwks: JSONWebKeySet;
  /** Writes the key set to `<dir>/jwks.json` and answers its path. */
  writeJwks(dir: string): string;
  /**
   * A token signed with the algorithm's key (RS256 unless given): issued now by `ISSUER` for
   * `AUDIENCE`, expiring in 10 minutes; `claims` add to or replace these (`undefined` leaves one out).
   */
  token(
    claims: JWTPayload,
    options?: { alg?: Algorithm; header?: Partial<JWTHeaderParameters> },
  ): Promise<string>;
  /** The public key of an algorithm, as anyone may have it. */
  publicKey(alg: Algorithm): CryptoKey;
}

export async function createIdentityProvider(): Promise<IdentityProvider> {
  const keyPairs = Object.fromEntries(
    await Promise.all(ALGORITHMS.map(async (alg) => [alg, await generateKeyPair(alg)] as const)),
  ) as Record<Algorithm, GenerateKeyPairResult>;
  const jwks: JSONWebKeySet = {
    keys: await Promise.all(
      ALGORITHMS.map(async (alg) => ({
        ...(await exportJWK(keyPairs[alg].publicKey)),
        kid: `key-${alg}`,
        alg,
        use: 'sig',
      })),
    ),
  };
  return {
    jwks,
    writeJwks(dir) {
      const file = path.join(dir, 'jwks.json');
      writeFileSync(file, JSON.stringify(jwks));
      return file;
    },
    token(claims, { alg = 'RS256', header } = {}) {
      const now = epochSeconds();
      const payload = { iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 600, ...claims };
      return new SignJWT(payload)
        .setProtectedHeader({ alg, kid: `key-${alg}`, typ: 'JWT', ...header })
        .sign(keyPairs[alg].privateKey);
    },
    publicKey: (alg) => keyPairs[alg].publicKey,
  };
}

/** The suite's identity check as `SUITE_OIDC_*` set to this provider configure it: its tokens, nothing else. */
export function acceptingTokensOf(idp: IdentityProvider, dir: string): Identity {
  const config = loadConfig({
    SUITE_OIDC_ISSUER: ISSUER,
    SUITE_OIDC_AUDIENCE: AUDIENCE,
    SUITE_OIDC_JWKS: idp.writeJwks(dir),
  });
  return createIdentity({ authenticators: [createOidcAuthenticator(config.oidc!)], federated: true });
}

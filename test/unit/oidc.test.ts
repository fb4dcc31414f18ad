import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { DomainError } from '../../src/commands/errors';
import { ConfigError, type OidcConfig } from '../../src/config';
import { createOidcAuthenticator } from '../../src/iam/oidc';
import type { Authenticator } from '../../src/iam/principal';
import {
  ALGORITHMS,
  AUDIENCE,
  createIdentityProvider,
  epochSeconds,
  ISSUER,
  type IdentityProvider,
} from '../support/identity-provider';
import { tempDir } from '../support/temp-dir';

const REFUSAL = {
  code: 'unauthorized',
  message: 'A valid bearer token is required',
};

let idp: IdentityProvider;
let dir: string;
let cleanup: () => void;
let jwksFile: string;
let authenticate: Authenticator;

const settings = (overrides: Partial<OidcConfig> = {}): OidcConfig => ({
  issuer: ISSUER,
  audience: AUDIENCE,
  jwks: { file: jwksFile },
  rolesClaim: 'roles',
  adminRole: false,
  ...overrides,
});

async function expectRefused(token: string | Promise<string>): Promise<void> {
  const refused = authenticate(await token);
  await expect(refused).rejects.toBeInstanceOf(DomainError);
  await expect(refused).rejects.toMatchObject(REFUSAL);
}

beforeAll(async () => {
  idp = await createIdentityProvider();
  ({ dir, cleanup } = tempDir('suite-oidc-'));
  jwksFile = idp.writeJwks(dir);
  authenticate = createOidcAuthenticator(settings());
});

afterAll(() => cleanup());

describe('an identity provider’s tokens as bearer credentials', () => {
  it.each(ALGORITHMS)(
    'accepts a %s token as the principal oidc:<sub>, with its name and roles',
    async (alg) => {
      const token = await idp.token({ sub: 'u-7', name: 'Ada Lovelace', roles: ['esm:writer'] }, { alg });
      await expect(authenticate(token)).resolves.toEqual({
        id: 'oidc:u-7',
        kind: 'oidc',
        name: 'Ada Lovelace',
        roles: ['esm:writer'],
        person: 'u-7',
      });
    },
  );

  it('names the person by SUITE_OIDC_PERSON_CLAIM when set, and refuses a token without that claim', async () => {
    const byEmail = createOidcAuthenticator(settings({ personClaim: 'email' }));
    const token = await idp.token({ sub: 'u-8', email: 'ada@example.test' });
    await expect(byEmail(token)).resolves.toMatchObject({
      id: 'oidc:u-8',
      person: 'ada@example.test',
      email: 'ada@example.test',
    });
    await expect(byEmail(await idp.token({ sub: 'u-8' }))).rejects.toMatchObject(REFUSAL);
  });

  it('names the principal by the email claim when there is no name, and not at all without either', async () => {
    const byEmail = await authenticate(await idp.token({ sub: 'u-1', email: 'ada@example.test' }));
    expect(byEmail?.name).toBe('ada@example.test');
    const unnamed = await authenticate(await idp.token({ sub: 'u-1', name: 42 }));
    expect(unnamed).not.toHaveProperty('name');
  });

  it('keeps only the suite’s roles of the roles claim, each once, admin only when the provider may grant it', async () => {
    const roles = ['hrm:reader', 'offline_access', 'admin', 7, 'hrm:reader', 'esm:owner'];
    const granting = createOidcAuthenticator(settings({ adminRole: true }));
    expect((await granting(await idp.token({ sub: 'u-1', roles })))?.roles).toEqual(['hrm:reader', 'admin']);
  });

  it('ignores the admin role of a token unless SUITE_OIDC_ADMIN_ROLE grants the provider that power', async () => {
    const principal = await authenticate(await idp.token({ sub: 'u-1', roles: ['admin', 'hrm:reader'] }));
    expect(principal?.roles).toEqual(['hrm:reader']);
  });

  it('takes a subject of 255 characters and names of 200, counted as the events count them (UTF-16)', async () => {
    const sub = 'é'.repeat(255);
    const name = 'é'.repeat(200);
    const principal = await authenticate(await idp.token({ sub, name, email: `${'e'.repeat(190)}@x.test` }));
    expect(principal).toMatchObject({ id: `oidc:${sub}`, name });
  });

  it.each([
    ['a subject over 255 characters', { sub: 's'.repeat(256) }],
    ['a subject of 128 emoji (256 UTF-16 units)', { sub: '\u{1F600}'.repeat(128) }],
    ['a name over 200 characters', { name: 'n'.repeat(201) }],
    ['an email over 200 characters', { email: `${'e'.repeat(195)}@x.test` }],
  ])('refuses a token with %s as 401 invalid_token', async (_case, claims) => {
    const refused = authenticate(await idp.token({ sub: 'u-1', ...claims }));
    await expect(refused).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('takes the token types of a JWT and of an access token, or none', async () => {
    for (const typ of ['JWT', 'at+jwt', 'application/at+jwt', undefined]) {
      const token = await idp.token({ sub: 'u-1' }, { header: { typ } });
      await expect(authenticate(token)).resolves.toMatchObject({ id: 'oidc:u-1' });
    }
  });

  it.each(['id_token+jwt', 'logout+jwt', 'dpop+jwt', 'JOSE'])(
    'refuses a token of type %s with 401',
    async (typ) => {
      await expectRefused(idp.token({ sub: 'u-1' }, { header: { typ } }));
    },
  );

  it('accepts a token without the roles claim, or with roles that are not a list, as a principal with no roles', async () => {
    await expect(authenticate(await idp.token({ sub: 'u-1' }))).resolves.toMatchObject({ roles: [] });
    await expect(authenticate(await idp.token({ sub: 'u-1', roles: 'admin' }))).resolves.toMatchObject({
      roles: [],
    });
  });

  it('reads the roles at a dotted path into nested claims, as Keycloak puts them', async () => {
    const keycloak = createOidcAuthenticator(settings({ rolesClaim: 'realm_access.roles' }));
    const token = await idp.token({
      sub: 'u-1',
      realm_access: { roles: ['crm:writer', 'uma_authorization'] },
    });
    await expect(keycloak(token)).resolves.toMatchObject({ roles: ['crm:writer'] });
  });

  it('reads the roles from a claim whose name holds dots, as Auth0 namespaces them', async () => {
    const auth0 = createOidcAuthenticator(settings({ rolesClaim: 'https://suite.example.test/roles' }));
    const token = await idp.token({ sub: 'u-1', 'https://suite.example.test/roles': ['lms:approver'] });
    await expect(auth0(token)).resolves.toMatchObject({ roles: ['lms:approver'] });
  });

  it('allows a minute of clock skew on expiry, not-before and issued-at', async () => {
    const now = epochSeconds();
    await expect(authenticate(await idp.token({ sub: 'u-1', iat: now + 30 }))).resolves.toMatchObject({
      id: 'oidc:u-1',
    });
    await expect(authenticate(await idp.token({ sub: 'u-1', exp: now - 30 }))).resolves.toMatchObject({
      id: 'oidc:u-1',
    });
    await expect(authenticate(await idp.token({ sub: 'u-1', nbf: now + 30 }))).resolves.toMatchObject({
      id: 'oidc:u-1',
    });
  });

  it.each([
    ['from another issuer', { iss: 'https://other-idp.example.test' }],
    ['for another audience', { aud: 'another-api' }],
    ['expired more than a minute ago', { exp: epochSeconds() - 120 }],
    ['not valid for more than a minute yet', { nbf: epochSeconds() + 120 }],
    ['issued more than a minute in the future', { iat: epochSeconds() + 120 }],
    ['with an issued-at that is no time', { iat: 'yesterday' as unknown as number }],
    ['without an expiry', { exp: undefined }],
    ['without a subject', { sub: undefined }],
    ['with an empty subject', { sub: '' }],
  ])('refuses a token %s with 401', async (_case, claims) => {
    await expectRefused(idp.token({ sub: 'u-1', ...claims }));
  });

  it('refuses a token signed with HS256 and the public key as its secret', async () => {
    const publicKey = await exportSPKI(idp.publicKey('RS256'));
    const forged = new SignJWT({ sub: 'u-1', iss: ISSUER, aud: AUDIENCE, exp: epochSeconds() + 600 })
      .setProtectedHeader({ alg: 'HS256', kid: 'key-RS256' })
      .sign(new TextEncoder().encode(publicKey));
    await expectRefused(forged);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const unsigned = new UnsecuredJWT({ sub: 'u-1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('10m')
      .encode();
    await expectRefused(unsigned);
  });

  it('refuses a token naming a key the key set does not have', async () => {
    await expectRefused(idp.token({ sub: 'u-1' }, { header: { kid: 'key-retired' } }));
  });

  it('refuses a token signed by a key outside the key set, under a kid of the set', async () => {
    const stranger = await generateKeyPair('ES256');
    const forged = new SignJWT({ sub: 'u-1', iss: ISSUER, aud: AUDIENCE, exp: epochSeconds() + 600 })
      .setProtectedHeader({ alg: 'ES256', kid: 'key-ES256' })
      .sign(stranger.privateKey);
    await expectRefused(forged);
  });

  it('refuses a token whose claims were changed after signing', async () => {
    const [header, , signature] = (await idp.token({ sub: 'u-1' })).split('.');
    const claims = Buffer.from(
      JSON.stringify({ sub: 'u-1', iss: ISSUER, aud: AUDIENCE, exp: epochSeconds() + 600, roles: ['admin'] }),
    ).toString('base64url');
    await expectRefused(`${header}.${claims}.${signature}`);
  });

  it.each([
    ['an API key', 'sk_live_4f9a0c2e7b1d4e8f9a0c2e7b1d4e8f9a'],
    ['two parts', 'aGVhZGVy.cGF5bG9hZA'],
    ['an encrypted JWT (five parts)', 'a.b.c.d.e'],
    ['characters outside base64url', 'aGVh+ZGVy.cGF5bG9hZA.c2ln'],
  ])(
    'leaves a bearer token that is not a signed JWT, such as %s, to the other authenticators',
    async (_case, token) => {
      await expect(authenticate(token)).resolves.toBeNull();
    },
  );

  it('refuses a JWT-shaped token over 8 kB with 401, unread', async () => {
    await expectRefused(idp.token({ sub: 'u-1', padding: 'x'.repeat(8_192) }));
  });

  it('refuses to start with a key set file that is not a JSON Web Key Set', () => {
    const notJwks = path.join(dir, 'not-jwks.json');
    writeFileSync(notJwks, '{"keys": "none"}');
    expect(() => createOidcAuthenticator(settings({ jwks: { file: notJwks } }))).toThrow(
      /SUITE_OIDC_JWKS: the file is not a JSON Web Key Set/,
    );
    expect(() => createOidcAuthenticator(settings({ jwks: { file: notJwks } }))).toThrow(ConfigError);
  });
});

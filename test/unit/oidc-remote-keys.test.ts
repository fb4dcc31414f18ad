import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '../../src/commands/errors';
import { loadConfig } from '../../src/config';
import { createOidcAuthenticator } from '../../src/iam/oidc';
import {
  AUDIENCE,
  createIdentityProvider,
  ISSUER,
  type IdentityProvider,
} from '../support/identity-provider';

let idp: IdentityProvider;
let server: Server;
let baseUrl: string;
let jwksRequests = 0;

/** The provider's key set at `/jwks`; `/down` answers 503, as a provider in trouble does. */
beforeAll(async () => {
  idp = await createIdentityProvider();
  server = createServer((req, res) => {
    if (req.url !== '/jwks') return res.writeHead(503).end();
    jwksRequests += 1;
    res.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(JSON.stringify(idp.jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Configured as an operator would, through the environment. */
function authenticatorAt(jwks: string) {
  const { oidc } = loadConfig({
    SUITE_OIDC_ISSUER: ISSUER,
    SUITE_OIDC_AUDIENCE: AUDIENCE,
    SUITE_OIDC_JWKS: jwks,
  });
  if (!oidc) throw new Error('the identity provider was not configured');
  return createOidcAuthenticator(oidc);
}

describe('an identity provider serving its key set at a URL', () => {
  it('verifies tokens with the keys it serves, fetched once for many tokens', async () => {
    const authenticate = authenticatorAt(`${baseUrl}/jwks`);
    const first = await authenticate(
      await idp.token({ sub: 'u-1', roles: ['ppm:writer'] }, { alg: 'ES256' }),
    );
    const second = await authenticate(await idp.token({ sub: 'u-2' }, { alg: 'EdDSA' }));
    expect([first?.id, second?.id]).toEqual(['oidc:u-1', 'oidc:u-2']);
    expect(first?.roles).toEqual(['ppm:writer']);
    expect(jwksRequests).toBe(1);
  });

  it('answers 503 identity_provider_unavailable, not a 401, while the key set cannot be fetched', async () => {
    const authenticate = authenticatorAt(`${baseUrl}/down`);
    const attempt = authenticate(await idp.token({ sub: 'u-1' }));
    await expect(attempt).rejects.toMatchObject({ code: 'identity_provider_unavailable' });
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
  });
});

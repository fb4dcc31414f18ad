import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { tempDir } from '../support/temp-dir';

const ISSUER = 'https://idp.example.test/realms/suite';
const AUDIENCE = 'suite-api';

let dir: string;
let cleanup: () => void;
let jwksFile: string;

beforeAll(() => {
  ({ dir, cleanup } = tempDir('suite-oidc-config-'));
  jwksFile = path.join(dir, 'jwks.json');
  writeFileSync(jwksFile, '{"keys": []}');
  mkdirSync(path.join(dir, 'a-directory'));
});

afterAll(() => cleanup());

const withJwks = (jwks: string, more: NodeJS.ProcessEnv = {}) => ({
  SUITE_OIDC_ISSUER: ISSUER,
  SUITE_OIDC_AUDIENCE: AUDIENCE,
  SUITE_OIDC_JWKS: jwks,
  ...more,
});

/** The message a configuration is refused with. */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('the identity provider in the configuration', () => {
  it('has none unless configured (empty variables count as unset)', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(
      loadConfig({ SUITE_OIDC_ISSUER: '', SUITE_OIDC_AUDIENCE: '', SUITE_OIDC_JWKS: '' }).oidc,
    ).toBeUndefined();
  });

  it('reads a JWKS file as an absolute path, with the roles in the `roles` claim by default, admin not among them', () => {
    const relative = path.relative(process.cwd(), jwksFile);
    expect(loadConfig(withJwks(relative)).oidc).toEqual({
      issuer: ISSUER,
      audience: AUDIENCE,
      jwks: { file: jwksFile },
      rolesClaim: 'roles',
      adminRole: false,
    });
  });

  it('lets the identity provider grant admin with SUITE_OIDC_ADMIN_ROLE=true, and takes nothing but true or false', () => {
    expect(loadConfig({ ...withJwks(jwksFile), SUITE_OIDC_ADMIN_ROLE: 'true' }).oidc?.adminRole).toBe(true);
    expect(() => loadConfig({ ...withJwks(jwksFile), SUITE_OIDC_ADMIN_ROLE: 'yes' })).toThrow(
      /SUITE_OIDC_ADMIN_ROLE/,
    );
  });

  it('reads a JWKS URL: https, or plain http from this machine', () => {
    for (const url of [
      'https://idp.example.test/realms/suite/protocol/openid-connect/certs',
      'http://127.0.0.1:8443/jwks',
      'http://localhost:8080/jwks',
      'http://[::1]:8080/jwks',
    ]) {
      expect(loadConfig(withJwks(url)).oidc?.jwks).toEqual({ url: new URL(url) });
    }
  });

  it('takes the roles claim as a name or a dotted path into nested claims', () => {
    const env = withJwks(jwksFile, { SUITE_OIDC_ROLES_CLAIM: 'realm_access.roles' });
    expect(loadConfig(env).oidc?.rolesClaim).toBe('realm_access.roles');
  });

  it('takes the person claim (SUITE_OIDC_PERSON_CLAIM) when set, else none: the sub names the person', () => {
    expect(loadConfig(withJwks(jwksFile, { SUITE_OIDC_PERSON_CLAIM: 'email' })).oidc?.personClaim).toBe(
      'email',
    );
    expect(loadConfig(withJwks(jwksFile)).oidc).not.toHaveProperty('personClaim');
  });

  it.each([
    [{ SUITE_OIDC_ISSUER: ISSUER }, 'SUITE_OIDC_AUDIENCE, SUITE_OIDC_JWKS: needed too'],
    [{ SUITE_OIDC_ISSUER: ISSUER, SUITE_OIDC_AUDIENCE: AUDIENCE }, 'SUITE_OIDC_JWKS: needed too'],
    [
      { SUITE_OIDC_JWKS: 'https://idp.example.test/jwks' },
      'SUITE_OIDC_ISSUER, SUITE_OIDC_AUDIENCE: needed too',
    ],
  ])(
    'stops at a part of the identity provider without the rest (%o), naming what is missing',
    (env, message) => {
      expect(refusal(env)).toContain(message);
    },
  );

  it.each([
    ['an http URL of another host', 'http://idp.example.test/jwks'],
    ['another scheme', 'ftp://idp.example.test/jwks'],
    ['a URL with a password', 'https://admin:hunter2-pass@idp.example.test/jwks'],
    ['a file that does not exist', '/nonexistent/jwks.json'],
  ])('stops at a JWKS that is %s, naming the variable and never its value', (_case, jwks) => {
    const refused = refusal(withJwks(jwks));
    expect(refused).toContain('SUITE_OIDC_JWKS: must be an https:// URL');
    expect(refused).not.toContain(jwks);
  });

  it('stops at a JWKS path that is a directory', () => {
    expect(refusal(withJwks(path.join(dir, 'a-directory')))).toContain('SUITE_OIDC_JWKS: must be');
  });

  it.each([
    [
      'an issuer with a trailing space',
      { SUITE_OIDC_ISSUER: `${ISSUER} ` },
      'SUITE_OIDC_ISSUER: must not start',
    ],
    ['an empty roles claim', { SUITE_OIDC_ROLES_CLAIM: '' }, 'SUITE_OIDC_ROLES_CLAIM: must be a claim name'],
    [
      'a roles path with an empty step',
      { SUITE_OIDC_ROLES_CLAIM: 'realm_access..roles' },
      'SUITE_OIDC_ROLES_CLAIM',
    ],
  ])('stops at %s', (_case, env, message) => {
    expect(refusal(withJwks(jwksFile, env))).toContain(message);
  });
});

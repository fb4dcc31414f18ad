import path from 'node:path';
import { loadConfig } from '../../src/config';

describe('configuration', () => {
  it('has defaults for everything: ./data, 127.0.0.1, ports 8081-8090, writes disabled, demo seed', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      dataDir: path.resolve('./data'),
      host: '127.0.0.1',
      apiToken: undefined,
      seed: 'demo',
      logLevel: 'info',
    });
    expect(config.ports).toMatchObject({ esm: 8081, clm: 8082, hrm: 8083, mail: 8089, fpa: 8090 });
  });

  it('takes every port from its own variable', () => {
    expect(loadConfig({ SUITE_ESM_PORT: '9001', SUITE_FPA_PORT: '9010' }).ports).toMatchObject({
      esm: 9001,
      fpa: 9010,
    });
  });

  it('treats an empty token as no token', () => {
    expect(loadConfig({ SUITE_API_TOKEN: '' }).apiToken).toBeUndefined();
    expect(loadConfig({ SUITE_API_TOKEN: 'api-token-0123456789' }).apiToken).toBe('api-token-0123456789');
  });

  it('names the variable of an invalid value', () => {
    expect(() => loadConfig({ SUITE_ESM_PORT: 'eighty' })).toThrow(/SUITE_ESM_PORT: must be a port number/);
    expect(() => loadConfig({ SUITE_HRM_PORT: '70000' })).toThrow(/SUITE_HRM_PORT/);
    expect(() => loadConfig({ SUITE_LOG_LEVEL: 'loud' })).toThrow(/SUITE_LOG_LEVEL/);
  });

  it('reads the access options, with their defaults', () => {
    expect(loadConfig({})).toMatchObject({
      authFailureLimit: { capacity: 100, refillPerSecond: 100 / 60 },
      cookieSecure: false,
      reads: 'public',
    });
    const env = {
      SUITE_API_TOKEN: 'api-token-0123456789',
      SUITE_AUTH_FAILURE_LIMIT: '6',
      SUITE_COOKIE_SECURE: 'true',
      SUITE_READS: 'token',
    };
    expect(loadConfig(env)).toMatchObject({
      authFailureLimit: { capacity: 6, refillPerSecond: 0.1 },
      cookieSecure: true,
      reads: 'token',
    });
    expect(() => loadConfig({ SUITE_AUTH_FAILURE_LIMIT: '0' })).toThrow(/SUITE_AUTH_FAILURE_LIMIT/);
    expect(() => loadConfig({ SUITE_COOKIE_SECURE: 'yes' })).toThrow(/SUITE_COOKIE_SECURE/);
    expect(() => loadConfig({ SUITE_READS: 'private' })).toThrow(/SUITE_READS/);
  });

  it('takes the read store cache budget in megabytes: 64 unless set, 0 for no caching', () => {
    expect(loadConfig({}).cacheBytes).toBe(64 * 2 ** 20);
    expect(loadConfig({ SUITE_CACHE_MB: '0' }).cacheBytes).toBe(0);
    expect(loadConfig({ SUITE_CACHE_MB: '16' }).cacheBytes).toBe(16 * 2 ** 20);
    expect(() => loadConfig({ SUITE_CACHE_MB: '1.5' })).toThrow(/SUITE_CACHE_MB: must be a whole number/);
  });

  it('refuses two modules on one port', () => {
    expect(() => loadConfig({ SUITE_CRM_PORT: '8081' })).toThrow(
      /SUITE_CRM_PORT: port 8081 is already SUITE_ESM_PORT/,
    );
  });
});

describe('credentials in the configuration', () => {
  const API = 'api-token-0123456789';
  const AUDIT = 'audit-token-0123456789';

  /** The message a configuration is refused with. */
  function refusal(env: NodeJS.ProcessEnv): string {
    try {
      loadConfig(env);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the configuration was accepted');
  }

  it('accepts two different tokens of 16 characters or more', () => {
    expect(loadConfig({ SUITE_API_TOKEN: API, SUITE_AUDIT_TOKEN: AUDIT })).toMatchObject({
      apiToken: API,
      auditToken: AUDIT,
    });
  });

  it.each([
    [
      'a short API token',
      { SUITE_API_TOKEN: 'short-secret' },
      'SUITE_API_TOKEN: must be at least 16 characters',
    ],
    ['a short audit token', { SUITE_AUDIT_TOKEN: 'audit-secret' }, 'SUITE_AUDIT_TOKEN: must be at least 16'],
    [
      'a padded API token',
      { SUITE_API_TOKEN: ` ${API}` },
      'SUITE_API_TOKEN: must not start or end with spaces',
    ],
    ['a padded audit token', { SUITE_AUDIT_TOKEN: `${AUDIT}\n` }, 'SUITE_AUDIT_TOKEN: must not start or end'],
    [
      'the API token as audit token',
      { SUITE_API_TOKEN: API, SUITE_AUDIT_TOKEN: API },
      'SUITE_AUDIT_TOKEN: must differ',
    ],
    [
      'a short session secret',
      { SUITE_SESSION_SECRET: 'not-32-characters' },
      'SUITE_SESSION_SECRET: must be at least 32',
    ],
    [
      'a mistyped store URL',
      { SUITE_READ_STORE: 'mongo://suite:hunter2-pass@db:27017' },
      'SUITE_READ_STORE: must be',
    ],
  ])('stops at %s, naming the variable and never its value', (_case, env, message) => {
    const refused = refusal(env);
    expect(refused).toContain(message);
    for (const value of Object.values(env)) expect(refused).not.toContain(value.trim());
  });

  it('stops at SUITE_READS=token without an API token', () => {
    expect(refusal({ SUITE_READS: 'token' })).toContain('SUITE_READS: token needs SUITE_API_TOKEN');
  });
});

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
    expect(loadConfig({ SUITE_API_TOKEN: 's3cret' }).apiToken).toBe('s3cret');
  });

  it('names the variable of an invalid value', () => {
    expect(() => loadConfig({ SUITE_ESM_PORT: 'eighty' })).toThrow(/SUITE_ESM_PORT: must be a port number/);
    expect(() => loadConfig({ SUITE_HRM_PORT: '70000' })).toThrow(/SUITE_HRM_PORT/);
    expect(() => loadConfig({ SUITE_LOG_LEVEL: 'loud' })).toThrow(/SUITE_LOG_LEVEL/);
  });

  it('refuses two modules on one port', () => {
    expect(() => loadConfig({ SUITE_CRM_PORT: '8081' })).toThrow(
      /SUITE_CRM_PORT: port 8081 is already SUITE_ESM_PORT/,
    );
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createConsoleApp, servingFiles } from '../../src/api/console';
import { esmModule } from '../../src/api/esm';
import { hrmModule } from '../../src/api/hrm';
import { allowingOrigins } from '../../src/api/kit/cors';
import { createLogger } from '../../src/api/kit/logging';
import { loggingObserver, served } from '../../src/api/kit/observation';
import { guardedPort, portSecurity } from '../../src/api/kit/port-guard';
import { DEFAULT_PORTS, loadConfig } from '../../src/config';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { tempDir } from '../support/temp-dir';

const CONSOLE = 'http://127.0.0.1:8080';

describe('what the console needs of a module port', () => {
  let harness: ModuleHarness<undefined>;
  let app: ReturnType<typeof allowingOrigins>;

  beforeAll(async () => {
    harness = await openModule(esmModule);
    app = allowingOrigins([CONSOLE], harness.app);
  });
  afterAll(() => harness.close());

  it('GET /api/v1/me names the principal of the bearer credential, with its roles', async () => {
    const response = await request(app).get('/api/v1/me').set('Authorization', `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: 'token:admin',
      kind: 'bootstrap',
      name: null,
      roles: ['admin'],
      member: null,
      workspace: null,
      person: 'admin',
    });
  });

  it('GET /api/v1/me answers 401 without a credential or with a wrong one, and is described', async () => {
    expect((await request(app).get('/api/v1/me')).status).toBe(401);
    const wrong = await request(app).get('/api/v1/me').set('Authorization', 'Bearer not-a-token-of-anyone');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('unauthorized');
    const description = await request(app).get('/api/openapi.json');
    expect(description.body.paths['/api/v1/me'].get.security).toEqual([{ bearerAuth: [] }]);
  });

  it("answers the console's preflight with what it may send, and names its origin on answers", async () => {
    const preflight = await request(app)
      .options('/api/v1/requests')
      .set('Origin', CONSOLE)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type');
    const read = await request(app).get('/api/v1/requests?limit=1').set('Origin', CONSOLE);
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(read.headers['access-control-expose-headers']).toContain('X-Event-Position');
    expect(read.headers.vary).toContain('Origin');
  });

  it('allows no other origin: no CORS header, and a preflight falls through to the route (no 204)', async () => {
    const other = 'http://127.0.0.1:9999';
    const read = await request(app).get('/api/v1/requests?limit=1').set('Origin', other);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(app)
      .options('/api/v1/requests')
      .set('Origin', other)
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });
});

describe('the console origins of the configuration', () => {
  it("default to the console's port on both names of this machine", () => {
    expect(loadConfig({ SUITE_CONSOLE_PORT: '36999' }).consoleOrigins).toEqual([
      'http://127.0.0.1:36999',
      'http://localhost:36999',
    ]);
    expect(loadConfig({ SUITE_HOST: 'suite.example' }).consoleOrigins).toEqual(['http://suite.example:8080']);
  });

  it('are the configured ones, each an origin exactly as a browser sends it', () => {
    const origins = 'https://console.example,http://10.0.0.5:8080';
    expect(loadConfig({ SUITE_CONSOLE_ORIGINS: origins }).consoleOrigins).toEqual(origins.split(','));
    expect(() => loadConfig({ SUITE_CONSOLE_ORIGINS: 'https://console.example/' })).toThrow(
      /SUITE_CONSOLE_ORIGINS: must be origins/,
    );
    expect(() => loadConfig({ SUITE_CONSOLE_ORIGINS: '*' })).toThrow(/SUITE_CONSOLE_ORIGINS/);
  });

  it('the console port may not be another listener', () => {
    expect(() => loadConfig({ SUITE_CONSOLE_PORT: String(DEFAULT_PORTS.hrm) })).toThrow(
      /SUITE_CONSOLE_PORT: port 8083 is already SUITE_HRM_PORT/,
    );
  });
});

describe('the console server', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);
  const targets = {
    modules: [esmModule, hrmModule],
    ports: { ...DEFAULT_PORTS, esm: 36_801, hrm: 36_803 },
    auditPort: 36_811,
  };
  const logger = createLogger('silent');

  beforeAll(() => {
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Suite console</title>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(
      path.join(dir, 'assets', 'vendor-def456.js'),
      'console.log("a larger file");\n'.repeat(100),
    );
  });

  it('names the ports of the modules and the audit API it talks to', async () => {
    const response = await request(createConsoleApp(targets, logger, dir)).get('/console-config.json');
    expect(response.body).toEqual({
      modules: [
        { id: 'esm', title: 'Service desk', shortTitle: 'Service desk', port: 36_801 },
        { id: 'hrm', title: 'HR and recruitment', shortTitle: 'HR', port: 36_803 },
      ],
      audit: { port: 36_811 },
    });
  });

  it("serves the app for its routes behind its port's guard, under a policy letting it call only the suite's ports", async () => {
    const config = loadConfig({
      SUITE_HOST: 'suite.example',
      SUITE_ESM_PORT: '36801',
      SUITE_HRM_PORT: '36803',
      SUITE_AUDIT_PORT: '36811',
    });
    const app = guardedPort(createConsoleApp(targets, logger, dir), portSecurity(config, 'console'));
    const page = await request(app).get('/m/hrm/leave/42').set('Host', 'suite.example:8080');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Suite console');
    const policy = page.headers['content-security-policy'] as string;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain(
      "connect-src 'self' http://suite.example:36801 http://suite.example:8082 http://suite.example:36803",
    );
    expect(policy).toContain('http://suite.example:36811');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // Named by the configuration alone: a Host of the attacker's is refused, not written into the policy.
    const misdirected = await request(app).get('/').set('Host', 'attacker.example:8080');
    expect([misdirected.status, misdirected.body.error.code]).toEqual([421, 'misdirected_request']);
    expect(JSON.stringify(misdirected.headers)).not.toContain('attacker');
  });

  it('serves hashed assets to be kept, and answers 404 for a missing file rather than the page', async () => {
    const app = createConsoleApp(targets, logger, dir);
    const asset = await request(app).get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await request(app).get('/assets/missing.js')).status).toBe(404);
  });

  it('serves hashed assets for a year and its page to be asked for again, compressed as the browser accepts', async () => {
    const app = served(createConsoleApp(targets, logger, dir), {
      readiness: servingFiles,
      observer: loggingObserver(logger),
    });
    const asset = await request(app).get('/assets/vendor-def456.js').set('Accept-Encoding', 'gzip');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(asset.text).toContain('a larger file');
    for (const page of ['/', '/index.html', '/m/hrm/leave/42']) {
      const answer = await request(app).get(page);
      expect([page, answer.status, answer.headers['cache-control']]).toEqual([page, 200, 'no-cache']);
    }
  });

  it('its configuration takes no query parameter; its files and pages take any query string', async () => {
    const app = createConsoleApp(targets, logger, dir);
    const config = await request(app).get('/console-config.json?v=2');
    expect(config.status).toBe(400);
    expect(config.body.error).toMatchObject({
      code: 'unknown_parameter',
      details: { parameter: 'v', allowed: [] },
    });
    // Browsers and caches add their own to files, and the app keeps state in its routes' (a sign-in's code).
    expect((await request(app).get('/assets/index-abc123.js?v=2')).status).toBe(200);
    const page = await request(app).get('/m/hrm/leave?code=abc&state=xyz&code=again');
    expect([page.status, page.text]).toEqual([200, expect.stringContaining('Suite console')]);
  });

  it('refuses to start when the console is not built', () => {
    expect(() => createConsoleApp(targets, logger, path.join(dir, 'nothing'))).toThrow(/not built/);
  });
});

import { createServer, request, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedPort, portSecurity } from '../../src/api/kit/port-guard';
import { ConfigError, loadConfig } from '../../src/config';

/** Answers a GET to the listener for `host`: its status and headers. */
async function answerFor(
  listener: RequestListener,
  host: string,
  path = '/api/',
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      const req = request({ port, path, headers: { Host: host }, setHost: false, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    server.close();
  }
}

const ok: RequestListener = (_req, res) => void res.end('{}');

describe('SUITE_ALLOWED_HOSTS', () => {
  it('defaults to this machine’s names, the suite’s host and the console origins’ hosts', () => {
    const config = loadConfig({
      SUITE_HOST: '10.0.0.5',
      SUITE_CONSOLE_ORIGINS: 'https://console.example.com,http://[fd00::1]:8080',
    });
    expect(config.allowedHosts).toEqual([
      'localhost',
      '127.0.0.1',
      '[::1]',
      '10.0.0.5',
      'console.example.com',
      '[fd00::1]',
    ]);
  });

  it('replaces the default, names lowered, and refuses what is no host', () => {
    expect(
      loadConfig({ SUITE_ALLOWED_HOSTS: 'Suite.Example.com,api.example.com:8443' }).allowedHosts,
    ).toEqual(['suite.example.com', 'api.example.com:8443']);
    for (const wrong of [
      'https://suite.example.com',
      'suite.example.com/',
      'a b',
      'suite..example',
      '*.example.com',
    ]) {
      expect(() => loadConfig({ SUITE_ALLOWED_HOSTS: wrong })).toThrow(ConfigError);
    }
  });

  it('allows a name alone with any of the suite’s ports or none, and a name with a port only so', async () => {
    const config = loadConfig({ SUITE_ALLOWED_HOSTS: 'suite.example.com,api.example.com:8443' });
    const guarded = guardedPort(ok, portSecurity(config, 'api'));
    for (const host of [
      'suite.example.com',
      'suite.example.com:8083',
      'suite.example.com:8091',
      'suite.example.com:9464',
      'api.example.com:8443',
    ]) {
      expect([host, (await answerFor(guarded, host)).status]).toEqual([host, 200]);
    }
    for (const host of [
      'suite.example.com:8443',
      'api.example.com',
      'api.example.com:8083',
      'localhost:8083',
      'evil.suite.example.com',
    ]) {
      expect([host, (await answerFor(guarded, host)).status]).toEqual([host, 421]);
    }
  });

  it('keeps the probes reachable at this machine’s names for health checks, when the hosts name others', async () => {
    const guarded = guardedPort(
      ok,
      portSecurity(loadConfig({ SUITE_ALLOWED_HOSTS: 'suite.example.com' }), 'api'),
    );
    expect((await answerFor(guarded, '127.0.0.1:9464', '/readyz')).status).toBe(200);
    expect((await answerFor(guarded, 'localhost:8081', '/livez?x=1')).status).toBe(200);
    expect((await answerFor(guarded, 'attacker.example:9464', '/readyz')).status).toBe(421);
    expect((await answerFor(guarded, '127.0.0.1:9464', '/livez/../api/')).status).toBe(421);
  });
});

describe('the security headers', () => {
  it('add Strict-Transport-Security on every kind of port when SUITE_COOKIE_SECURE=true, and only then', async () => {
    for (const kind of ['api', 'docs', 'console'] as const) {
      const secure = await answerFor(
        guardedPort(ok, portSecurity(loadConfig({ SUITE_COOKIE_SECURE: 'true' }), kind)),
        'localhost',
      );
      expect([kind, secure.headers['strict-transport-security']]).toEqual([
        kind,
        'max-age=31536000; includeSubDomains',
      ]);
      const plain = await answerFor(guardedPort(ok, portSecurity(loadConfig({}), kind)), 'localhost');
      expect([kind, plain.headers['strict-transport-security']]).toEqual([kind, undefined]);
    }
  });

  it('give the console a policy from the configuration: its origins’ hosts on the API ports', () => {
    const config = loadConfig({
      SUITE_CONSOLE_ORIGINS: 'https://console.example.com',
      SUITE_HRM_PORT: '9083',
    });
    const policy = new Map(portSecurity(config, 'console').headers).get('Content-Security-Policy') as string;
    expect(policy).toContain(
      "connect-src 'self' https://console.example.com:8081 https://console.example.com:8082 https://console.example.com:9083",
    );
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
  });
});

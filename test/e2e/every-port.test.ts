import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { consoleBuilt } from '../../src/api/console';
import { MODULE_IDS } from '../../src/modules/ids';
import { startSuiteProcess, stopSuiteProcess, type SuiteProcess } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(120_000);

/**
 * A running `suite start`, as a browser page and a local user meet it: every port (each module's, the
 * audit API's, the metrics port and the console's) answers only for the suite's own hosts and sends
 * the security headers, and what the suite writes is its owner's alone.
 */

const PORT = 27_281;
const AUDIT_PORT = PORT + MODULE_IDS.length;
const METRICS_PORT = AUDIT_PORT + 1;
const CONSOLE_PORT = AUDIT_PORT + 2;
const TOKEN = 'every-port-api-token-0123456789';
const AUDIT_TOKEN = 'every-port-audit-token-0123456789';

const PORTS: [string, number][] = [
  ...MODULE_IDS.map((module, index): [string, number] => [module, PORT + index]),
  ['audit', AUDIT_PORT],
  ['metrics', METRICS_PORT],
  ...(consoleBuilt() ? [['console', CONSOLE_PORT] as [string, number]] : []),
];

/** A path each port serves with data. */
const pathOf = (name: string) =>
  name === 'metrics' ? '/metrics' : name === 'console' ? '/console-config.json' : '/api/';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  json(): unknown;
}

/** A GET naming `host` as its `Host` (fetch would name the address it connects to). */
const get = (port: number, pathname: string, host: string) =>
  new Promise<Answer>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: pathname, headers: { Host: host }, setHost: false, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });

let suite: SuiteProcess;
const { dir, cleanup } = tempDir();
const data = path.join(dir, 'data');

beforeAll(async () => {
  suite = await startSuiteProcess(
    { SUITE_DATA_DIR: data, SUITE_SEED: 'none', SUITE_API_TOKEN: TOKEN, SUITE_AUDIT_TOKEN: AUDIT_TOKEN },
    PORT,
    { waitMs: 30_000 },
  );
});
afterAll(async () => {
  if (suite) await stopSuiteProcess(suite);
  cleanup();
});

describe.each(PORTS)('the %s port', (name, port) => {
  it.each([`attacker.example:${port}`, 'attacker.example', `localhost.attacker.example:${port}`, ''])(
    'refuses Host %j with 421 in the error envelope, its data and its probes alike',
    async (host) => {
      for (const pathname of [pathOf(name), '/livez', '/readyz', '/nowhere']) {
        const answer = await get(port, pathname, host);
        expect([pathname, answer.status]).toEqual([pathname, 421]);
        expect(answer.json()).toEqual({
          error: { code: 'misdirected_request', message: expect.any(String) },
        });
      }
    },
  );

  it.each([`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, '127.0.0.1'])(
    'answers for Host %s',
    async (host) => {
      expect((await get(port, pathOf(name), host)).status).toBe(200);
      expect((await get(port, '/livez', host)).status).toBe(200);
    },
  );

  it('sends nosniff, no referrer and a policy that nothing may frame, on answers and refusals', async () => {
    for (const host of [`127.0.0.1:${port}`, 'attacker.example']) {
      for (const pathname of [pathOf(name), '/livez', '/nowhere']) {
        const { headers } = await get(port, pathname, host);
        expect([host, pathname, headers['x-content-type-options']]).toEqual([host, pathname, 'nosniff']);
        expect(headers['referrer-policy']).toBe('no-referrer');
        expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(headers['strict-transport-security']).toBeUndefined();
      }
    }
  });
});

describe('the pages', () => {
  it.each([
    ['esm', PORT],
    ['audit', AUDIT_PORT],
  ])(
    '%s /api/docs: a strict static policy that lets Swagger UI load its own scripts only',
    async (_name, port) => {
      for (const pathname of ['/api/docs/', '/api/docs/swagger-ui-init.js']) {
        const answer = await get(port, pathname, `localhost:${port}`);
        expect(answer.status).toBe(200);
        const policy = answer.headers['content-security-policy'] as string;
        expect(policy).toContain("script-src 'self'");
        expect(policy).toContain("frame-ancestors 'none'");
        expect(policy).not.toMatch(/localhost|unsafe-eval/);
      }
    },
  );

  (consoleBuilt() ? it : it.skip)('the console: the same policy whatever host it is opened at', async () => {
    const policies = await Promise.all(
      [`127.0.0.1:${CONSOLE_PORT}`, `localhost:${CONSOLE_PORT}`, `[::1]:${CONSOLE_PORT}`].map(
        async (host) => (await get(CONSOLE_PORT, '/', host)).headers['content-security-policy'],
      ),
    );
    expect(new Set(policies).size).toBe(1);
    expect(policies[0]).toContain(`connect-src 'self' http://127.0.0.1:${PORT} `);
    expect(policies[0]).not.toContain('[::1]');
  });
});

describe('the files', () => {
  const modes = (at: string): [string, string][] =>
    [at, ...readdirSync(at).map((name) => path.join(at, name))].map((file) => [
      path.relative(dir, file),
      (statSync(file).mode & 0o777).toString(8),
    ]);

  it('creates the data directory 0700 and every file in it 0600', () => {
    const found = modes(data);
    expect(found.map(([file]) => file)).toEqual(
      expect.arrayContaining(['data', 'data/events.db', 'data/read-models.db', 'data/log-signing-key']),
    );
    for (const [file, mode] of found) expect([file, mode]).toEqual([file, file === 'data' ? '700' : '600']);
  });

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [SUITE_CLI, ...args], {
      env: { ...process.env, SUITE_DATA_DIR: data, SUITE_LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });

  it('exports the log 0600', () => {
    const exported = path.join(dir, 'log.ndjson');
    expect(cli('audit', 'export', '--out', exported).status).toBe(0);
    expect((statSync(exported).mode & 0o777).toString(8)).toBe('600');
  });

  it('warns at start-up, naming the path, of a file other users can read', () => {
    const readModels = path.join(data, 'read-models.db');
    chmodSync(readModels, 0o644);
    try {
      const run = cli('audit', 'log', '--limit', '1');
      expect(run.status).toBe(0);
      expect(run.stderr).toContain(`${readModels} is readable by other users`);
      expect(run.stderr).not.toContain(`${path.join(data, 'events.db')} is readable`);
    } finally {
      chmodSync(readModels, 0o600);
    }
  });
});

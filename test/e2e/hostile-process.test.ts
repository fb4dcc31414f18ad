import { MODULE_IDS } from '../../src/modules/ids';
import { signSession } from '../../src/market/session';
import {
  describeRequest,
  foreignHosts,
  nestedArrays,
  problemsWith,
  send,
  type HostileRequest,
} from '../support/hostile-requests';
import {
  AUDIENCE,
  ISSUER,
  createIdentityProvider,
  type IdentityProvider,
} from '../support/identity-provider';
import { startSuiteProcess, type SuiteProcess } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';

jest.setTimeout(60_000);

/**
 * One request must not stop the suite: a JSON body nested 50,000 levels deep (100 kB, under the body
 * limit) sent to a real `suite start` process, to a service-desk write with the token and to the market
 * assistant stream with nothing more than a session cookie. The process answers it in the error shape,
 * appends nothing, and every module and the audit API still answer afterwards.
 */

/** Below the ephemeral range (32768+), where a client socket may hold a port the suite would listen on. */
const PORT = 28_281;
const AUDIT_PORT = PORT + MODULE_IDS.length;
const TOKEN = 'hostile-process-api-token';
const AUDIT_TOKEN = 'hostile-process-audit-token';
const SESSION_SECRET = 'hostile-process-session-secret-0123456789';
const HOST = '127.0.0.1';

const portOf = (module: (typeof MODULE_IDS)[number]) => PORT + MODULE_IDS.indexOf(module);

let suite: SuiteProcess;
let cleanup: () => void;
let idp: IdentityProvider;

beforeAll(async () => {
  idp = await createIdentityProvider();
});

beforeEach(async () => {
  const dir = tempDir();
  cleanup = dir.cleanup;
  suite = await startSuiteProcess(
    {
      SUITE_DATA_DIR: dir.dir,
      SUITE_SEED: 'none',
      SUITE_API_TOKEN: TOKEN,
      SUITE_AUDIT_TOKEN: AUDIT_TOKEN,
      SUITE_SESSION_SECRET: SESSION_SECRET,
      // Clear of a suite running with the defaults.
      SUITE_METRICS_PORT: String(PORT + 18),
      SUITE_OIDC_ISSUER: ISSUER,
      SUITE_OIDC_AUDIENCE: AUDIENCE,
      SUITE_OIDC_JWKS: idp.writeJwks(dir.dir),
    },
    PORT,
  );
});

afterEach(async () => {
  if (suite.child.exitCode === null && suite.child.signalCode === null) {
    suite.child.kill('SIGTERM');
    await suite.exited;
  }
  cleanup();
});

/** How many events the log holds, as the audit API tells. */
async function loggedEvents(): Promise<number> {
  const answer = await fetch(`http://${HOST}:${AUDIT_PORT}/api/v1/events?limit=1000`, {
    headers: { authorization: `Bearer ${AUDIT_TOKEN}` },
  });
  return ((await answer.json()) as { data: unknown[] }).data.length;
}

/** What no longer answers: each module's health, the audit API's health and one of its reads. */
async function silentListeners(): Promise<string[]> {
  const checks: { name: string; port: number; path?: string; auth: Record<string, string> }[] = [
    ...MODULE_IDS.map((module) => ({ name: `${module} GET /api/v1/health`, port: portOf(module), auth: {} })),
    { name: 'audit GET /api/v1/health', port: AUDIT_PORT, path: '/api/v1/health', auth: {} },
    {
      name: 'audit GET /api/v1/events?limit=1',
      port: AUDIT_PORT,
      path: '/api/v1/events?limit=1',
      auth: { authorization: `Bearer ${AUDIT_TOKEN}` },
    },
  ];
  const silent: string[] = [];
  for (const check of checks) {
    const path = check.path ?? '/api/v1/health';
    try {
      const answer = await fetch(`http://${HOST}:${check.port}${path}`, { headers: check.auth });
      if (answer.status !== 200) silent.push(`${check.name} answered ${answer.status}`);
    } catch (error) {
      silent.push(`${check.name} did not answer (${(error as Error).cause ?? error})`);
    }
  }
  return silent;
}

async function expectRefusedAndAlive(request: HostileRequest, port: number): Promise<void> {
  const before = await loggedEvents();
  const outcome = await send({ host: HOST, port }, request, { timeoutMs: 20_000 });
  const problems = problemsWith(request, outcome);
  const silent = await silentListeners();
  const after = await loggedEvents().catch(() => undefined);
  const label = describeRequest(request);
  expect({
    label,
    problems,
    silent,
    exitCode: suite.child.exitCode,
    appended: after === undefined ? 'the audit API did not answer' : after - before,
  }).toEqual({ label, problems: [], silent: [], exitCode: null, appended: 0 });
}

const nested = Buffer.from(nestedArrays(50_000));

describe('a body nested 50,000 levels deep, sent to a running suite', () => {
  it('is refused by a service-desk write in the error shape, and every module and the audit API keep answering', async () => {
    await expectRefusedAndAlive(
      {
        operation: 'POST /api/v1/requests',
        class: 'deep nesting (JSON body)',
        fault: `$ = 50,000 levels of nested arrays (${nested.length.toLocaleString('en-US')}-byte body)`,
        method: 'POST',
        path: '/api/v1/requests',
        headers: [
          ['Authorization', `Bearer ${TOKEN}`],
          ['Content-Type', 'application/json'],
        ],
        body: nested,
      },
      portOf('esm'),
    );
  });

  it('is refused by the market assistant stream (a session cookie, no token), and every module and the audit API keep answering', async () => {
    const cookie = `svc_session=${signSession(SESSION_SECRET, 'hostile-user', new Date(Date.now() + 3_600_000))}`;
    await expectRefusedAndAlive(
      {
        operation: 'POST /api/assistant/stream',
        class: 'deep nesting (JSON body)',
        fault: `$ = 50,000 levels of nested arrays (${nested.length.toLocaleString('en-US')}-byte body)`,
        method: 'POST',
        path: '/api/assistant/stream',
        headers: [
          ['Cookie', cookie],
          ['Content-Type', 'application/json'],
        ],
        body: nested,
      },
      portOf('market'),
    );
  });
});

describe('requests a browser page or an identity provider could make, sent to a running suite', () => {
  it('a foreign Host is refused with 421 on every module port and the audit port, and every one keeps answering', async () => {
    const ports = [...MODULE_IDS.map(portOf), AUDIT_PORT];
    for (const [index, port] of ports.entries()) {
      const host = foreignHosts(port)[index % foreignHosts(port).length] as string;
      await expectRefusedAndAlive(
        {
          operation: 'GET /api/',
          class: 'hostile Host values',
          fault: `Host: ${host}`,
          method: 'GET',
          path: '/api/',
          headers: [],
          host,
          expectStatus: 421,
        },
        port,
      );
    }
  });

  it.each([
    ['a sub of 256 characters', { sub: 's'.repeat(256) }],
    ['a sub of 4,000 characters', { sub: 's'.repeat(4_000) }],
    ['a name of 201 characters', { sub: 'u-1', name: 'n'.repeat(201) }],
    ['an email of 3,000 characters', { sub: 'u-1', email: `${'e'.repeat(3_000)}@x.test` }],
  ])(
    'a token with %s is refused with 401 on a write, and every port keeps answering',
    async (_case, claims) => {
      const token = await idp.token({ ...claims, roles: ['esm:writer'] });
      await expectRefusedAndAlive(
        {
          operation: 'POST /api/v1/requests',
          class: 'long strings and keys',
          fault: `a token with ${_case}`,
          method: 'POST',
          path: '/api/v1/requests',
          headers: [
            ['Authorization', `Bearer ${token}`],
            ['Content-Type', 'application/json'],
          ],
          body: Buffer.from(JSON.stringify({ title: 'Claims', status: 'Open', priority: 'Low' })),
          expectStatus: 401,
        },
        portOf('esm'),
      );
    },
  );
});

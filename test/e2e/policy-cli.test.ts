import { spawn } from 'node:child_process';
import { userInfo } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/api/kit/logging';
import { MODULE_IDS } from '../../src/modules/ids';
import { MODULES } from '../../src/api/modules';
import { policyOf } from '../../src/approvals';
import { loadConfig } from '../../src/config';
import { openSuite, suiteCollections } from '../../src/main';
import type { ReadStore } from '../../src/projections/read-store';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { startSuiteProcess, type SuiteProcess } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(120_000);

const PORT = 30_281;

const LEAVE = 'PATCH /api/v1/leave/{id}';
const REQUESTS = 'POST /api/v1/requests';

/** `suite policy ...` in a process of its own; runs that do not append may go side by side. */
function cli(
  dir: string,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [SUITE_CLI, 'policy', ...args, '--data-dir', dir], {
    env: { ...process.env, SUITE_LOG_LEVEL: 'warn' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('`suite policy`', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('puts writes under policies, lists them with their approver roles, and clears one', async () => {
    const leave = await cli(dir, 'require-approval', 'hrm', LEAVE);
    expect(leave).toMatchObject({ status: 0, stderr: '' });
    expect(leave.stdout).toBe(`hrm "${LEAVE}" now waits for the approval of hrm:approver.\n`);

    const requests = await cli(dir, 'require-approval', 'esm', REQUESTS, '--approver-role', 'admin');
    expect(requests).toMatchObject({ status: 0 });
    expect(requests.stdout).toMatch(/now waits for the approval of admin/);

    const listed = await cli(dir, 'list', '--json');
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id: `esm ${REQUESTS}`,
        module: 'esm',
        route: REQUESTS,
        approver_role: 'admin',
      }),
      expect.objectContaining({
        id: `hrm ${LEAVE}`,
        module: 'hrm',
        route: LEAVE,
        approver_role: 'hrm:approver',
      }),
    ]);

    const cleared = await cli(dir, 'clear', 'hrm', LEAVE);
    expect(cleared).toMatchObject({ status: 0, stdout: `hrm "${LEAVE}" no longer waits for an approval.\n` });
    const table = await cli(dir, 'list');
    expect(table.stdout).toMatch(new RegExp(`^esm\\s+POST /api/v1/requests\\s+admin\\s`, 'm'));
    expect(table.stdout).not.toContain(LEAVE);
    expect(table.stdout).toMatch(/^1 policy$/m);
  });

  it('refuses auditor as the approver role, naming why: auditing is a separate duty', async () => {
    const refused = await cli(dir, 'require-approval', 'hrm', LEAVE, '--approver-role', 'auditor');
    expect(refused).toMatchObject({ status: 1, stdout: '' });
    expect(refused.stderr).toMatch(/auditor cannot approve: auditing is a separate duty/);
  });

  it('refuses what no policy can hold, naming what can: an undescribed route, a market session, an unknown module', async () => {
    const [undescribed, session, unknownModule] = await Promise.all([
      cli(dir, 'require-approval', 'hrm', 'DELETE /api/v1/leave/{id}'),
      cli(dir, 'require-approval', 'market', 'POST /api/session'),
      cli(dir, 'require-approval', 'hr', LEAVE),
    ]);
    for (const refused of [undescribed, session, unknownModule]) {
      expect(refused).toMatchObject({ status: 1, stdout: '' });
    }
    for (const route of ['POST /api/v1/leave', LEAVE, 'POST /api/v1/attendance']) {
      expect(undescribed.stderr).toContain(route);
    }
    expect(session.stderr).toMatch(
      /market "POST \/api\/session" cannot be put under a policy: market has no write/,
    );
    for (const id of MODULE_IDS) expect(unknownModule.stderr).toContain(id);
  });

  it('records who set and cleared a policy: the operator as os:<user>', async () => {
    const suite = await openSuite(loadConfig({ SUITE_DATA_DIR: dir }), { logger: createLogger('silent') });
    const events = await suite.storedEvents.readStream('approvals.policy-hrm');
    await suite.close();
    const operator = `os:${userInfo().username}`;
    expect(events.map(({ type, data, metadata }) => [type, data, metadata.actor])).toEqual([
      ['ApprovalRequired', { module: 'hrm', route: LEAVE, approver_role: 'hrm:approver' }, operator],
      ['ApprovalRequirementCleared', { module: 'hrm', route: LEAVE }, operator],
    ]);
  });
});

describe('`suite policy` while a suite runs', () => {
  const { dir, cleanup } = tempDir();
  let suite: SuiteProcess;
  let readStore: ReadStore;

  /** The running suite's policy on the leave route, asked until it is `expected` or a second has passed. */
  async function policyWithin1s(expected: string | null): Promise<string | null> {
    const until = Date.now() + 1_000;
    for (;;) {
      const role = (await policyOf(readStore, 'hrm', LEAVE))?.approver_role ?? null;
      if (role === expected || Date.now() > until) return role;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  beforeAll(async () => {
    suite = await startSuiteProcess({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none' }, PORT);
    // As an API role reads the read models a projector writes.
    readStore = openSqliteReadStore(path.join(dir, 'read-models.db'), { shared: true });
    await readStore.defineCollections(suiteCollections(MODULES));
  });
  afterAll(async () => {
    await readStore.close();
    suite.child.kill('SIGTERM');
    await suite.exited;
    cleanup();
  });

  it('honours a policy set and then cleared by the CLI within a second, without a restart', async () => {
    expect((await cli(dir, 'require-approval', 'hrm', LEAVE)).status).toBe(0);
    expect(await policyWithin1s('hrm:approver')).toBe('hrm:approver');
    expect((await cli(dir, 'clear', 'hrm', LEAVE)).status).toBe(0);
    expect(await policyWithin1s(null)).toBeNull();
  });
});

import { spawnSync } from 'node:child_process';
import { userInfo } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/api/kit/logging';
import { resolveSessionSecret } from '../../src/api/kit/session-secret';
import { systemClock } from '../../src/clock';
import { loadConfig } from '../../src/config';
import { keyAuthenticator } from '../../src/iam';
import { ROLES } from '../../src/iam/principal';
import { openSuite, suiteCollections } from '../../src/main';
import { MODULES } from '../../src/api/modules';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import type { ReadStore } from '../../src/projections/read-store';
import { startSuiteProcess, type SuiteProcess } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(120_000);

const PORT = 29_281;

function cli(dir: string, ...args: string[]) {
  return spawnSync(process.execPath, [SUITE_CLI, 'keys', ...args, '--data-dir', dir], {
    env: { ...process.env, SUITE_LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
}

interface CreatedKey {
  id: string;
  name: string;
  roles: string[];
  person: string;
  member: string | null;
  workspace: string | null;
  expires_at: string | null;
  token: string;
}

function create(dir: string, ...args: string[]): CreatedKey {
  const created = cli(dir, 'create', ...args);
  expect(created).toMatchObject({ status: 0 });
  expect(created.stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(created.stdout) as CreatedKey;
}

const secretOf = (dir: string) => resolveSessionSecret(loadConfig({ SUITE_DATA_DIR: dir }));

/** Opens the data directory as a suite does on start (projecting the log), and authenticates the token. */
async function authenticateAfterStart(dir: string, token: string) {
  const suite = await openSuite(loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none' }), {
    logger: createLogger('silent'),
  });
  try {
    await suite.runtime.start();
    return await keyAuthenticator(suite.readStore, secretOf(dir), systemClock)(token);
  } finally {
    await suite.close();
  }
}

describe('`suite keys` on a stopped suite', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('creates a key, printed once as one JSON object, whose token authenticates', async () => {
    const key = create(dir, '--name', 'Service desk', '--role', 'esm:writer', '--expires-in', '90d');
    expect(Object.keys(key)).toEqual([
      'id',
      'name',
      'roles',
      'member',
      'workspace',
      'person',
      'expires_at',
      'token',
    ]);
    expect(key).toMatchObject({ name: 'Service desk', roles: ['esm:writer'], member: null, workspace: null });
    expect(Date.parse(key.expires_at as string) - Date.now()).toBeGreaterThan(89 * 86_400_000);
    await expect(authenticateAfterStart(dir, key.token)).resolves.toMatchObject({
      id: `key:${key.id}`,
      kind: 'key',
      roles: ['esm:writer'],
    });
  });

  it('issues a key to a person, shown in the list and standing behind its principal', async () => {
    const key = create(dir, '--name', 'Ada', '--role', 'hrm:approver', '--person', 'hrm.employee-19');
    expect(key.person).toBe('hrm.employee-19');
    const table = cli(dir, 'list');
    expect(table.stdout).toMatch(new RegExp(`^${key.id}\\s+Ada\\s+hrm\\.employee-19\\s+hrm:approver`, 'm'));
    await expect(authenticateAfterStart(dir, key.token)).resolves.toMatchObject({
      id: `key:${key.id}`,
      person: 'hrm.employee-19',
    });
    const blank = cli(dir, 'create', '--name', 'Blank', '--role', 'hrm:writer', '--person', ' ');
    expect(blank).toMatchObject({ status: 1, stdout: '' });
  });

  it('lists keys without their tokens or hashes, and revokes one: its token then fails', async () => {
    const key = create(dir, '--name', 'HR', '--role', 'hrm:writer', '--role', 'hrm:reader');
    const listed = cli(dir, 'list', '--json');
    expect(listed.status).toBe(0);
    const keys = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(keys).toContainEqual(
      expect.objectContaining({ id: key.id, name: 'HR', status: 'active', expires_at: null }),
    );
    expect(listed.stdout).not.toContain(key.token);
    expect(listed.stdout).not.toContain(key.token.slice(-43));
    expect(listed.stdout).not.toContain('token_hmac');
    const table = cli(dir, 'list');
    expect(table.stdout).toMatch(
      new RegExp(`^${key.id}\\s+HR\\s+key:${key.id}\\s+hrm:writer,hrm:reader\\s+-\\s+active`, 'm'),
    );
    expect(table.stdout).not.toContain(key.token.slice(-43));

    const revoked = cli(dir, 'revoke', key.id);
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toMatch(/revoked/);
    const again = cli(dir, 'revoke', key.id);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/already revoked/);
    await expect(authenticateAfterStart(dir, key.token)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('records who issued and revoked: the operator as os:<user>', async () => {
    const key = create(dir, '--name', 'Audit trail', '--role', 'admin');
    expect(cli(dir, 'revoke', key.id).status).toBe(0);
    const suite = await openSuite(loadConfig({ SUITE_DATA_DIR: dir }), { logger: createLogger('silent') });
    const events = await suite.storedEvents.readStream(`iam.key-${key.id}`);
    await suite.close();
    expect(events.map(({ type, metadata }) => [type, metadata.actor])).toEqual([
      ['KeyIssued', `os:${userInfo().username}`],
      ['KeyRevoked', `os:${userInfo().username}`],
    ]);
  });

  it('refuses an unknown role naming the valid ones, a member without a workspace, an unknown id', () => {
    const unknownRole = cli(dir, 'create', '--name', 'X', '--role', 'esm:owner');
    expect(unknownRole.status).toBe(1);
    expect(unknownRole.stdout).toBe('');
    for (const role of ROLES) expect(unknownRole.stderr).toContain(role);

    const alone = cli(dir, 'create', '--name', 'X', '--role', 'clm:writer', '--member', 'm-acme-owner');
    expect(alone.status).toBe(1);
    expect(alone.stdout).toBe('');

    const noSuchMember = cli(
      dir,
      'create',
      '--name',
      'X',
      '--role',
      'clm:writer',
      '--member',
      'm-nobody',
      '--workspace',
      'ws-acme',
    );
    expect(noSuchMember.status).toBe(1);
    expect(noSuchMember.stderr).toMatch(/m-nobody is not a member of workspace ws-acme/);

    for (const duration of ['1.5d', '0d']) {
      expect(cli(dir, 'create', '--name', 'X', '--role', 'admin', '--expires-in', duration).status).toBe(1);
    }
    const unknownKey = cli(dir, 'revoke', 'key_0000000000000000');
    expect(unknownKey.status).toBe(1);
    expect(unknownKey.stderr).toMatch(/No key key_0000000000000000/);
  });
});

describe('`suite keys` while a suite runs', () => {
  const { dir, cleanup } = tempDir();
  let suite: SuiteProcess;
  let readStore: ReadStore;

  /**
   * Whether the running suite's read store takes the token, asked until it answers `expected` or a
   * second has passed: the CLI has appended when it exits, and the suite must honour that within 1 s.
   */
  async function validWithin1s(token: string, expected: boolean): Promise<boolean> {
    const authenticate = keyAuthenticator(readStore, secretOf(dir), systemClock);
    const until = Date.now() + 1_000;
    for (;;) {
      const valid = await authenticate(token).then(
        () => true,
        () => false,
      );
      if (valid === expected || Date.now() > until) return valid;
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

  it('honours a key created and then revoked by the CLI within a second, without a restart', async () => {
    const key = create(dir, '--name', 'Integration', '--role', 'crm:writer');
    expect(await validWithin1s(key.token, true)).toBe(true);
    expect(cli(dir, 'revoke', key.id).status).toBe(0);
    expect(await validWithin1s(key.token, false)).toBe(false);
  });
});

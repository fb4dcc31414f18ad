import { spawnSync } from 'node:child_process';
import { createLogger } from '../../src/api/kit/logging';
import { esmModule } from '../../src/api/esm';
import { requireApproval } from '../../src/approvals/policies';
import { operatorContext } from '../../src/cli/common';
import { loadConfig } from '../../src/config';
import { openSuite } from '../../src/main';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(120_000);

/** A stored value that, printed raw, would forge a row, a column and colour the terminal. */
const HOSTILE = 'oidc:eve\n9999\t2026-01-01T00:00:00Z\tforged\x1b[31mred\x1b[0m\u009b2J';
const SHOWN = 'oidc:eve\\n9999\\t2026-01-01T00:00:00Z\\tforged\\x1b[31mred\\x1b[0m\\x9b2J';
/** What a terminal acts on: no line of plain output may hold one (but the table's own tab separators). */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

const cli = (dir: string, ...args: string[]) =>
  spawnSync(process.execPath, [SUITE_CLI, ...args, '--data-dir', dir], {
    env: { ...process.env, SUITE_LOG_LEVEL: 'warn', SUITE_SEED: 'none' },
    encoding: 'utf8',
  });

function suite(dir: string, ...args: string[]) {
  const run = cli(dir, ...args);
  expect(run).toMatchObject({ status: 0 });
  return run.stdout;
}

const lines = (stdout: string) => stdout.trimEnd().split('\n');

describe('stored values with control characters, as the CLI prints them', () => {
  const { dir, cleanup } = tempDir();

  beforeAll(async () => {
    const opened = await openSuite(loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none' }), {
      logger: createLogger('silent'),
    });
    try {
      const operator = operatorContext(opened);
      const metadata = operator.metadata();
      const hostile = { ...operator, metadata: () => ({ ...metadata, actor: HOSTILE }) };
      await requireApproval(hostile, esmModule, 'POST /api/v1/requests', 'esm:approver');
    } finally {
      await opened.close();
    }
  });
  afterAll(cleanup);

  it('suite audit log: one row per event, the actor escaped in its cell', () => {
    const rows = lines(suite(dir, 'audit', 'log'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.split('\t')).toHaveLength(5);
    expect(rows[1]?.split('\t')[4]).toBe(SHOWN);
    for (const row of rows) expect(row.replace(/\t/g, ' ')).not.toMatch(CONTROL);
  });

  it('suite audit log --format ndjson: JSON lines that give the value back as stored', () => {
    const rows = lines(suite(dir, 'audit', 'log', '--format', 'ndjson'));
    expect(rows).toHaveLength(1);
    for (const row of rows) expect(row).not.toMatch(CONTROL);
    expect(JSON.parse(rows[0] as string).metadata.actor).toBe(HOSTILE);
  });

  it('suite policy list: one row per policy, the recorder escaped; --json gives it back', () => {
    const rows = lines(suite(dir, 'policy', 'list'));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).not.toMatch(CONTROL);
    expect(rows[1]).toContain(SHOWN);
    const listed = JSON.parse(suite(dir, 'policy', 'list', '--json'));
    expect(listed[0].required_by).toBe(HOSTILE);
  });

  it('suite keys create: a refusal names the values it refuses escaped, on one line', () => {
    const run = cli(
      dir,
      'keys',
      'create',
      '--name',
      'contracts',
      '--role',
      'clm:writer',
      '--member',
      HOSTILE,
      '--workspace',
      'ws\t1',
    );
    expect(run.status).toBe(1);
    const refusal = run.stderr.split('\n').filter((line) => !line.startsWith('{'));
    expect(refusal).toEqual([`member: ${SHOWN} is not a member of workspace ws\\t1`, '']);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  runSuiteCli,
  startSuiteProcess,
  stopSuiteProcess,
  type SuiteProcess,
} from '../support/suite-process';
import { tempDir } from '../support/temp-dir';

jest.setTimeout(120_000);

const API_TOKEN = 'record-evidence-api-token-01';
const AUDIT_TOKEN = 'record-evidence-audit-token-1';
const PORT = 18_701;
const AUDIT = `http://127.0.0.1:${PORT + 10}`;

let dir: string;
let cleanup: () => void;
let suite: SuiteProcess | undefined;
const env = () => ({
  SUITE_DATA_DIR: dir,
  SUITE_SEED: 'none',
  SUITE_API_TOKEN: API_TOKEN,
  SUITE_AUDIT_TOKEN: AUDIT_TOKEN,
  SUITE_SESSION_SECRET: 'record-evidence-session-secret-0123456789',
});
const cli = (...args: string[]) => runSuiteCli(env(), ...args);

beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(async () => {
  if (suite) expect(await stopSuiteProcess(suite)).toBe(0);
  cleanup();
});

async function send(method: string, route: string, token: string, body?: unknown) {
  const response = await fetch(`${suite?.base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a record’s story as evidence, as an auditor proves it offline', () => {
  it('writes the bundle of a request with a proposal and an erasure, verifies it, and refuses it tampered', async () => {
    const approver = cli('keys', 'create', '--name', 'second pair of eyes', '--role', 'admin');
    expect(approver.status).toBe(0);
    const { token } = JSON.parse(approver.stdout) as { token: string };
    expect(cli('policy', 'require-approval', 'esm', 'PATCH /api/v1/requests/{item_id}').status).toBe(0);
    suite = await startSuiteProcess(env(), PORT);
    const verifierKey = cli('audit', 'public-key').stdout.trim();

    const created = await send('POST', '/api/v1/requests', API_TOKEN, {
      title: 'Badge for a visitor',
      status: 'Open',
      priority: 'Medium',
      form_data: JSON.stringify({ visitor: 'Ada Lovelace' }),
    });
    expect(created.status).toBe(201);
    const proposed = await send('PATCH', `/api/v1/requests/${created.body.id}`, API_TOKEN, {
      priority: 'High',
    });
    expect(proposed.status).toBe(202);
    const approved = await send('POST', `/api/v1/proposals/${proposed.body.id}/approve`, token);
    expect(approved.status).toBe(200);
    const erased = cli('erase', `esm.request-${created.body.id}`, '--reason', 'Art. 17');
    expect(erased.status).toBe(0);

    const record = `esm/requests/${created.body.id}`;
    const bundle = path.join(dir, 'record.json');
    const proved = cli('audit', 'prove', '--record', record, '--out', bundle);
    expect(proved.status).toBe(0);
    expect(proved.stdout).toMatch(
      new RegExp(`^Evidence of ${record}: \\d+ event\\(s\\) in the tree of \\d+ written to `),
    );
    const written = JSON.parse(readFileSync(bundle, 'utf8'));
    const types = written.events.map(({ event }: { event: { type: string } }) => event.type);
    expect(types[0]).toBe('RequestSubmitted');
    expect(types.slice(1, 3)).toEqual(['ChangeProposed', 'ChangeApproved']);
    expect(types).toContain('ChangeApplied');
    expect(types.at(-1)).toBe('SubjectErased');
    const served = await fetch(`${AUDIT}/api/v1/evidence/records/${record}`, {
      headers: { authorization: `Bearer ${AUDIT_TOKEN}` },
    });
    expect(served.status).toBe(200);
    const fromRoute = (await served.json()) as typeof written;
    expect(fromRoute.events.map(({ event }: { event: { hash: string } }) => event.hash)).toEqual(
      written.events.map(({ event }: { event: { hash: string } }) => event.hash),
    );

    const verified = cli('audit', 'verify-bundle', bundle, '--key', verifierKey);
    expect(verified.status).toBe(0);
    const [valid, heading, ...json] = verified.stdout.trimEnd().split('\n');
    expect([valid, heading]).toEqual([
      'valid',
      `${record}, folded from ${types.length} event(s) proven in the tree of ${written.tree_size} leaves:`,
    ]);
    const folded = JSON.parse(json.join('\n'));
    expect(folded).toMatchObject({ id: created.body.id, title: 'Badge for a visitor', priority: 'High' });
    expect(folded.form_data).toMatch(/^pd1:/);
    expect(verified.stdout).not.toContain('Ada Lovelace');

    written.events[0].event.data.title = 'Nothing to see';
    writeFileSync(bundle, JSON.stringify(written));
    const refused = cli('audit', 'verify-bundle', bundle, '--key', verifierKey);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(
      /^invalid: the event at index \d+ \(esm\.request-\d+ revision 0\): the event: its content does not match its hash\n$/,
    );
  });

  it('takes exactly one of --position and --record, and still proves and verifies one event', async () => {
    const out = path.join(dir, 'event.json');
    const both = cli('audit', 'prove', '--position', '1', '--record', 'esm/requests/1', '--out', out);
    const neither = cli('audit', 'prove', '--out', out);
    for (const refused of [both, neither]) {
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/give exactly one of --position and --record/);
    }
    expect(cli('audit', 'prove', '--record', 'esm/requests', '--out', out).stderr).toMatch(
      /must be MODULE\/RESOURCE\/ID/,
    );
    const unknown = cli('audit', 'prove', '--record', 'esm/requests/999', '--out', out);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/esm\/requests\/999 has no history/);
    expect(cli('audit', 'prove', '--position', '1', '--out', out).status).toBe(0);
    const key = cli('audit', 'public-key').stdout.trim();
    expect(cli('audit', 'verify-bundle', out, '--key', key)).toMatchObject({ status: 0, stdout: 'valid\n' });
  });
});

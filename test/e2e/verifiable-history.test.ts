import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StoredEvent } from '../../src/events/envelope';
import {
  runSuiteCli,
  startSuiteProcess,
  stopSuiteProcess,
  type SuiteProcess,
} from '../support/suite-process';
import { eventually } from '../support/eventually';
import { leafHash, verifyConsistency, verifyInclusion } from '../support/rfc9162';
import { rewriteHistory } from '../support/rewrite-history';
import { tempDir } from '../support/temp-dir';

jest.setTimeout(120_000);

const API_TOKEN = 'history-api-token-0001';
const AUDIT_TOKEN = 'history-audit-token-001';
const PORT = 18_641;
const AUDIT = `http://127.0.0.1:${PORT + 10}`;

let dir: string;
let cleanup: () => void;
let suite: SuiteProcess | undefined;
const env = () => ({
  SUITE_DATA_DIR: dir,
  SUITE_SEED: 'none',
  SUITE_API_TOKEN: API_TOKEN,
  SUITE_AUDIT_TOKEN: AUDIT_TOKEN,
});

beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(async () => {
  await stop();
  cleanup();
});

async function stop() {
  if (!suite) return;
  expect(await stopSuiteProcess(suite)).toBe(0);
  suite = undefined;
}

const cli = (...args: string[]) => runSuiteCli(env(), ...args);

async function writeRequests(count: number) {
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${suite?.base}/api/v1/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Printer ${n} jams`, status: 'Open', priority: 'Medium' }),
    });
    expect(response.status).toBe(201);
  }
}

const audit = (route: string) =>
  fetch(`${AUDIT}${route}`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}` } });

/** The latest signed checkpoint once it covers at least `size` events (one is signed within a second or so). */
async function checkpointOf(size: number): Promise<{ note: string; size: number; root: Buffer }> {
  for (;;) {
    const response = await audit('/api/v1/checkpoint');
    if (response.status === 200) {
      const note = await response.text();
      const [, sizeLine = '', rootLine = ''] = note.split('\n');
      if (Number(sizeLine) >= size)
        return { note, size: Number(sizeLine), root: Buffer.from(rootLine, 'base64') };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const bytes = (hashes: string[]) => hashes.map((hash) => Buffer.from(hash, 'hex'));

describe('verifiable history, as an auditor checks it', () => {
  it('proves the log grew honestly, proves one event offline, and catches a rewritten history', async () => {
    suite = await startSuiteProcess(env(), PORT);
    const key = cli('audit', 'public-key');
    expect(key.status).toBe(0);
    const verifierKey = key.stdout.trim();

    await writeRequests(3);
    const old = await checkpointOf(1);
    writeFileSync(path.join(dir, 'old-checkpoint'), old.note);

    await writeRequests(5);
    const latest = await checkpointOf(old.size + 1);
    const consistency = (await (await audit(`/api/v1/proofs/consistency?from=${old.size}`)).json()) as {
      from: number;
      to: number;
      hashes: string[];
    };
    expect(consistency).toMatchObject({ from: old.size, to: latest.size });
    expect(verifyConsistency(old.size, latest.size, old.root, latest.root, bytes(consistency.hashes))).toBe(
      true,
    );
    expect(verifyConsistency(old.size, latest.size, latest.root, old.root, bytes(consistency.hashes))).toBe(
      false,
    );

    const inclusion = (await (await audit('/api/v1/proofs/inclusion?position=1')).json()) as {
      index: number;
      tree_size: number;
      leaf_hash: string;
      hashes: string[];
      event: StoredEvent;
    };
    const leaf = leafHash(Buffer.from(inclusion.event.hash, 'hex'));
    expect(inclusion.leaf_hash).toBe(leaf.toString('hex'));
    expect(verifyInclusion(leaf, inclusion.index, latest.size, bytes(inclusion.hashes), latest.root)).toBe(
      true,
    );

    const bundle = path.join(dir, 'bundle.json');
    expect(cli('audit', 'prove', '--position', '1', '--out', bundle).status).toBe(0);
    expect(cli('audit', 'verify-bundle', bundle, '--key', verifierKey)).toMatchObject({
      status: 0,
      stdout: 'valid\n',
    });
    const forged = JSON.parse(readFileSync(bundle, 'utf8')) as { event: StoredEvent };
    forged.event.data = { title: 'Nothing ever happened' };
    writeFileSync(bundle, JSON.stringify(forged));
    const refused = cli('audit', 'verify-bundle', bundle, '--key', verifierKey);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/^invalid: the event/);

    await stop();
    rewriteHistory(dir, 1);
    const chains = cli('audit', 'verify');
    expect(chains.status).toBe(0);
    expect(chains.stdout).toContain('intact');
    const against = cli(
      'audit',
      'verify',
      '--against',
      path.join(dir, 'old-checkpoint'),
      '--key',
      verifierKey,
    );
    expect(against.status).toBe(1);
    expect(against.stdout).toMatch(/old-checkpoint: NOT extended: .*history was rewritten/);

    // The rewritten event is older than the latest checkpoint's last leaf: the history, compared with
    // the tree once the suite serves, finds it.
    suite = await startSuiteProcess(env(), PORT);
    await eventually(
      'the log to be reported inconsistent',
      async () => ((await (await fetch(`${AUDIT}/api/v1/health`)).json()) as { log: string }).log,
      (log) => log === 'inconsistent',
    );
  });
});

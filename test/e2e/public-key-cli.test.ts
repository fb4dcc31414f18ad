import { spawnSync } from 'node:child_process';
import { loadConfig } from '../../src/config';
import { generateSigningKey, noteSigner } from '../../src/log-proofs/note';
import { resolveLogSigner } from '../../src/log-proofs/signing-key';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(120_000);

const CLI = [SUITE_CLI, 'audit', 'public-key'];
const environment = (env: Record<string, string>) => ({ ...process.env, SUITE_LOG_LEVEL: 'warn', ...env });

function publicKey(dir: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [...CLI, '--data-dir', dir], {
    env: environment(env),
    encoding: 'utf8',
  });
}

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('suite audit public-key', () => {
  it("prints exactly the verifier key line of the data directory's signing key, the same every time", () => {
    const first = publicKey(dir);
    expect(first).toMatchObject({ status: 0, stderr: '' });
    expect(first.stdout).toMatch(/^suite\.local\/log\+[0-9a-f]{8}\+\S{44}\n$/);
    expect(publicKey(dir).stdout).toBe(first.stdout);
    const signer = resolveLogSigner(loadConfig({ SUITE_DATA_DIR: dir }));
    expect(first.stdout).toBe(`${signer.verifierKey}\n`);
  });

  it('prints the verifier key of SUITE_SIGNING_KEY when set', () => {
    const key = generateSigningKey('audit.example.com/log');
    expect(publicKey(dir, { SUITE_SIGNING_KEY: key }).stdout).toBe(`${noteSigner(key).verifierKey}\n`);
  });

  it('exits 1 naming SUITE_SIGNING_KEY, never its value, when it is no key', () => {
    const bad = generateSigningKey('suite.local/log').slice(0, -3);
    const run = publicKey(dir, { SUITE_SIGNING_KEY: bad });
    expect(run).toMatchObject({ status: 1, stdout: '' });
    expect(run.stderr).toMatch(/SUITE_SIGNING_KEY: must be a signing key/);
    expect(run.stderr).not.toContain(bad.slice(-20));
  });
});

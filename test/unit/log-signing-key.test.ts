import fs, { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../src/config';
import { generateSigningKey, noteSigner } from '../../src/log-proofs/note';
import { resolveLogSigner } from '../../src/log-proofs/signing-key';
import { tempDir } from '../support/temp-dir';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const ORIGIN = 'suite.local/log';

describe("the log's signing key", () => {
  it('is SUITE_SIGNING_KEY when set, whatever its name, and then no file is written', () => {
    const key = generateSigningKey('audit.example.com/log');
    const signer = resolveLogSigner({ dataDir: dir, signingKey: key, logOrigin: ORIGIN });
    expect(signer.verifierKey).toBe(noteSigner(key).verifierKey);
    expect(signer.name).toBe('audit.example.com/log');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is generated once into the data directory, named after the origin, mode 0600, nothing else left behind', () => {
    const dataDir = path.join(dir, 'data');
    const signer = resolveLogSigner({ dataDir, signingKey: undefined, logOrigin: ORIGIN });
    const file = path.join(dataDir, 'log-signing-key');
    expect(signer.name).toBe(ORIGIN);
    const kept = readFileSync(file, 'utf8');
    expect(kept).toMatch(/^PRIVATE\+KEY\+suite\.local\/log\+[0-9a-f]{8}\+\S{44}\n$/);
    expect(noteSigner(kept.trim()).verifierKey).toBe(signer.verifierKey);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual(['log-signing-key']);
  });

  it('is the kept one on every later start, even after the origin changed', () => {
    const first = resolveLogSigner({ dataDir: dir, signingKey: undefined, logOrigin: ORIGIN });
    const again = resolveLogSigner({ dataDir: dir, signingKey: undefined, logOrigin: 'other.example/log' });
    expect(again.verifierKey).toBe(first.verifierKey);
  });

  it('is the first one kept when another process keeps its key first', () => {
    const theirs = generateSigningKey(ORIGIN);
    const file = path.join(dir, 'log-signing-key');
    const link = fs.linkSync;
    // The other process links its key into place between our look and our link.
    const spy = jest.spyOn(fs, 'linkSync').mockImplementation((written, target) => {
      writeFileSync(file, `${theirs}\n`, { mode: 0o600 });
      link(written, target);
    });
    try {
      const signer = resolveLogSigner({ dataDir: dir, signingKey: undefined, logOrigin: ORIGIN });
      expect(spy).toHaveBeenCalledTimes(1);
      expect(signer.verifierKey).toBe(noteSigner(theirs).verifierKey);
    } finally {
      spy.mockRestore();
    }
    expect(readdirSync(dir)).toEqual(['log-signing-key']);
  });

  it('refuses a kept file that holds no valid key, without printing it', () => {
    const mangled = generateSigningKey(ORIGIN).slice(0, -2);
    writeFileSync(path.join(dir, 'log-signing-key'), `${mangled}\n`, { mode: 0o600 });
    const resolve = () => resolveLogSigner({ dataDir: dir, signingKey: undefined, logOrigin: ORIGIN });
    expect(resolve).toThrow(ConfigError);
    expect(resolve).toThrow(/log-signing-key holds no valid signing key/);
    expect(resolve).not.toThrow(mangled.slice(-20));
  });
});

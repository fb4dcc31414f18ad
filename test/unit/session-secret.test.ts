import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveSessionSecret } from '../../src/api/kit/session-secret';
import { tempDir } from '../support/temp-dir';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('the server secret', () => {
  it('is SUITE_SESSION_SECRET when set, and then no file is written', () => {
    const secret = 'configured-secret-0123456789abcdef0123';
    expect(resolveSessionSecret({ dataDir: dir, sessionSecret: secret })).toBe(secret);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is generated once into the data directory: 32 bytes or more, mode 0600, nothing else left behind', () => {
    const secret = resolveSessionSecret({ dataDir: dir, sessionSecret: undefined });
    const file = path.join(dir, 'session-secret');
    expect(Buffer.byteLength(secret)).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8')).toBe(`${secret}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['session-secret']);
    expect(resolveSessionSecret({ dataDir: dir, sessionSecret: undefined })).toBe(secret);
  });

  it('refuses a kept file shorter than 32 bytes, without printing it', () => {
    writeFileSync(path.join(dir, 'session-secret'), 'short-kept-secret\n', { mode: 0o600 });
    const resolve = () => resolveSessionSecret({ dataDir: dir, sessionSecret: undefined });
    expect(resolve).toThrow(/shorter than 32 bytes/);
    expect(resolve).not.toThrow(/short-kept-secret/);
  });
});

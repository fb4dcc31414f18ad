import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileRelayCheckpoint } from '../../src/workers/relay-checkpoint-file';
import { tempDir } from '../support/temp-dir';

describe('relay checkpoint file', () => {
  let dir: string;
  let cleanup: () => void;

  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it('starts at 0 without a file, and loads what it saved (creating the folder)', async () => {
    const file = path.join(dir, 'relay', 'checkpoint.json');
    const checkpoint = fileRelayCheckpoint(file);
    expect(await checkpoint.load()).toBe(0);
    await checkpoint.save(4096);
    await checkpoint.save(8192);
    expect(await fileRelayCheckpoint(file).load()).toBe(8192);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ position: 8192 });
  });

  it('refuses a file that holds no position rather than publishing from the start', async () => {
    const file = path.join(dir, 'checkpoint.json');
    writeFileSync(file, '{"position":"12"}');
    await expect(fileRelayCheckpoint(file).load()).rejects.toThrow('does not hold a relay position');
  });
});

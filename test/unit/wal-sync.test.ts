import fs, { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWalSync } from '../../src/events/wal-sync';
import { tempDir } from '../support/temp-dir';

describe('WAL sync', () => {
  it('coalesces commits made while a sync is in flight into one more sync that covers them all', async () => {
    const { dir, cleanup } = tempDir();
    const database = path.join(dir, 'events.db');
    writeFileSync(`${database}-wal`, 'frames');
    const fsync = jest.spyOn(fs, 'fsync');
    const sync = createWalSync(database);

    const first = sync.afterCommit();
    const later = [sync.afterCommit(), sync.afterCommit(), sync.afterCommit()];
    await Promise.all([first, ...later]);

    expect(fsync).toHaveBeenCalledTimes(2);
    expect(later[0]).toBe(later[2]);
    await sync.afterCommit();
    expect(fsync).toHaveBeenCalledTimes(3);
    fsync.mockRestore();
    await sync.close();
    cleanup();
  });

  it('fails the commits it was syncing when the fsync fails', async () => {
    const { dir, cleanup } = tempDir();
    const sync = createWalSync(path.join(dir, 'missing.db'));
    await expect(sync.afterCommit()).rejects.toThrow(/ENOENT/);
    await sync.close();
    cleanup();
  });
});

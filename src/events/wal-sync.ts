import { closeSync, fsync, openSync } from 'node:fs';

/** Makes what SQLite has committed to a WAL file durable, off the event loop. */
export interface WalSync {
  /** Resolves once everything committed before the call is on disk. */
  afterCommit(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Commits run with `synchronous=NORMAL` (SQLite writes the WAL frames but does not fsync them), and
 * this fsyncs the WAL file on libuv's thread pool before any of those commits is acknowledged: the
 * same durability as `synchronous=FULL` for what is acknowledged, without blocking the event loop
 * for the fsync. Linux's fsync flushes the file, whichever descriptor wrote it. Syncs coalesce: a
 * commit made while one is in flight waits for the next, which covers every commit before it.
 */
export function createWalSync(databaseFile: string): WalSync {
  let fd: number | null = null;
  let inFlight: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  async function fsyncNow(): Promise<void> {
    // SQLite creates the WAL file on the first write and keeps it (same inode) while connections are open.
    fd ??= openSync(`${databaseFile}-wal`, 'r+');
    const descriptor = fd;
    return new Promise((resolve, reject) =>
      fsync(descriptor, (error) => (error ? reject(error) : resolve())),
    );
  }

  function afterCommit(): Promise<void> {
    if (!inFlight) {
      inFlight = fsyncNow().finally(() => {
        inFlight = null;
      });
      return inFlight;
    }
    // The sync in flight may have started before this commit: the next one covers it.
    queued ??= inFlight
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return afterCommit();
      });
    return queued;
  }

  return {
    afterCommit,
    async close() {
      await queued?.catch(() => undefined);
      await inFlight?.catch(() => undefined);
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}

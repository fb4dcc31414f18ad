import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * A secret generated once and kept in the data directory (the session secret, the log's signing key):
 * read back on every start, written whole (mode 0600) by the first process that needs it.
 */

/** The text kept in `file`, trimmed; undefined when there is no such file. */
export function readKept(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes `text` to `file` (mode 0600) unless a file is there already: then false, and `file` is left as it is. */
export function keepOnce(file: string, text: string): boolean {
  // Flushed under a name of its own, then linked into place: nobody reads half a secret, and when two
  // processes start together the first link wins and both use what it holds.
  const written = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(written, 'wx', 0o600);
  try {
    writeSync(fd, `${text}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(written, file);
    // The link itself made durable: a secret lost in a crash would be replaced by another.
    const directory = openSync(path.dirname(file), 'r');
    try {
      fsyncSync(directory);
    } finally {
      closeSync(directory);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    unlinkSync(written);
  }
}

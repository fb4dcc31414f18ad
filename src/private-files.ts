import { closeSync, fchmodSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

/** Owner only: what the suite's files and directories are created with (the CLI sets this umask first). */
export const PRIVATE_UMASK = 0o077;
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;
/** The permission bits of a mode that let the group or any other user in. */
const OTHERS = 0o077;

/** Creates the directory (and its parents) for the owner alone; an existing one is left as it is. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
}

/**
 * Opens a file the suite exports (`suite audit export --out`, evidence bundles) for writing, for the
 * owner alone even when it existed with wider permissions. Returns its descriptor.
 */
export function openExport(file: string): number {
  const fd = openSync(file, 'w', PRIVATE_FILE);
  try {
    fchmodSync(fd, PRIVATE_FILE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Writes a whole exported file, for the owner alone. */
export function writeExport(file: string, text: string): void {
  const fd = openExport(file);
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** The directory and everything in it that the group or other users may read or enter. */
export function exposedPaths(dir: string): string[] {
  const exposed: string[] = [];
  const visit = (at: string) => {
    const stats = statSync(at, { throwIfNoEntry: false });
    if (!stats) return;
    if ((stats.mode & OTHERS) !== 0) exposed.push(at);
    if (stats.isDirectory()) for (const name of readdirSync(at)) visit(path.join(at, name));
  };
  visit(dir);
  return exposed;
}

/** Warns, naming each path, about the data directory and files other local users can read. */
export function warnIfExposed(dir: string, logger: Logger): void {
  for (const exposed of exposedPaths(dir)) {
    logger.warn(
      { path: exposed },
      `${exposed} is readable by other users of this machine: restrict it to the owner (chmod go-rwx)`,
    );
  }
}

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../../config';

const SECRET_FILE = 'session-secret';
const MIN_SECRET_BYTES = 32;

function readSecret(file: string): string | undefined {
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `${file} holds a secret shorter than ${MIN_SECRET_BYTES} bytes: delete the file to have one ` +
        'generated, or set SUITE_SESSION_SECRET',
    );
  }
  return secret;
}

/**
 * The server secret, which signs session cookies and keys the names tokens have on events:
 * SUITE_SESSION_SECRET, or one generated on first use and kept in the data directory (mode 0600), so
 * sessions and names survive a restart without any configuration.
 */
export function resolveSessionSecret(config: Pick<Config, 'dataDir' | 'sessionSecret'>): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(config.dataDir, SECRET_FILE);
  const kept = readSecret(file);
  if (kept !== undefined) return kept;
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  // Written whole and flushed under a name of its own, then linked into place: nobody reads half a
  // secret, and when two processes start together the first link wins and both use its secret.
  const written = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(written, 'wx', 0o600);
  try {
    writeSync(fd, `${secret}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(written, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readSecret(file) as string;
  } finally {
    unlinkSync(written);
  }
}

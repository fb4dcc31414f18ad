import { randomBytes } from 'node:crypto';
import { ensurePrivateDir } from '../../private-files';
import path from 'node:path';
import { ConfigError, type Config } from '../../config';
import { keepOnce, readKept } from '../../kept-file';

const SECRET_FILE = 'session-secret';
const MIN_SECRET_BYTES = 32;

function readSecret(file: string): string | undefined {
  const secret = readKept(file);
  if (secret !== undefined && Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
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
  ensurePrivateDir(config.dataDir);
  const secret = randomBytes(32).toString('base64url');
  return keepOnce(file, secret) ? secret : (readSecret(file) as string);
}

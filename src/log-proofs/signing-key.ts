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
import { ConfigError, type Config } from '../config';
import { generateSigningKey, noteSigner, NoteError, type NoteSigner } from './note';

const KEY_FILE = 'log-signing-key';

function keptSigner(file: string): NoteSigner | undefined {
  let key: string;
  try {
    key = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return noteSigner(key);
  } catch (error) {
    if (!(error instanceof NoteError)) throw error;
    // Never the file's text: it may be a key with one character wrong.
    throw new ConfigError(
      `${file} holds no valid signing key (PRIVATE+KEY+<name>+<key id>+<key>): restore it, or set ` +
        "SUITE_SIGNING_KEY; deleting it makes a new key, which auditors' verifier key does not match",
    );
  }
}

/** Writes `key` to `file` whole, unless a file is there already (then false). */
function keep(file: string, key: string): boolean {
  // Flushed under a name of its own, then linked into place: nobody reads half a key, and when two
  // processes start together the first link wins and both sign with its key.
  const written = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(written, 'wx', 0o600);
  try {
    writeSync(fd, `${key}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(written, file);
    // The link itself made durable: a key lost in a crash would leave signed checkpoints unverifiable.
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

/**
 * The signer of the log's checkpoints: SUITE_SIGNING_KEY, or a key named after the log's origin,
 * generated on first use and kept in the data directory (mode 0600).
 */
export function resolveLogSigner(config: Pick<Config, 'dataDir' | 'signingKey' | 'logOrigin'>): NoteSigner {
  if (config.signingKey) return noteSigner(config.signingKey);
  const file = path.join(config.dataDir, KEY_FILE);
  const kept = keptSigner(file);
  if (kept) return kept;
  mkdirSync(config.dataDir, { recursive: true });
  const key = generateSigningKey(config.logOrigin);
  return keep(file, key) ? noteSigner(key) : (keptSigner(file) as NoteSigner);
}

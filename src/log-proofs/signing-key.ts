import { ensurePrivateDir } from '../private-files';
import path from 'node:path';
import { ConfigError, type Config } from '../config';
import { keepOnce, readKept } from '../kept-file';
import { generateSigningKey, noteSigner, NoteError, type NoteSigner } from './note';

const KEY_FILE = 'log-signing-key';

function keptSigner(file: string): NoteSigner | undefined {
  const key = readKept(file);
  if (key === undefined) return undefined;
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

/**
 * The signer of the log's checkpoints: SUITE_SIGNING_KEY, or a key named after the log's origin,
 * generated on first use and kept in the data directory (mode 0600).
 */
export function resolveLogSigner(config: Pick<Config, 'dataDir' | 'signingKey' | 'logOrigin'>): NoteSigner {
  if (config.signingKey) return noteSigner(config.signingKey);
  const file = path.join(config.dataDir, KEY_FILE);
  const kept = keptSigner(file);
  if (kept) return kept;
  ensurePrivateDir(config.dataDir);
  const key = generateSigningKey(config.logOrigin);
  return keepOnce(file, key) ? noteSigner(key) : (keptSigner(file) as NoteSigner);
}

import { sign, verify } from 'node:crypto';
import {
  COSIGNATURE_V1,
  generateSigningKey,
  noteParts,
  NoteError,
  signatureLine,
  signingKeyOf,
  verifier,
} from './note';

/**
 * C2SP tlog-cosignature, cosignature/v1: a witness's Ed25519 signature line on a checkpoint, its
 * bytes `<key id> ‖ <timestamp, u64 big-endian> ‖ <signature>`, the signature over
 * `cosignature/v1\ntime <timestamp>\n` and the checkpoint's note text. Keys are note keys of type 0x04:
 * key id = SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key)[:4].
 */

const TIMESTAMP_BYTES = 8;
const SIGNATURE_BYTES = 64;

/** Cosigns checkpoints with one witness key. */
export interface Cosigner {
  name: string;
  /** `<name>+<key id>+base64(0x04 ‖ public key)`: what logs and auditors are given. */
  verifierKey: string;
  /** The cosignature line of a checkpoint's note text, at `timestamp` (POSIX seconds). */
  cosign(text: string, timestamp: number): string;
}

const signedMessage = (text: string, timestamp: number | bigint) =>
  Buffer.from(`cosignature/v1\ntime ${timestamp}\n${text}`);

/** A new witness key named `name`, as `PRIVATE+KEY+<name>+<key id>+base64(0x04 ‖ seed)`. */
export const generateCosignerKey = (name: string): string => generateSigningKey(name, COSIGNATURE_V1);

/** The cosigner of a witness key; the error never repeats the key. */
export function cosigner(signingKey: string): Cosigner {
  const { name, id, privateKey, verifierKey } = signingKeyOf(signingKey, COSIGNATURE_V1);
  return {
    name,
    verifierKey,
    cosign(text, timestamp) {
      const time = Buffer.alloc(TIMESTAMP_BYTES);
      time.writeBigUInt64BE(BigInt(timestamp));
      const signature = sign(null, signedMessage(text, timestamp), privateKey);
      return signatureLine(name, id, Buffer.concat([time, signature]));
    },
  };
}

/** Whether `verifierKey` is a witness's key: `<name>+<key id>+base64(0x04 ‖ 32 bytes)`, its id matching. */
export function isCosignerKey(verifierKey: string): boolean {
  try {
    verifier(verifierKey, COSIGNATURE_V1);
    return true;
  } catch {
    return false;
  }
}

/** What one witness's lines on a note say: cosigned at a time, forged, or nothing. */
export type CosignatureCheck =
  { status: 'valid'; timestamp: number } | { status: 'invalid' } | { status: 'absent' };

/**
 * The cosignature of `verifierKey` on a signed note. Lines of other keys are ignored; a line of the
 * key whose signature fails, or whose timestamp passes 2^63 - 1, makes it `invalid`.
 */
export function checkCosignature(signedNote: string, verifierKey: string): CosignatureCheck {
  const key = verifier(verifierKey, COSIGNATURE_V1);
  const { text, signatures } = noteParts(signedNote);
  let found: CosignatureCheck = { status: 'absent' };
  for (const { name, signature } of signatures) {
    if (name !== key.name || signature.subarray(0, 4).toString('hex') !== key.id) continue;
    const body = signature.subarray(4);
    if (body.length !== TIMESTAMP_BYTES + SIGNATURE_BYTES) return { status: 'invalid' };
    const timestamp = body.readBigUInt64BE(0);
    const valid =
      timestamp < 2n ** 63n &&
      verify(null, signedMessage(text, timestamp), key.publicKey, body.subarray(TIMESTAMP_BYTES));
    if (!valid) return { status: 'invalid' };
    found = { status: 'valid', timestamp: Number(timestamp) };
  }
  return found;
}

/** The key name of a verifier key (its text before the first `+`). */
export function keyName(verifierKey: string): string {
  const name = verifierKey.split('+', 1)[0] ?? '';
  if (name === '') throw new NoteError('not a verifier key: <name>+<key id>+<base64 key>');
  return name;
}

/**
 * Whether a signed note holds valid cosignatures of at least `quorum` of the witnesses' keys (each key
 * counts once): what falls short, naming each witness's state, or nothing.
 */
export function quorumProblem(
  signedNote: string,
  witnessKeys: readonly string[],
  quorum: number,
): string | undefined {
  const checks = witnessKeys.map((key) => ({ key, check: checkCosignature(signedNote, key) }));
  const valid = checks.filter(({ check }) => check.status === 'valid').length;
  if (valid >= quorum) return undefined;
  const states = checks.map(({ key, check }) => `${keyName(key)} ${check.status}`).join(', ');
  return `${valid} valid cosignature(s) of ${witnessKeys.length} witness(es), ${quorum} required (${states})`;
}

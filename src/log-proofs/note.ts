import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { decodeBase64 } from './base64';

/**
 * Signed notes (c2sp.org/signed-note) with Ed25519 keys in the formats of golang.org/x/mod/sumdb/note:
 * verifier key `<name>+<key id>+base64(0x01 ‖ public key)`, signing key
 * `PRIVATE+KEY+<name>+<key id>+base64(0x01 ‖ seed)`, key id = SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[:4].
 */

/** The signature types of a key (its first byte): a note signature, or a C2SP cosignature/v1. */
export const ED25519 = 0x01;
export const COSIGNATURE_V1 = 0x04;
type KeyType = typeof ED25519 | typeof COSIGNATURE_V1;
const PRIVATE_PREFIX = 'PRIVATE+KEY+';
const SIGNATURE_PREFIX = '\u2014 ';
/** As Go's note.Open: more signatures than this is a malformed note (the spec asks for at least 16). */
const MAX_SIGNATURES = 100;
// The fixed DER wrappings of a raw Ed25519 key (RFC 8410): PKCS#8 around a seed, SPKI around a public key.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A signed note, a key or a checkpoint that is not what it claims, or whose signature fails. */
export class NoteError extends Error {
  override name = 'NoteError';
}

/** Signs note texts with one key. */
export interface NoteSigner {
  name: string;
  /** `<name>+<key id>+<base64 public key>`: what verifiers are given. */
  verifierKey: string;
  /** The signed note: the text (ending in a newline), a blank line and this key's signature line. */
  sign(text: string): string;
}

/** Non-empty, without Unicode white space, plus signs or control characters (a note's key name). */
export function isKeyName(name: string): boolean {
  return name !== '' && !/[\p{White_Space}+]/u.test(name) && wellFormed(name);
}

/** Text a note may hold: no lone surrogate (it has a UTF-8 encoding), no control character but newline. */
function wellFormed(text: string): boolean {
  return !/\p{Surrogate}/u.test(text) && ![...text].some((char) => char < ' ' && char !== '\n');
}

/** The key id of an Ed25519 key, as 8 lowercase hex digits. */
export function keyId(name: string, publicKey: Buffer, type: KeyType = ED25519): string {
  const hash = createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.from([type]))
    .update(publicKey);
  return hash.digest().subarray(0, 4).toString('hex');
}

/** `<name>+<key id>+<base64(0x01 ‖ 32 bytes)>` taken apart; undefined if it is not one. */
function keyParts(text: string, type: KeyType): { name: string; id: string; material: Buffer } | undefined {
  const match = /^([^+]*)\+([0-9a-f]{8})\+(.*)$/i.exec(text);
  if (!match) return undefined;
  const [, name = '', id = '', encoded = ''] = match;
  const key = decodeBase64(encoded);
  if (!isKeyName(name) || key?.length !== 33 || key[0] !== type) return undefined;
  return { name, id: id.toLowerCase(), material: key.subarray(1) };
}

const rawPublicKey = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).subarray(-32);

const keyText = (name: string, id: string, material: Buffer, type: KeyType = ED25519) =>
  `${name}+${id}+${Buffer.concat([Buffer.from([type]), material]).toString('base64')}`;

/** A new Ed25519 signing key named `name`, as `PRIVATE+KEY+…` text: a note signer's, or a cosigner's. */
export function generateSigningKey(name: string, type: KeyType = ED25519): string {
  if (!isKeyName(name)) throw new NoteError('a key name must be non-empty, without spaces or plus signs');
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
  return PRIVATE_PREFIX + keyText(name, keyId(name, rawPublicKey(publicKey), type), seed, type);
}

/** The Ed25519 key of a `PRIVATE+KEY+…` text of that type, its name, key id and verifier key. */
export function signingKeyOf(signingKey: string, type: KeyType = ED25519) {
  const parts = signingKey.startsWith(PRIVATE_PREFIX)
    ? keyParts(signingKey.slice(PRIVATE_PREFIX.length), type)
    : undefined;
  if (!parts) throw new NoteError('not a signing key: PRIVATE+KEY+<name>+<key id>+<base64 key>');
  const { name, id, material: seed } = parts;
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = rawPublicKey(createPublicKey(privateKey));
  if (keyId(name, publicKey, type) !== id) throw new NoteError("a signing key's key id must match its key");
  return { name, id, privateKey, verifierKey: keyText(name, id, publicKey, type) };
}

/** The signer of a `PRIVATE+KEY+…` key; the error never repeats the key. */
export function noteSigner(signingKey: string): NoteSigner {
  const { name, id, privateKey, verifierKey } = signingKeyOf(signingKey);
  return {
    name,
    verifierKey,
    sign(text) {
      if (!text.endsWith('\n') || !wellFormed(text)) {
        throw new NoteError('a note text ends in a newline and holds no other control character');
      }
      return `${text}\n${signatureLine(name, id, sign(null, Buffer.from(text), privateKey))}`;
    },
  };
}

/** Whether `text` is a `PRIVATE+KEY+…` key whose key id matches it. */
export function isSigningKey(text: string): boolean {
  try {
    noteSigner(text);
    return true;
  } catch {
    return false;
  }
}

export function verifier(
  verifierKey: string,
  type: KeyType = ED25519,
): { name: string; id: string; publicKey: KeyObject } {
  const parts = keyParts(verifierKey, type);
  if (!parts || keyId(parts.name, parts.material, type) !== parts.id) {
    throw new NoteError('not a verifier key: <name>+<key id>+<base64 key>, its key id matching its key');
  }
  const der = Buffer.concat([SPKI_PREFIX, parts.material]);
  return { ...parts, publicKey: createPublicKey({ key: der, format: 'der', type: 'spki' }) };
}

/** A signed note taken apart: its text, and each signature line's key name and signature bytes. */
export function noteParts(signedNote: string): {
  text: string;
  signatures: { name: string; signature: Buffer }[];
} {
  const malformed = (why: string) => new NoteError(`malformed note: ${why}`);
  if (!wellFormed(signedNote)) throw malformed('a control character other than newline, or no UTF-8');
  const split = signedNote.lastIndexOf('\n\n');
  if (split < 0) throw malformed('no blank line before the signatures');
  const text = signedNote.slice(0, split + 1);
  const block = signedNote.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) throw malformed('no signature lines, each ending in a newline');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) throw malformed(`more than ${MAX_SIGNATURES} signatures`);
  const signatures = lines.map((line) => {
    const [name = '', encoded = ''] = line.slice(SIGNATURE_PREFIX.length).split(/ (.*)/s);
    const signature = decodeBase64(encoded);
    if (!line.startsWith(SIGNATURE_PREFIX) || !isKeyName(name) || !signature || signature.length < 5) {
      throw malformed('a signature line is not "— <key name> <base64 signature>"');
    }
    return { name, signature };
  });
  return { text, signatures };
}

/** A signature line: `— <key name> base64(<key id> ‖ <signature>)`. */
export const signatureLine = (name: string, id: string, signature: Buffer): string =>
  `${SIGNATURE_PREFIX}${name} ${Buffer.concat([Buffer.from(id, 'hex'), signature]).toString('base64')}\n`;

/**
 * The text of a signed note that `verifierKey` signed. Signatures of other keys (another name or key
 * id) are ignored, as the spec requires; the note is refused if it is malformed, if no signature is
 * the key's, or if any signature of the key fails.
 */
export function openNote(signedNote: string, verifierKey: string): string {
  const key = verifier(verifierKey);
  const { text, signatures } = noteParts(signedNote);
  let signed = false;
  for (const { name, signature } of signatures) {
    if (name !== key.name || signature.subarray(0, 4).toString('hex') !== key.id) continue;
    if (!verify(null, Buffer.from(text), key.publicKey, signature.subarray(4))) {
      throw new NoteError(`invalid signature by ${key.name}+${key.id}`);
    }
    signed = true;
  }
  if (!signed) throw new NoteError(`no signature by ${key.name}+${key.id}`);
  return text;
}

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

const ED25519 = 0x01;
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
export function keyId(name: string, publicKey: Buffer): string {
  const hash = createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.from([ED25519]))
    .update(publicKey);
  return hash.digest().subarray(0, 4).toString('hex');
}

/** `<name>+<key id>+<base64(0x01 ‖ 32 bytes)>` taken apart; undefined if it is not one. */
function keyParts(text: string): { name: string; id: string; material: Buffer } | undefined {
  const match = /^([^+]*)\+([0-9a-f]{8})\+(.*)$/i.exec(text);
  if (!match) return undefined;
  const [, name = '', id = '', encoded = ''] = match;
  const key = decodeBase64(encoded);
  if (!isKeyName(name) || key?.length !== 33 || key[0] !== ED25519) return undefined;
  return { name, id: id.toLowerCase(), material: key.subarray(1) };
}

const rawPublicKey = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).subarray(-32);

const keyText = (name: string, id: string, material: Buffer) =>
  `${name}+${id}+${Buffer.concat([Buffer.from([ED25519]), material]).toString('base64')}`;

/** A new Ed25519 signing key named `name`, as `PRIVATE+KEY+…` text. */
export function generateSigningKey(name: string): string {
  if (!isKeyName(name)) throw new NoteError('a key name must be non-empty, without spaces or plus signs');
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
  return PRIVATE_PREFIX + keyText(name, keyId(name, rawPublicKey(publicKey)), seed);
}

/** The signer of a `PRIVATE+KEY+…` key; the error never repeats the key. */
export function noteSigner(signingKey: string): NoteSigner {
  const parts = signingKey.startsWith(PRIVATE_PREFIX)
    ? keyParts(signingKey.slice(PRIVATE_PREFIX.length))
    : undefined;
  if (!parts) throw new NoteError('not a signing key: PRIVATE+KEY+<name>+<key id>+<base64 key>');
  const { name, id, material: seed } = parts;
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = rawPublicKey(createPublicKey(privateKey));
  if (keyId(name, publicKey) !== id) throw new NoteError("a signing key's key id must match its key");
  return {
    name,
    verifierKey: keyText(name, id, publicKey),
    sign(text) {
      if (!text.endsWith('\n') || !wellFormed(text)) {
        throw new NoteError('a note text ends in a newline and holds no other control character');
      }
      const signature = sign(null, Buffer.from(text), privateKey);
      const encoded = Buffer.concat([Buffer.from(id, 'hex'), signature]).toString('base64');
      return `${text}\n${SIGNATURE_PREFIX}${name} ${encoded}\n`;
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

function verifier(verifierKey: string): { name: string; id: string; publicKey: KeyObject } {
  const parts = keyParts(verifierKey);
  if (!parts || keyId(parts.name, parts.material) !== parts.id) {
    throw new NoteError('not a verifier key: <name>+<key id>+<base64 key>, its key id matching its key');
  }
  const der = Buffer.concat([SPKI_PREFIX, parts.material]);
  return { ...parts, publicKey: createPublicKey({ key: der, format: 'der', type: 'spki' }) };
}

/**
 * The text of a signed note that `verifierKey` signed. Signatures of other keys (another name or key
 * id) are ignored, as the spec requires; the note is refused if it is malformed, if no signature is
 * the key's, or if any signature of the key fails.
 */
export function openNote(signedNote: string, verifierKey: string): string {
  const key = verifier(verifierKey);
  const malformed = (why: string) => new NoteError(`malformed note: ${why}`);
  if (!wellFormed(signedNote)) throw malformed('a control character other than newline, or no UTF-8');
  const split = signedNote.lastIndexOf('\n\n');
  if (split < 0) throw malformed('no blank line before the signatures');
  const text = signedNote.slice(0, split + 1);
  const block = signedNote.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) throw malformed('no signature lines, each ending in a newline');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) throw malformed(`more than ${MAX_SIGNATURES} signatures`);
  let signed = false;
  for (const line of lines) {
    const [name = '', encoded = ''] = line.slice(SIGNATURE_PREFIX.length).split(/ (.*)/s);
    const signature = decodeBase64(encoded);
    if (!line.startsWith(SIGNATURE_PREFIX) || !isKeyName(name) || !signature || signature.length < 5) {
      throw malformed('a signature line is not "— <key name> <base64 signature>"');
    }
    if (name !== key.name || signature.subarray(0, 4).toString('hex') !== key.id) continue;
    if (!verify(null, Buffer.from(text), key.publicKey, signature.subarray(4))) {
      throw new NoteError(`invalid signature by ${key.name}+${key.id}`);
    }
    signed = true;
  }
  if (!signed) throw new NoteError(`no signature by ${key.name}+${key.id}`);
  return text;
}

import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

/**
 * One personal value sealed under its data subject's key (AES-256-GCM), as a string that takes the
 * value's place in an event's data:
 *
 *   pd1:<erased as>:<subject>:<key id>:<base64url(iv ‖ ciphertext ‖ tag)>
 *
 * The plaintext is the value's JSON; the header is the additional data, so a value cannot be moved to
 * another subject or key. `erased as` says what the value reads once the key is gone: `n` null (the
 * field may be null), `t` the text "[erased]".
 */

const PREFIX = 'pd1';
const MARK = `${PREFIX}:`;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;
export const ERASED_TEXT = '[erased]';

export type ErasedAs = 'n' | 't';

const KEY_ID_BYTES = 8;
/** What a key id is derived under: no other hash the suite makes of a key can be taken for one. */
const KEY_ID_DOMAIN = 'suite subject key\n';

/**
 * The id of a subject key: the lowercase hex of the first 8 bytes of SHA-256 over the domain and the
 * key. A sealed value's header names its key id and is its additional data, inside the hashed event;
 * GCM alone does not commit to a key (another key can be made to open the same ciphertext to another
 * plaintext), the id does: a key disclosed later proves the plaintext only if it hashes to that id.
 * Keys made before ids were derived have random ids, and still open what they sealed.
 */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(KEY_ID_DOMAIN).update(key).digest().toString('hex', 0, KEY_ID_BYTES);
}

export interface SubjectKey {
  id: string;
  key: Buffer;
}

export interface SealedHeader {
  subject: string;
  keyId: string;
  erasedAs: ErasedAs;
}

const header = ({ subject, keyId, erasedAs }: SealedHeader) => `${PREFIX}:${erasedAs}:${subject}:${keyId}`;

export function seal(
  value: unknown,
  subject: string,
  { id, key }: SubjectKey,
  erasedAs: ErasedAs,
  iv: Buffer,
): string {
  const head = header({ subject, keyId: id, erasedAs });
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(head, 'latin1'));
  // GCM is a stream mode: update answers the whole ciphertext, final only computes the tag.
  const ciphertext = cipher.update(JSON.stringify(value), 'utf8');
  cipher.final();
  return `${head}:${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url')}`;
}

/** The header of a sealed value; undefined for any other value. */
export function sealedHeader(value: unknown): SealedHeader | undefined {
  if (typeof value !== 'string' || !value.startsWith(MARK)) return undefined;
  // Found by position, not split: a split would copy out the payload, the longest part, for nothing.
  const erasedAs = value[MARK.length];
  if ((erasedAs !== 'n' && erasedAs !== 't') || value[MARK.length + 1] !== ':') return undefined;
  const subjectStart = MARK.length + 2;
  const subjectEnd = value.indexOf(':', subjectStart);
  const keyIdEnd = subjectEnd < 0 ? -1 : value.indexOf(':', subjectEnd + 1);
  if (subjectEnd <= subjectStart || keyIdEnd <= subjectEnd + 1) return undefined;
  return {
    subject: value.slice(subjectStart, subjectEnd),
    keyId: value.slice(subjectEnd + 1, keyIdEnd),
    erasedAs,
  };
}

/**
 * The value a sealed string holds, opened with its key. Throws when the key is not the one it was
 * sealed with, or when any part of the string was changed (its header is the additional data).
 */
export function open(sealed: string, key: Buffer): unknown {
  const headerEnd = sealed.lastIndexOf(':');
  const payload = Buffer.from(sealed.slice(headerEnd + 1), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, payload.subarray(0, IV_BYTES))
    .setAAD(Buffer.from(sealed.slice(0, headerEnd), 'latin1'))
    .setAuthTag(payload.subarray(payload.length - TAG_BYTES));
  const plaintext = decipher.update(payload.subarray(IV_BYTES, payload.length - TAG_BYTES));
  decipher.final();
  return JSON.parse(plaintext.toString('utf8'));
}

/** What a sealed value reads once its subject was erased. */
export const erasedValue = ({ erasedAs }: SealedHeader): null | string =>
  erasedAs === 'n' ? null : ERASED_TEXT;

export const IV_SIZE = IV_BYTES;

/**
 * A text built from parts, some of them personal values (`first_name last_name`): "[erased]" once
 * when any part reads erased, never "[erased] [erased]" nor a name half left.
 */
export function derivedText(parts: readonly (string | null)[], separator = ' '): string {
  if (parts.includes(ERASED_TEXT)) return ERASED_TEXT;
  return parts.filter((part) => part !== null && part !== '').join(separator);
}

/** The subjects of the sealed values within a value, however deep: each once, in the order first found. */
export function sealedSubjectsIn(value: unknown): string[] {
  const subjects = new Set<string>();
  const walk = (item: unknown): void => {
    if (typeof item === 'string') {
      const found = sealedHeader(item);
      if (found) subjects.add(found.subject);
    } else if (typeof item === 'object' && item !== null) {
      for (const inner of Object.values(item)) walk(inner);
    }
  };
  walk(value);
  return [...subjects];
}

import { createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A token names its key, so verifying it is one read: `suite_<id>_<secret>`, where the secret is 32
 * random bytes as base64url (43 characters). The id (`key_` and 16 characters) is not secret: it is
 * on events and in `suite keys list`.
 */
const TOKEN = /^suite_(key_[a-z0-9]{16})_[A-Za-z0-9_-]{43}$/;

export function newKeyId(): string {
  return `key_${Array.from({ length: 16 }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('')}`;
}

export const newToken = (keyId: string): string => `suite_${keyId}_${randomBytes(32).toString('base64url')}`;

/** The id of the key a token names, or `null` when the token is not of the key format. */
export function keyIdOf(token: string): string | null {
  return TOKEN.exec(token)?.[1] ?? null;
}

/**
 * Answers a token's HMAC-SHA256 (hex) under a key derived from the server secret: what the store keeps
 * instead of the token. Without the secret, the log does not let anyone test guesses.
 */
export function tokenHasher(serverSecret: string): (token: string) => string {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, '', 'suite api key', 32));
  return (token) => createHmac('sha256', key).update(token).digest('hex');
}

/** Compares two HMACs (hex) in constant time. */
export function sameHmac(given: string, stored: string): boolean {
  const a = Buffer.from(given, 'hex');
  const b = Buffer.from(stored, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

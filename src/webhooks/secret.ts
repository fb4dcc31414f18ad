import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The Standard Webhooks form of a signing secret: `whsec_` and its bytes in base64. */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const SEALED_PREFIX = 'whs1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const newWebhookSecret = (): string =>
  `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

/** The bytes an HMAC is made with: the secret's base64 part, decoded. */
export const secretBytes = (secret: string): Buffer =>
  Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

const sealingKey = (serverSecret: string): Buffer =>
  Buffer.from(hkdfSync('sha256', serverSecret, '', 'suite webhook secret', 32));

/**
 * A webhook's secret as its `WebhookCreated` event keeps it: AES-256-GCM under a key derived from the
 * server secret, the webhook's id as additional data (a sealed secret cannot be moved to another
 * webhook). The log is served to auditors: they see this, never the secret. Not the personal-data
 * format, which the audit API opens.
 */
export function sealSecret(serverSecret: string, webhookId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(serverSecret), iv).setAAD(Buffer.from(webhookId));
  const sealed = Buffer.concat([iv, cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${SEALED_PREFIX}${sealed.toString('base64url')}`;
}

/** The secret `sealSecret` sealed; throws when the server secret is not the one it was sealed under. */
export function openSecret(serverSecret: string, webhookId: string, sealed: string): string {
  const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(serverSecret), bytes.subarray(0, IV_BYTES))
    .setAAD(Buffer.from(webhookId))
    .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  const plain = Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]);
  return plain.toString('utf8');
}

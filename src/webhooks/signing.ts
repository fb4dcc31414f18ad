import { createHash, createHmac } from 'node:crypto';
import type { Change } from '../changes/change';
import { secretBytes } from './secret';

/** A change as a webhook's body carries it (Standard Webhooks' payload: type, timestamp, data). */
export interface WebhookPayload {
  /** `<module>.<resource>.<op>`: `esm.requests.upsert`. */
  type: string;
  /** When the change occurred. */
  timestamp: string;
  data: Change;
}

export const payloadOf = (module: string, change: Change): WebhookPayload => ({
  type: `${module}.${change.resource}.${change.op}`,
  timestamp: change.occurred_at,
  data: change,
});

/** `webhook-id`: one per change and webhook, the same on every attempt, so a receiver can drop repeats. */
export function messageId(webhookId: string, change: Pick<Change, 'resource' | 'id' | 'position'>): string {
  const named = `${webhookId}\n${change.resource}\n${change.id}\n${change.position}`;
  return `msg_${createHash('sha256').update(named).digest('hex').slice(0, 32)}`;
}

/**
 * The Standard Webhooks headers of one attempt: its id, its time in Unix seconds, and
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the secret's bytes.
 */
export function signedHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac('sha256', secretBytes(secret))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

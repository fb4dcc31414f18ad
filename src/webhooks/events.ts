import { z } from 'zod';
import { defineEvent, type EventsOf } from '../events/catalog';

/** `wh_` and 16 lowercase letters or digits: a webhook's id, and the suffix of its stream. */
export const WEBHOOK_ID = /^wh_[a-z0-9]{16}$/;

const id = z.string().regex(WEBHOOK_ID);

export const webhookEvents = [
  defineEvent(
    'WebhookCreated',
    z.object({
      id,
      /** The module whose port registered it: the one whose changes it is sent. */
      module: z.string().min(1),
      url: z.string().url(),
      /** Only this resource's changes; null: every resource of the module. */
      resource: z.string().min(1).nullable(),
      description: z.string().nullable(),
      /** The signing secret, sealed under a key derived from the server secret (`secret.ts`). */
      secret_sealed: z.string().min(1),
      /** The log's head when it was created: it is sent the changes after it. */
      from_position: z.number().int().nonnegative(),
    }),
  ),
  defineEvent(
    'WebhookDeliveryAttempted',
    z.object({
      id,
      /** `webhook-id`: the same for every attempt of one change to this webhook. */
      message_id: z.string().min(1),
      /** The change's feed cursor: once delivered, where delivery goes on from. */
      cursor: z.string().min(1),
      /** The log position of the change. */
      position: z.number().int().nonnegative(),
      /** The attempt's number for this change, from 1. */
      attempt: z.number().int().positive(),
      /** The receiver's answer; null when none came (`error` says why). */
      status_code: z.number().int().nullable(),
      error: z.string().nullable(),
      latency_ms: z.number().int().nonnegative(),
      delivered: z.boolean(),
      /** When it was sent. */
      at: z.string(),
      /** When the change is sent again; null once delivered, or when the webhook was disabled. */
      next_attempt_at: z.string().nullable(),
    }),
  ),
  defineEvent('WebhookDisabled', z.object({ id, reason: z.string().min(1) })),
  defineEvent(
    'WebhookRedeliveryRequested',
    z.object({
      id,
      /** Sent again the changes after this cursor; null: from the first change not delivered. */
      after: z.string().min(1).nullable(),
    }),
  ),
  defineEvent('WebhookDeleted', z.object({ id })),
] as const;

export type WebhookEvent = EventsOf<typeof webhookEvents>;
export type WebhookEventOf<Type extends WebhookEvent['type']> = Extract<WebhookEvent, { type: Type }>;

export const webhookStream = (webhookId: string) => `webhooks.webhook-${webhookId}`;

import { z } from 'zod';
import { evolveStamped } from '../../projections/stamped-evolve';
import type { StoredEvent } from '../../events/envelope';
import type { ModuleServices } from '../../modules/module';
import {
  DELIVERIES_COLLECTION,
  WEBHOOK_ID,
  WEBHOOKS_COLLECTION,
  createWebhook,
  deleteWebhook,
  requestRedelivery,
  webhooksProjection,
  type WebhookRecord,
} from '../../webhooks';
import { ApiError } from './errors';
import type { ModuleDefinition, ModuleRoute, SentWebhook } from './module';
import { WebhookPayloadSchema } from './change-schema';
import { ErrorEnvelopeSchema } from './openapi';
import { integerParameter } from './validation';

export const WebhookSchema = z
  .object({
    id: z.string(),
    module: z.string(),
    url: z.string(),
    resource: z.string().nullable().meta({ description: "Only this resource's changes; null: all of them" }),
    description: z.string().nullable(),
    status: z.enum(['active', 'disabled']),
    disabled_reason: z.string().nullable(),
    created_at: z.string(),
    created_by: z.string(),
    delivered_up_to: z.string().nullable().meta({ description: 'The cursor of the last change delivered' }),
    next_attempt_at: z
      .string()
      .nullable()
      .meta({ description: 'When the change that failed is sent again; null: none is failing' }),
  })
  .meta({ id: 'Webhook' });

const CreatedWebhookSchema = WebhookSchema.extend({
  secret: z.string().meta({
    description: 'The signing secret (`whsec_` and base64), shown this once: it is never served again',
  }),
}).meta({ id: 'CreatedWebhook' });

const DeliverySchema = z
  .object({
    webhook: z.string(),
    message_id: z.string().meta({ description: '`webhook-id`: the same on every attempt of one change' }),
    cursor: z.string().meta({ description: "The change's cursor" }),
    position: z.number().int(),
    attempt: z.number().int(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable().meta({ description: 'Why no answer came (timeout, refused...)' }),
    latency_ms: z.number().int(),
    delivered: z.boolean(),
    at: z.string(),
    next_attempt_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

const WebhookRequestSchema = z
  .strictObject({
    url: z.string().max(2048).meta({ description: 'http(s); not a private or loopback address' }),
    resource: z.string().min(1).optional().meta({ description: "Only this resource's changes" }),
    description: z.string().trim().min(1).max(500).optional(),
  })
  .meta({ id: 'WebhookRequest' });

const RedeliverySchema = z
  .strictObject({
    after: z.string().min(1).optional().meta({
      description:
        "Send again every change after this cursor (a delivery's); absent: from the first change not delivered",
    }),
  })
  .meta({ id: 'Redelivery' });

const page = <Item extends z.ZodType>(item: Item) =>
  z.object({
    data: z.array(item),
    meta: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
  });

/** The webhook of this module, or 404. */
async function webhookOf(module: ModuleDefinition, services: ModuleServices, id: string) {
  const stored = WEBHOOK_ID.test(id) ? await services.readStore.get(WEBHOOKS_COLLECTION, id) : null;
  const record = stored === null ? null : (JSON.parse(stored) as WebhookRecord);
  if (!record || record.module !== module.id) throw new ApiError('not_found', 'No such webhook');
  return record;
}

/** The record after the events appended, with the position of the last, once the read models show it. */
async function appended(
  services: ModuleServices,
  record: WebhookRecord | null,
  events: readonly StoredEvent[],
) {
  const after = events.reduce((doc, event) => evolveStamped(webhooksProjection, doc, event), record);
  const last = events[events.length - 1];
  if (last) await services.runtime.waitFor(last.position);
  const headers: Record<string, string> = last ? { 'X-Event-Position': String(last.position) } : {};
  return { body: after, headers };
}

/**
 * The webhook routes every module serves (the admin role): register one for the module's changes (its
 * secret shown once), list, read and delete them, send changes again, and list the delivery attempts.
 */
export function webhookRoutes(module: ModuleDefinition): ModuleRoute[] {
  const tags = ['webhooks'];
  const auth = 'bearer';
  const role = 'admin';
  const params = z.object({ id: z.string() });
  const envelope = (description: string) => ({ description, schema: ErrorEnvelopeSchema });
  const paging = z.strictObject({
    limit: integerParameter({ min: 1, max: module.list.maxLimit }).optional(),
    offset: integerParameter({ min: 0 }).optional(),
  });

  const create: ModuleRoute<unknown, z.infer<typeof WebhookRequestSchema>> = {
    method: 'post',
    path: '/api/v1/webhooks',
    operation: 'createWebhook',
    summary: "Register a webhook for the module's record changes; its signing secret is shown once",
    tags,
    auth,
    role,
    proposable: false,
    body: WebhookRequestSchema,
    responses: {
      201: { description: 'The webhook, with its secret', schema: CreatedWebhookSchema },
      422: envelope('Invalid payload, a resource the module does not have, or a URL it may not be sent to'),
    },
    async handle({ body, commands, settings }, services) {
      const { id, secret, result } = await createWebhook(
        commands,
        {
          module: module.id,
          url: body.url,
          resource: body.resource ?? null,
          description: body.description ?? null,
        },
        {
          resources: module.resources.map((resource) => resource.path),
          allowPrivate: settings.webhookAllowPrivate === true,
          serverSecret: settings.sessionSecret,
        },
      );
      const answer = await appended(services, null, result.outcome.events);
      return {
        status: 201,
        headers: { ...answer.headers, Location: `/api/v1/webhooks/${id}` },
        body: { ...answer.body, secret },
      };
    },
  };

  const list: ModuleRoute<{ limit?: number; offset?: number }> = {
    method: 'get',
    path: '/api/v1/webhooks',
    operation: 'listWebhooks',
    summary: "The module's webhooks",
    tags,
    auth,
    role,
    query: paging,
    responses: { 200: { description: 'A page of webhooks', schema: page(WebhookSchema) } },
    async handle({ query }, services) {
      const { limit = module.list.defaultLimit, offset = 0 } = query;
      const filters = [{ field: 'module', op: 'eq' as const, value: module.id }];
      const found = await services.readStore.find(WEBHOOKS_COLLECTION, { filters, limit, offset });
      const data = found.items.map((item) => JSON.parse(item) as WebhookRecord);
      return { status: 200, body: { data, meta: { total: found.total, limit, offset } } };
    },
  };

  const get: ModuleRoute = {
    method: 'get',
    path: '/api/v1/webhooks/:id',
    operation: 'getWebhook',
    summary: 'One webhook (never its secret)',
    tags,
    auth,
    role,
    params,
    responses: {
      200: { description: 'The webhook', schema: WebhookSchema },
      404: envelope('No such webhook'),
    },
    async handle({ params: { id } }, services) {
      return { status: 200, body: await webhookOf(module, services, id as string) };
    },
  };

  const remove: ModuleRoute = {
    method: 'delete',
    path: '/api/v1/webhooks/:id',
    operation: 'deleteWebhook',
    summary: 'Delete a webhook: nothing more is sent to it',
    tags,
    auth,
    role,
    proposable: false,
    params,
    responses: { 204: { description: 'Deleted' }, 404: envelope('No such webhook') },
    async handle({ params: { id }, commands }, services) {
      const record = await webhookOf(module, services, id as string);
      const { outcome } = await deleteWebhook(commands, record.id);
      const { headers } = await appended(services, record, outcome.events);
      return { status: 204, headers, body: null };
    },
  };

  const redeliver: ModuleRoute<unknown, z.infer<typeof RedeliverySchema>> = {
    method: 'post',
    path: '/api/v1/webhooks/:id/redeliver',
    operation: 'redeliverWebhook',
    summary:
      'Send changes again: those after a cursor, or from the first not delivered; a disabled webhook is enabled again',
    tags,
    auth,
    role,
    proposable: false,
    params,
    body: RedeliverySchema,
    responses: {
      202: { description: 'Accepted: the webhook, whose deliveries go on from there', schema: WebhookSchema },
      404: envelope('No such webhook'),
      422: envelope('Invalid payload'),
    },
    async handle({ params: { id }, body, commands }, services) {
      const record = await webhookOf(module, services, id as string);
      const { outcome } = await requestRedelivery(commands, record.id, body.after ?? null);
      return { status: 202, ...(await appended(services, record, outcome.events)) };
    },
  };

  const deliveries: ModuleRoute<{ limit?: number; offset?: number }> = {
    method: 'get',
    path: '/api/v1/webhooks/:id/deliveries',
    operation: 'listWebhookDeliveries',
    summary: "A webhook's delivery attempts, oldest first: status or error, and latency",
    tags,
    auth,
    role,
    params,
    query: paging,
    responses: {
      200: { description: 'A page of delivery attempts', schema: page(DeliverySchema) },
      404: envelope('No such webhook'),
    },
    async handle({ params: { id }, query }, services) {
      const record = await webhookOf(module, services, id as string);
      const { limit = module.list.defaultLimit, offset = 0 } = query;
      const filters = [{ field: 'webhook', op: 'eq' as const, value: record.id }];
      const found = await services.readStore.find(DELIVERIES_COLLECTION, { filters, limit, offset });
      const data = found.items.map((item) => JSON.parse(item) as unknown);
      return { status: 200, body: { data, meta: { total: found.total, limit, offset } } };
    },
  };

  return [create, list, get, remove, redeliver, deliveries] as ModuleRoute[];
}

/** What a webhook of the module is sent: one signed request per record change (Standard Webhooks). */
export function changeWebhook(module: ModuleDefinition): SentWebhook {
  const resources = module.resources.map((resource) => resource.path).join(', ');
  return {
    name: 'recordChange',
    summary: `One change of a record (${resources}), posted to each webhook registered for it`,
    description:
      'Sent at least once, in order per webhook, signed as the Standard Webhooks specification says; ' +
      'see docs/INTEGRATING.md for verifying it.',
    headers: z.object({
      'webhook-id': z
        .string()
        .meta({ description: 'The message id: the same on every attempt of one change' }),
      'webhook-timestamp': z.string().meta({ description: 'When this attempt was signed, in Unix seconds' }),
      'webhook-signature': z.string().meta({
        description:
          '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret',
      }),
    }),
    body: WebhookPayloadSchema,
  };
}

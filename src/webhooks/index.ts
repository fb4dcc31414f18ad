import type { Projector } from '../projections/projection';
import { webhookEvents } from './events';
import {
  deliveriesCollection,
  deliveriesProjection,
  webhooksCollection,
  webhooksProjection,
} from './projection';

const webhooksProjector: Projector = {
  name: 'webhooks',
  projections: [webhooksProjection, deliveriesProjection],
};

/**
 * Webhooks, a capability of the kit: the registrations, their deliveries and their ends (stream
 * category `webhooks`), their projector and read models.
 */
export const webhooksCapability = {
  id: 'webhooks',
  events: webhookEvents,
  projector: webhooksProjector,
  collections: [webhooksCollection, deliveriesCollection],
};

export {
  createWebhook,
  deleteWebhook,
  requestRedelivery,
  type WebhookRequest,
  type WebhookRules,
} from './commands';
export { DELIVER_JOB, WEBHOOK_QUEUE, webhookDeliverer, type DeliveryServices } from './delivery';
export { webhookDispatch, type WebhookDispatch } from './dispatch';
export { WEBHOOK_ID } from './events';
export {
  DELIVERIES_COLLECTION,
  WEBHOOKS_COLLECTION,
  webhooksProjection,
  type DeliveryRecord,
  type WebhookRecord,
} from './projection';
export { webhooksInLog } from './records';

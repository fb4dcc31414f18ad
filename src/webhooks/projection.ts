import type { StoredEvent } from '../events/envelope';
import type { DocumentProjection } from '../projections/projection';
import type { CollectionDefinition } from '../projections/read-store';
import type { WebhookStatus } from './decider';
import type { WebhookEvent, WebhookEventOf } from './events';

export const WEBHOOKS_COLLECTION = 'webhooks.webhooks';
export const DELIVERIES_COLLECTION = 'webhooks.deliveries';

/** A webhook as it is served: never its secret, which only its creation's answer shows. */
export type WebhookRecord = {
  id: string;
  module: string;
  url: string;
  resource: string | null;
  description: string | null;
  status: WebhookStatus;
  disabled_reason: string | null;
  created_at: string;
  /** The actor who registered it (`os:<user>` for `suite webhooks create`). */
  created_by: string;
  /** The cursor of the last change delivered; null: none yet. */
  delivered_up_to: string | null;
  /** When the change that failed is sent again; null: none is failing. */
  next_attempt_at: string | null;
};

export type DeliveryRecord = Omit<WebhookEventOf<'WebhookDeliveryAttempted'>['data'], 'id'> & {
  webhook: string;
};

export const webhooksCollection: CollectionDefinition = {
  name: WEBHOOKS_COLLECTION,
  idKind: 'string',
  searchFields: [],
  // A module lists its own; the deliverer looks for the active ones.
  filterFields: ['module', 'status'],
};

export const deliveriesCollection: CollectionDefinition = {
  name: DELIVERIES_COLLECTION,
  idKind: 'string',
  searchFields: [],
  filterFields: ['webhook'],
};

type Event = StoredEvent & WebhookEvent;

export const webhooksProjection: DocumentProjection<WebhookRecord> = {
  collection: WEBHOOKS_COLLECTION,
  handles: [
    'WebhookCreated',
    'WebhookDeliveryAttempted',
    'WebhookDisabled',
    'WebhookRedeliveryRequested',
    'WebhookDeleted',
  ],
  documentId: (event) => (event as Event).data.id,
  evolve(doc, stored) {
    const event = stored as Event;
    if (event.type === 'WebhookCreated') {
      const { id, module, url, resource, description } = event.data;
      return {
        id,
        module,
        url,
        resource,
        description,
        status: 'active',
        disabled_reason: null,
        created_at: event.metadata.occurred_at,
        created_by: event.metadata.actor,
        delivered_up_to: null,
        next_attempt_at: null,
      };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'WebhookDeliveryAttempted': {
        const { delivered, cursor, next_attempt_at } = event.data;
        return { ...doc, delivered_up_to: delivered ? cursor : doc.delivered_up_to, next_attempt_at };
      }
      case 'WebhookDisabled':
        return { ...doc, status: 'disabled', disabled_reason: event.data.reason, next_attempt_at: null };
      case 'WebhookRedeliveryRequested':
        return {
          ...doc,
          status: 'active',
          disabled_reason: null,
          delivered_up_to: event.data.after ?? doc.delivered_up_to,
          next_attempt_at: null,
        };
      case 'WebhookDeleted':
        return null;
    }
  },
};

/** A delivery's id orders a webhook's attempts as the log does. */
const deliveryId = (event: StoredEvent) =>
  `${(event as Event).data.id}.${String(event.position).padStart(16, '0')}`;

export const deliveriesProjection: DocumentProjection<DeliveryRecord> = {
  collection: DELIVERIES_COLLECTION,
  handles: ['WebhookDeliveryAttempted'],
  documentId: deliveryId,
  evolve(_doc, stored) {
    const { id, ...attempt } = (stored as StoredEvent & WebhookEventOf<'WebhookDeliveryAttempted'>).data;
    return { webhook: id, ...attempt };
  },
};

import type { EventStore } from '../events/event-store';
import { documentsInLog } from '../projections/documents-in-log';
import { webhooksProjection, type WebhookRecord } from './projection';

/** Every webhook's record, folded from the log (see `documentsInLog`). */
export async function webhooksInLog(eventStore: EventStore): Promise<WebhookRecord[]> {
  return [...(await documentsInLog(eventStore, 'webhooks', webhooksProjection)).values()];
}

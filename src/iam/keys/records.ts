import type { EventStore } from '../../events/event-store';
import { documentsInLog } from '../../projections/documents-in-log';
import { keysProjection, type KeyRecord } from './projection';

/** Every key's record, folded from the log (see `documentsInLog`). */
export async function keysInLog(eventStore: EventStore): Promise<KeyRecord[]> {
  return [...(await documentsInLog(eventStore, 'iam', keysProjection)).values()];
}

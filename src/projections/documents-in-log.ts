import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import type { DocumentProjection } from './projection';
import type { Document, DocumentId } from './read-store';
import { evolveStamped } from './stamped-evolve';

const PAGE = 1_000;

/**
 * Every document of a projection as its read model holds it, folded from the module's events in the
 * log: current even while no suite runs to project it (the CLI appends, it does not project).
 */
export async function documentsInLog<Doc extends Document>(
  eventStore: EventStore,
  module: string,
  projection: DocumentProjection<Doc>,
): Promise<Map<DocumentId, Doc>> {
  const documents = new Map<DocumentId, Doc>();
  for (let after = 0; ;) {
    const page = await eventStore.queryLog({ module, after, limit: PAGE });
    for (const event of page) {
      if (!projection.handles.includes(event.type)) continue;
      const id = projection.documentId(event);
      const doc = evolveStamped(projection, documents.get(id) ?? null, event);
      if (doc) documents.set(id, doc);
      else documents.delete(id);
    }
    if (page.length < PAGE) return documents;
    after = (page.at(-1) as StoredEvent).position;
  }
}

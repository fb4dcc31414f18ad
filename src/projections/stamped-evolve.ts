import type { StoredEvent } from '../events/envelope';
import type { DocumentProjection } from './projection';
import type { Document } from './read-store';

/**
 * When an event happened, as a document's times say it: when the log recorded it, or, for an event
 * recorded before the log kept that time, when it occurred.
 */
const stampOf = (event: StoredEvent) => event.metadata.recorded_at ?? event.metadata.occurred_at;

/**
 * The document a projection folds an event into, with the times every record carries: `created_at`
 * from the event that made the document (a projection's own `created_at` when it sets one first), and
 * `updated_at` from the latest event that changed it (one the projection folds into the same document,
 * unchanged, leaves it), unless the projection keeps its own (`ownUpdatedAt`). Every fold of a
 * projection's events goes through here: the runtime's, a record's history and time travel, a write's
 * answer, so each gives the same document. Folding the same events again (a rebuild, the refold after
 * an erasure) gives the same times.
 */
export function evolveStamped<Doc extends Document>(
  projection: DocumentProjection<Doc>,
  doc: Doc | null,
  event: StoredEvent,
): Doc | null {
  const next = projection.evolve(doc, event);
  if (next === null || next === doc) return next;
  const at = stampOf(event);
  return {
    ...next,
    created_at: doc?.created_at ?? next.created_at ?? at,
    updated_at: projection.ownUpdatedAt ? next.updated_at : at,
  };
}

import { streamNumber, type StoredEvent } from '../events/envelope';
import type { Document, DocumentId } from './read-store';

/**
 * A read model whose documents each follow one entity: the projection names the document an event
 * touches and folds the event into it. Returning `null` deletes the document.
 */
export interface DocumentProjection<Doc extends Document = Document> {
  collection: string;
  handles: readonly string[];
  documentId(event: StoredEvent): DocumentId;
  /**
   * The stream holding every event folded into a document, where one stream does (an entity's own):
   * its history, activity and time travel, and its fold again after an erasure, read that stream
   * alone instead of the module's events.
   */
  stream?: (id: DocumentId) => string;
  /**
   * Each document is made by one event and no other event folds into it (a comment, a stage change):
   * its fold again after an erasure or a parked event's retry is that event's alone.
   */
  writtenOnce?: true;
  /**
   * A method, not a function property: TypeScript then checks its parameter both ways, so a projection
   * of one document type is a `DocumentProjection` as it stands, in a projector or a write route. It is
   * sound because the store hands `evolve` only documents that this projection wrote.
   */
  evolve(doc: Doc | null, event: StoredEvent): Doc | null;
  /**
   * Its documents' `updated_at` is its own (in business time, as its records had it before every record
   * carried one), which `evolveStamped` leaves as it is; absent: stamped from each event that changes
   * the document.
   */
  ownUpdatedAt?: true;
}

/**
 * A projector groups a module's projections under one checkpoint. It is named after its module and
 * sees that module's events only: event types are named within their module.
 */
export interface Projector {
  name: string;
  /**
   * Bumped when what its projections make of the events changes: its read models are then rebuilt
   * from the log at the next start (see `read-model-definitions.ts`). Absent: 1.
   */
  version?: number;
  projections: readonly DocumentProjection[];
}

/** The document id of an entity that has a numbered stream of its own (`ppm.risk-42` -> 42). */
export const idFromStream = (event: StoredEvent): number => streamNumber(event.stream) as number;

/**
 * Projections of records written once, by the event that creates them in the record's own numbered
 * stream, typed by one module's events: `const createdBy = createdByOf<StoredEvent & CmsEvent>();`
 */
export function createdByOf<Event extends StoredEvent>() {
  return <Type extends Event['type'], Doc extends Document>(
    collection: string,
    type: Type,
    stream: (id: number) => string,
    toRecord: (event: Extract<Event, { type: Type }>) => Doc,
  ): DocumentProjection<Doc> => ({
    collection,
    handles: [type],
    documentId: idFromStream,
    stream: (id) => stream(Number(id)),
    evolve: (_doc, event) => toRecord(event as Extract<Event, { type: Type }>),
  });
}

import { readAllUntil, type EventStore } from '../events/event-store';
import { streamModule, type StoredEvent } from '../events/envelope';
import { parkedEvent, parking, type ParkedEvent } from './parked-events';
import type { DocumentProjection, Projector } from './projection';
import type { Document, DocumentChange, DocumentId, ReadStore } from './read-store';
import { evolveStamped } from './stamped-evolve';
import { MAX_LINKS, tracing } from '../telemetry/tracing';

/**
 * Events applied per read-store commit when catching up. Large: the FTS index costs less per
 * document in fewer, bigger commits (a rebuild spends most of its time committing). Rebuilding 1M
 * events in batches of 20,000 took 13.6 s; of 50,000, 12.1 s, with the peak RSS 443 MB -> 521 MB.
 */
export const BATCH_SIZE = 50_000;
/**
 * Events read and folded at a time within a batch. Small, so that a page's events die young: read
 * 20,000 at a time, they outlived V8's young generation and were copied twice on their way to the old
 * one (folding a 1M-event log took 9.4 s, 6.3 s in pages of 2,000).
 */
const PAGE_SIZE = 2_000;

/** The last state of documents, by collection and id (`null`: deleted, or none yet). */
export type Documents = Map<string, Map<DocumentId, Document | null>>;

export interface FoldedBatch {
  /** The position of the last event folded. */
  last: number;
  /** The last state of every document the batch loaded or touched. */
  documents: Documents;
  /** The ids of the documents the batch changed, by collection. */
  touched: Map<string, Set<DocumentId>>;
  /** The events the batch's projections could not apply. */
  parked: ParkedEvent[];
  /** Events read, and when the batch began (milliseconds since the epoch). */
  events: number;
  startedAt: number;
  /** The first trace contexts the events were appended in (up to as many as a span links), when the process traces. */
  traceparents: Set<string>;
}

/** How a document is named among the runtime's suspects (see `FoldContext.suspects`). */
export const documentKey = (collection: string, id: DocumentId) => `${collection}\u0000${id}`;

export interface FoldContext {
  /** The log as stored. */
  eventStore: EventStore;
  readStore: ReadStore;
  projectors: readonly Projector[];
  /** How far each projector is: an event at or behind its projector's checkpoint is skipped. */
  checkpoints: ReadonlyMap<string, number>;
  /**
   * Documents a commit failed on because the store could not store them (`documentKey`): after each
   * event, the store is asked whether such a document still can be, and the event that made it
   * unstorable is parked.
   */
  suspects: ReadonlySet<string>;
  upcast(event: StoredEvent): StoredEvent;
  onParked?(parked: ParkedEvent): void;
}

/**
 * Reads and folds up to a batch of events after `after` into the last state of each document they
 * touch; an event a projection cannot apply is parked instead. `unwritten` holds the documents of the
 * batch before, whose commit may still be under way: their state there wins over the store's.
 */
export function batchFolder(context: FoldContext) {
  const { eventStore, readStore, checkpoints, suspects, upcast, onParked } = context;
  const handlersByModule = handlersOf(context.projectors);

  function park(batch: FoldedBatch, projection: DocumentProjection, event: StoredEvent, error: unknown) {
    const record = parkedEvent(projection.collection, event, error);
    batch.parked.push(record);
    onParked?.(record);
  }

  async function foldPage(events: StoredEvent[], batch: FoldedBatch, unwritten: Documents): Promise<void> {
    // First which documents the page touches, to load those the batch does not hold yet with one call
    // per collection; then the events are folded in order without waiting on the store.
    const steps: { projection: DocumentProjection; event: StoredEvent; id: DocumentId }[] = [];
    const wanted = new Map<string, Set<DocumentId>>();
    for (const stored of events) {
      const module = streamModule(stored.stream);
      const handlers = handlersByModule.get(module)?.get(stored.type);
      if (!handlers || stored.position <= (checkpoints.get(module) ?? 0)) continue;
      let event: StoredEvent;
      try {
        event = upcast(stored);
      } catch (error) {
        for (const projection of handlers) park(batch, projection, stored, error);
        continue;
      }
      for (const projection of handlers) {
        let id: DocumentId;
        try {
          id = projection.documentId(event);
        } catch (error) {
          park(batch, projection, event, error);
          continue;
        }
        steps.push({ projection, event, id });
        if (batch.documents.get(projection.collection)?.has(id)) continue;
        let ids = wanted.get(projection.collection);
        if (!ids) wanted.set(projection.collection, (ids = new Set()));
        ids.add(id);
      }
    }
    for (const [collection, ids] of wanted) {
      let docs = batch.documents.get(collection);
      if (!docs) batch.documents.set(collection, (docs = new Map()));
      const pending = unwritten.get(collection);
      const stored = await readStore.load(
        collection,
        [...ids].filter((id) => !pending?.has(id)),
      );
      for (const id of ids)
        docs.set(id, pending?.has(id) ? (pending.get(id) ?? null) : (stored.get(id) ?? null));
    }

    for (const { projection, event, id } of steps) {
      const { collection } = projection;
      const docs = batch.documents.get(collection) as Map<DocumentId, Document | null>;
      let doc: Document | null;
      try {
        doc = evolveStamped(projection, docs.get(id) ?? null, event);
        if (doc && suspects.size > 0 && suspects.has(documentKey(collection, id))) {
          readStore.checkStorable(collection, id, doc);
        }
      } catch (error) {
        park(batch, projection, event, error);
        continue;
      }
      docs.set(id, doc);
      let touched = batch.touched.get(collection);
      if (!touched) batch.touched.set(collection, (touched = new Set()));
      touched.add(id);
    }
  }

  // A store that bounds its commits (`maxCommitChanges`) gets batches of about that many changes: pages
  // no larger, and no further page once a batch holds as many.
  const maxChanges = readStore.maxCommitChanges ?? Infinity;
  const pageSize = Math.min(PAGE_SIZE, maxChanges);

  return async function foldBatch(after: number, until: number, unwritten: Documents): Promise<FoldedBatch> {
    const batch: FoldedBatch = {
      last: after,
      documents: new Map(),
      touched: new Map(),
      parked: [],
      events: 0,
      startedAt: Date.now(),
      traceparents: new Set(),
    };
    const traced = tracing() !== undefined;
    for (let read = 0; read < BATCH_SIZE && changeCount(batch) < maxChanges;) {
      const asked = Math.min(pageSize, BATCH_SIZE - read);
      const events = await readAllUntil(eventStore, batch.last, asked, until);
      if (events.length === 0) break;
      await foldPage(events, batch, unwritten);
      read += events.length;
      batch.events += events.length;
      if (traced) noteTraces(batch.traceparents, events);
      batch.last = (events[events.length - 1] as StoredEvent).position;
      // A short page is the head (or `until`): a live write's batch ends without another read.
      if (events.length < asked) break;
    }
    return batch;
  };
}

function noteTraces(traceparents: Set<string>, events: readonly StoredEvent[]): void {
  for (const { metadata } of events) {
    if (traceparents.size > MAX_LINKS) return;
    if (metadata.traceparent !== undefined) traceparents.add(metadata.traceparent);
  }
}

/** By projector name (its module's, which an event's stream names): its projections by event type. */
function handlersOf(projectors: readonly Projector[]): Map<string, Map<string, DocumentProjection[]>> {
  return new Map(
    projectors.map((projector) => {
      const byType = new Map<string, DocumentProjection[]>();
      for (const projection of projector.projections) {
        for (const type of projection.handles) byType.set(type, [...(byType.get(type) ?? []), projection]);
      }
      return [projector.name, byType];
    }),
  );
}

/** How many changes the batch's commit carries (`changesOf`). */
function changeCount({ touched, parked }: FoldedBatch): number {
  let count = parked.length;
  for (const ids of touched.values()) count += ids.size;
  return count;
}

/** Only the last state of each document is written, and the events parked on the way. */
export function changesOf({ touched, documents, parked }: FoldedBatch): DocumentChange[] {
  return [
    ...[...touched].flatMap(([collection, ids]) =>
      [...ids].map((id) => ({ collection, id, doc: documents.get(collection)?.get(id) ?? null })),
    ),
    ...parked.map(parking),
  ];
}

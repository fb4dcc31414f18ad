import { evolveStamped } from './stamped-evolve';
import { streamModule, type StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import {
  listParkedEvents,
  parkedEvent,
  parkedId,
  parking,
  unparking,
  type ParkedEvent,
} from './parked-events';
import type { DocumentProjection, Projector } from './projection';
import type { Document, DocumentChange, DocumentId, ReadStore } from './read-store';

export interface RetryOutcome {
  /** The parked events that were retried. */
  retried: number;
  /** Those that applied this time, and are no longer parked. */
  applied: ParkedEvent[];
  /** What is parked of the documents folded again: the events that still fail, with their new error. */
  stillParked: ParkedEvent[];
}

export interface RetryContext {
  /** The log as stored. */
  eventStore: EventStore;
  readStore: ReadStore;
  projectors: readonly Projector[];
  /** How far each projector is: documents are folded again up to there. */
  checkpoints: ReadonlyMap<string, number>;
  upcast(event: StoredEvent): StoredEvent;
}

const PAGE = 1_000;

async function allParked(readStore: ReadStore): Promise<Map<string, ParkedEvent>> {
  const all = new Map<string, ParkedEvent>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await listParkedEvents(readStore, { limit: PAGE, offset });
    for (const parked of page.items) all.set(parked.id, parked);
    if (offset + PAGE >= page.total) return all;
  }
}

/** The documents to fold again, each with the event that named it, by collection. */
type WantedDocuments = Map<DocumentProjection, Map<DocumentId, StoredEvent>>;
/** The documents to fold again, by projector. */
type Wanted = Map<Projector, WantedDocuments>;

function want(
  wanted: Wanted,
  projector: Projector,
  projection: DocumentProjection,
  id: DocumentId,
  namedBy: StoredEvent,
): void {
  let byProjection = wanted.get(projector);
  if (!byProjection) wanted.set(projector, (byProjection = new Map()));
  let ids = byProjection.get(projection);
  if (!ids) byProjection.set(projection, (ids = new Map()));
  if (!ids.has(id)) ids.set(id, namedBy);
}

/**
 * Folds each document a parked event touches again from the log, as a rebuild would (in log order, up
 * to its projector's checkpoint), with the projections as they are now: the events that apply leave
 * the parked ones; those that still fail stay, with their new error. One commit per projector.
 */
export async function retryParkedEvents(context: RetryContext, position?: number): Promise<RetryOutcome> {
  const { eventStore, readStore, projectors, checkpoints, upcast } = context;
  const parked = await allParked(readStore);
  const chosen = [...parked.values()].filter(
    (entry) => position === undefined || entry.position === position,
  );
  const wanted: Wanted = new Map();
  const unresolved: ParkedEvent[] = [];
  const refreshed: DocumentChange[] = [];

  for (const entry of chosen) {
    const projector = projectors.find((candidate) =>
      candidate.projections.some((projection) => projection.collection === entry.projection),
    );
    const projection = projector?.projections.find((candidate) => candidate.collection === entry.projection);
    const stored = await eventStore.eventAt(entry.position);
    if (!projector || !projection || !stored) {
      unresolved.push(entry);
      continue;
    }
    try {
      want(wanted, projector, projection, projection.documentId(upcast(stored)), stored);
    } catch (error) {
      const again = parkedEvent(projection.collection, stored, error);
      unresolved.push(again);
      refreshed.push(parking(again));
    }
  }

  const applied: ParkedEvent[] = [];
  const stillParked: ParkedEvent[] = [...unresolved];
  if (refreshed.length > 0) await readStore.commit(refreshed, new Map());
  for (const [projector, byProjection] of wanted) {
    const folded = await foldAgain(context, projector, byProjection, checkpoints.get(projector.name) ?? 0);
    const changes: DocumentChange[] = [...folded.documents];
    for (const [id, failure] of folded.failures) {
      stillParked.push(failure);
      changes.push(parking(failure));
      parked.delete(id);
    }
    for (const id of folded.applied) {
      const was = parked.get(id);
      if (!was) continue;
      applied.push(was);
      changes.push(unparking(id));
    }
    await readStore.commit(changes, new Map());
  }
  return { retried: chosen.length, applied, stillParked };
}

/**
 * Folds again, from the log, every document the events at `positions` went into: after an erasure,
 * the documents that held the subject's personal data, which the log now reads as erased. One commit
 * per projector; an event that fails now is parked, as on any fold.
 */
export async function refoldDocumentsOf(context: RetryContext, positions: readonly number[]): Promise<void> {
  const { eventStore, readStore, projectors, checkpoints, upcast } = context;
  const wanted: Wanted = new Map();
  for (const position of positions) {
    const stored = await eventStore.eventAt(position);
    const projector =
      stored && projectors.find((candidate) => candidate.name === streamModule(stored.stream));
    if (!stored || !projector) continue;
    for (const projection of projector.projections) {
      if (!projection.handles.includes(stored.type)) continue;
      try {
        want(wanted, projector, projection, projection.documentId(upcast(stored)), stored);
      } catch {
        // An event its projection cannot place is parked already; there is no document to fold again.
      }
    }
  }
  for (const [projector, byProjection] of wanted) {
    const folded = await foldAgain(context, projector, byProjection, checkpoints.get(projector.name) ?? 0);
    await readStore.commit([...folded.documents, ...[...folded.failures.values()].map(parking)], new Map());
  }
}

interface Refolded {
  documents: DocumentChange[];
  /** The parked ids of the events that applied. */
  applied: string[];
  /** The events that failed, by parked id. */
  failures: Map<string, ParkedEvent>;
}

/**
 * Where a document's events are read from to fold it again: the event that named it, its own stream,
 * or its module's events.
 */
type FoldSource = 'event' | 'stream' | 'module';
const sourceOf = (projection: DocumentProjection): FoldSource =>
  projection.writtenOnce ? 'event' : projection.stream ? 'stream' : 'module';

/**
 * Folds the wanted documents of one projector from nothing, over their events up to `until`: a
 * document written once from the event that named it, one of an entity's own stream from that stream
 * alone, the others from the module's events.
 */
async function foldAgain(
  { eventStore, readStore, upcast }: RetryContext,
  projector: Projector,
  byProjection: WantedDocuments,
  until: number,
): Promise<Refolded> {
  const docs = new Map<DocumentProjection, Map<DocumentId, Document | null>>(
    [...byProjection].map(([projection, ids]) => [
      projection,
      new Map([...ids.keys()].map((id) => [id, null])),
    ]),
  );
  const applied: string[] = [];
  const failures = new Map<string, ParkedEvent>();
  function fold(stored: StoredEvent, into: readonly DocumentProjection[]): void {
    for (const projection of into) {
      if (!projection.handles.includes(stored.type)) continue;
      const folding = docs.get(projection) as Map<DocumentId, Document | null>;
      const id = parkedId(projection.collection, stored.position);
      try {
        const event = upcast(stored);
        const documentId = projection.documentId(event);
        if (!folding.has(documentId)) continue;
        const doc = evolveStamped(projection, folding.get(documentId) ?? null, event);
        if (doc) readStore.checkStorable(projection.collection, documentId, doc);
        folding.set(documentId, doc);
        applied.push(id);
      } catch (error) {
        failures.set(id, parkedEvent(projection.collection, stored, error));
      }
    }
  }

  const from = (source: FoldSource) =>
    [...docs.keys()].filter((projection) => sourceOf(projection) === source);
  for (const projection of from('event')) {
    for (const namedBy of byProjection.get(projection)?.values() ?? []) {
      if (namedBy.position <= until) fold(namedBy, [projection]);
    }
  }
  const ownStreams = from('stream');
  const streams = new Set<string>();
  for (const [projection, ids] of byProjection) {
    const { stream } = projection;
    if (sourceOf(projection) === 'stream' && stream) for (const id of ids.keys()) streams.add(stream(id));
  }
  for (const stream of streams) {
    for (const stored of await eventStore.readStream(stream)) {
      if (stored.position > until) break;
      fold(stored, ownStreams);
    }
  }
  const inModule = from('module');
  for (let after = 0; inModule.length > 0 && after < until;) {
    const page = await eventStore.queryLog({ module: projector.name, after, until, limit: PAGE });
    for (const stored of page) {
      if (streamModule(stored.stream) === projector.name) fold(stored, inModule);
    }
    if (page.length < PAGE) break;
    after = (page[page.length - 1] as StoredEvent).position;
  }
  const documents = [...docs].flatMap(([projection, folding]) =>
    [...folding].map(([id, doc]) => ({ collection: projection.collection, id, doc })),
  );
  return { documents, applied, failures };
}

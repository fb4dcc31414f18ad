import { PROPOSALS_COLLECTION, proposalStream } from '../approvals';
import { upcast, type SuiteCatalog } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import { withErasures } from '../privacy/erasures-in-history';
import type { DocumentProjection } from '../projections/projection';
import { evolveStamped } from '../projections/stamped-evolve';
import type { Document, DocumentId, ReadStore } from '../projections/read-store';

/** More proposals than any record gathers; a history shows the latest this many. */
const MOST_PROPOSALS = 500;
const PAGE = 2000;

/** One record of a module's read model, and where its events are. */
export interface RecordRef {
  module: string;
  /** The projection that folds the record's events into it. */
  projection: DocumentProjection;
  id: DocumentId;
  /** What the module calls one record (`Request`). */
  name: string;
  /** How a proposal about the record names it (`esm requests/42`). */
  target: string;
}

/** What a record's history is gathered from. */
export interface HistorySources {
  /** The log the events are read from (opened, or as stored). */
  events: EventStore;
  /** The log as stored: the subjects whose data the events hold are named by their sealed values. */
  storedEvents: EventStore;
  readStore: ReadStore;
  catalog: SuiteCatalog;
}

/** The document an event belongs to; none when the projection cannot tell (a parked event). */
export function documentIdOf(
  catalog: SuiteCatalog,
  projection: DocumentProjection,
  event: StoredEvent,
): DocumentId | undefined {
  try {
    return projection.documentId(upcast(catalog, event));
  } catch {
    return undefined;
  }
}

/** The events the record's projection folds into it, in log order. */
export async function recordEvents(
  { events, catalog }: Pick<HistorySources, 'events' | 'catalog'>,
  record: RecordRef,
): Promise<StoredEvent[]> {
  const { module, projection, id } = record;
  if (projection.stream) return events.readStream(projection.stream(id));
  const found: StoredEvent[] = [];
  for (let after = 0; ;) {
    const page = await events.queryLog({ module, after, limit: PAGE });
    if (page.length === 0) return found;
    for (const event of page) {
      if (!projection.handles.includes(event.type)) continue;
      if (String(documentIdOf(catalog, projection, event)) === String(id)) found.push(event);
    }
    after = (page[page.length - 1] as StoredEvent).position;
  }
}

/**
 * Every event of the proposals about the record: those its changes were applied in, and those that
 * named it (`target`) and ended otherwise (rejected, expired, withdrawn, failed, or still waiting).
 */
async function proposalEvents(
  { events, readStore }: Pick<HistorySources, 'events' | 'readStore'>,
  own: readonly StoredEvent[],
  target: string,
): Promise<StoredEvent[]> {
  const filters = [{ field: 'target', op: 'eq' as const, value: target }];
  const named = await readStore.find(PROPOSALS_COLLECTION, { filters, limit: MOST_PROPOSALS, offset: 0 });
  const proposals = new Set([
    ...own.flatMap((event) => event.metadata.proposal_id ?? []),
    ...named.items.map((item) => (JSON.parse(item) as { id: string }).id),
  ]);
  const read = await Promise.all([...proposals].map((id) => events.readStream(proposalStream(id))));
  return read.flat();
}

/**
 * A record's story, in log order: its own events, every event of the proposals about it, each with its
 * people (`metadata.person`) and reason, and the erasures (`SubjectErased`) of the subjects whose
 * personal data they hold, so that "[erased]" is never read as "never set". Empty: no such record.
 */
export async function recordStory(sources: HistorySources, record: RecordRef): Promise<StoredEvent[]> {
  const own = await recordEvents(sources, record);
  if (own.length === 0) return [];
  const withProposals = [...own, ...(await proposalEvents(sources, own, record.target))];
  return withErasures(
    sources.storedEvents,
    withProposals.sort((a, b) => a.position - b.position),
  );
}

/** One event of a story and the record as it was after it; `error` where the projection could not apply it. */
export interface HistoryStep {
  event: StoredEvent;
  record: Document | null;
  error?: string;
}

/**
 * The record folded by its projection, event by event. An event the projection cannot apply (a parked
 * one) keeps its error, and the record stays as it was.
 */
export function foldedSteps(
  catalog: SuiteCatalog,
  projection: DocumentProjection,
  story: readonly StoredEvent[],
): HistoryStep[] {
  let record: Document | null = null;
  return story.map((event) => {
    try {
      const current = upcast(catalog, event);
      if (projection.handles.includes(current.type)) record = evolveStamped(projection, record, current);
      return { event, record };
    } catch (error) {
      return { event, record, error: error instanceof Error ? error.message : String(error) };
    }
  });
}

/**
 * A point in the log's two clocks: the events up to `position` (what had been recorded by then), and
 * of those, with `validAt`, the ones that occurred at or before it (what was true then, as known then).
 */
export interface LogCut {
  position: number;
  validAt?: Date;
}

export function withinCut(cut: LogCut, event: StoredEvent): boolean {
  return (
    event.position <= cut.position &&
    (cut.validAt === undefined || Date.parse(event.metadata.occurred_at) <= cut.validAt.getTime())
  );
}

/** A record as of a cut, and the position of the last event folded into it. */
export interface RecordAsOf {
  record: Document;
  position: number;
}

/**
 * The record folded by its projection from its events within the cut; null when it did not exist
 * then (no event within the cut, or folded to none).
 */
export async function recordAsOf(
  sources: Pick<HistorySources, 'events' | 'catalog'>,
  record: RecordRef,
  cut: LogCut,
): Promise<RecordAsOf | null> {
  const events = (await recordEvents(sources, record)).filter((event) => withinCut(cut, event));
  const last = foldedSteps(sources.catalog, record.projection, events).at(-1);
  return last?.record ? { record: last.record, position: last.event.position } : null;
}

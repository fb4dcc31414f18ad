import type { StoredEvent } from '../events/envelope';
import type { CollectionDefinition, DocumentChange, ReadStore } from './read-store';

/**
 * Events a projection could not apply, kept with the read models they belong to (dead letters, as
 * Marten's and EventStoreDB's parked messages): written in the same commit as the projection's
 * checkpoint, dropped by a rebuild (which parks again what still fails), and retried by command.
 */
export const PARKED_EVENTS: CollectionDefinition = {
  name: 'projections.parked',
  idKind: 'string',
  searchFields: [],
  filterFields: ['position'],
};

export interface ParkedEvent {
  /** `<position>:<projection>`, the position zero-padded so that ids sort in log order. */
  id: string;
  /** The read model (collection) whose projection could not apply the event. */
  projection: string;
  position: number;
  event_id: string;
  stream: string;
  type: string;
  /** What the projection ran into. */
  error: string;
}

/** The longest error text kept with a parked event. */
const ERROR_LENGTH = 500;

export const parkedId = (projection: string, position: number): string =>
  `${String(position).padStart(16, '0')}:${projection}`;

/** The record of an event a projection could not apply, and why. */
export function parkedEvent(projection: string, event: StoredEvent, error: unknown): ParkedEvent {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    id: parkedId(projection, event.position),
    projection,
    position: event.position,
    event_id: event.event_id,
    stream: event.stream,
    type: event.type,
    error: text.length > ERROR_LENGTH ? `${text.slice(0, ERROR_LENGTH)}…` : text,
  };
}

/** The change that parks an event. */
export const parking = (parked: ParkedEvent): DocumentChange => ({
  collection: PARKED_EVENTS.name,
  id: parked.id,
  doc: { ...parked },
});

/** The change that takes an event out of the parked ones (it applied on a retry). */
export const unparking = (id: string): DocumentChange => ({ collection: PARKED_EVENTS.name, id, doc: null });

/** A page of the parked events in log order (only those at `position`, when given), with their total. */
export async function listParkedEvents(
  readStore: ReadStore,
  page: { limit: number; offset: number; position?: number },
): Promise<{ total: number; items: ParkedEvent[] }> {
  const filters =
    page.position === undefined ? [] : [{ field: 'position', op: 'eq' as const, value: page.position }];
  const found = await readStore.find(PARKED_EVENTS.name, { filters, limit: page.limit, offset: page.offset });
  return { total: found.total, items: found.items.map((item) => JSON.parse(item) as ParkedEvent) };
}

import { readAllUntil, type EventStore } from '../events/event-store';
import type { StoredEvent } from '../events/envelope';

const PAGE = 2000;

/** The position of the last event that occurred at or before `time` (0 when none did). */
export async function positionAt(store: EventStore, time: string): Promise<number> {
  let last = 0;
  for (let after = 0; ;) {
    const page = await store.readAll({ after, limit: PAGE });
    if (page.length === 0) return last;
    for (const event of page) if (event.metadata.occurred_at <= time) last = event.position;
    after = (page[page.length - 1] as StoredEvent).position;
  }
}

/**
 * Copies the log up to `until` into an empty store, event by event in position order, with the same
 * ids, revisions and metadata: the copy's hash chains are the original's.
 */
export async function copyLog(
  from: EventStore,
  to: EventStore,
  until: number,
  onProgress?: (position: number) => void,
): Promise<void> {
  if ((await to.headPosition()) > 0) throw new Error('The target store already holds events');
  for (let after = 0; ;) {
    const page = await readAllUntil(from, after, PAGE, until);
    if (page.length === 0) break;
    await Promise.all(
      page.map((event) =>
        to.append(
          event.stream,
          [{ type: event.type, data: event.data, schema_version: event.schema_version }],
          {
            expectedRevision: event.revision === 0 ? 'no_stream' : event.revision - 1,
            metadata: event.metadata,
            eventIds: [event.event_id],
          },
        ),
      ),
    );
    after = (page[page.length - 1] as StoredEvent).position;
    onProgress?.(after);
  }
}

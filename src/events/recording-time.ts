import type { EventMetadata, StoredEvent } from './envelope';
import type { AppendOptions, EventStore } from './event-store';

/**
 * The time, in milliseconds, an event was recorded at. Events recorded before the log kept the time
 * carry none: they count as recorded before the first event that does.
 */
export function recordedTime(event: Pick<StoredEvent, 'metadata'>): number {
  const recorded = event.metadata.recorded_at;
  return recorded === undefined ? -Infinity : Date.parse(recorded);
}

/**
 * The metadata an append is stored with: its recording time is the time it already carries (a copy of
 * a log keeps its original's), or now; never earlier than the log's `last`, so that recording times
 * increase in log order. A copy of an event recorded before the log kept the time stays without one,
 * so that its hash is its original's.
 */
export function withRecordingTime(
  { metadata, copy }: Pick<AppendOptions, 'metadata' | 'copy'>,
  now: Date,
  last: string | undefined,
): EventMetadata {
  if (copy && metadata.recorded_at === undefined) return metadata;
  const recorded = metadata.recorded_at ?? now.toISOString();
  const recorded_at = last !== undefined && Date.parse(last) > Date.parse(recorded) ? last : recorded;
  return { ...metadata, recorded_at };
}

const PAGE = 1000;

/**
 * The last position P such that every event up to P was recorded at or before `time` (0 when none
 * was): what the suite had recorded by then. Recording times increase in log order, so a binary search
 * over the positions finds it, an event read at each step. Where positions are not dense (an
 * EventStoreDB log's are offsets) and a step lands between events, the rest is read in order.
 */
export async function positionRecordedBy(
  store: Pick<EventStore, 'eventAt' | 'headPosition' | 'readAll'>,
  time: Date,
): Promise<number> {
  const by = time.getTime();
  // Invariant: every event up to `low` was recorded by `time`; the first one after `high` was not.
  let low = 0;
  let high = await store.headPosition();
  while (low < high) {
    const middle = Math.floor((low + high + 1) / 2);
    const event = await store.eventAt(middle);
    if (event === null) return lastRecordedFrom(store, low, high, by);
    if (recordedTime(event) > by) high = middle - 1;
    else low = middle;
  }
  return low;
}

/** Reads on from `low` (an event's position, or 0) until an event recorded after `by`, or past `high`. */
async function lastRecordedFrom(
  store: Pick<EventStore, 'readAll'>,
  low: number,
  high: number,
  by: number,
): Promise<number> {
  let last = low;
  for (;;) {
    const page = await store.readAll({ after: last, limit: PAGE });
    for (const event of page) {
      if (event.position > high || recordedTime(event) > by) return last;
      last = event.position;
    }
    if (page.length < PAGE) return last;
  }
}

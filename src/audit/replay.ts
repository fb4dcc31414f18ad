import { readAllUntil, type EventStore } from '../events/event-store';
import type { StoredEvent } from '../events/envelope';

const PAGE = 2000;

/**
 * Where a copy of the log stops. `until`: a position (every event up to it). `validUntil`: business
 * time, the events that occurred at or before it, in log order; a stream's hash chain cannot skip an
 * event, so each stream is copied up to, not including, its first event that occurred after it.
 * `since`: a window, the streams with an event after this position (and up to the cut), each copied
 * from its first event, so that the copy costs the window's records, not the log.
 */
export type ReplayCut = ({ until: number } | { validUntil: string }) & { since?: number };

/** What a copy holds: how many events, and the source position of the last. */
export interface CopiedLog {
  copied: number;
  position: number;
}

/** Keeps the events a business-time cut takes, in log order. */
function validUntil(time: string): (event: StoredEvent) => boolean {
  const by = Date.parse(time);
  const stopped = new Set<string>();
  return (event) => {
    if (stopped.has(event.stream)) return false;
    if (Date.parse(event.metadata.occurred_at) <= by) return true;
    stopped.add(event.stream);
    return false;
  };
}

/**
 * Copies the log up to the cut into an empty store, event by event in position order, with the same
 * ids, revisions and metadata: the copy's hash chains are the original's.
 */
export async function copyLog(
  from: EventStore,
  to: EventStore,
  cut: ReplayCut,
  onProgress?: (position: number) => void,
): Promise<CopiedLog> {
  if ((await to.headPosition()) > 0) throw new Error('The target store already holds events');
  const until = 'until' in cut ? cut.until : Infinity;
  const taken = 'validUntil' in cut ? validUntil(cut.validUntil) : () => true;
  const copiedLog: CopiedLog = { copied: 0, position: 0 };
  const pages = cut.since === undefined ? logPages(from, 0, until) : windowPages(from, cut.since, until);
  for await (const page of pages) {
    const copied = page.filter(taken);
    await Promise.all(
      copied.map((event) =>
        to.append(
          event.stream,
          [{ type: event.type, data: event.data, schema_version: event.schema_version }],
          {
            expectedRevision: event.revision === 0 ? 'no_stream' : event.revision - 1,
            metadata: event.metadata,
            eventIds: [event.event_id],
            copy: true,
          },
        ),
      ),
    );
    copiedLog.copied += copied.length;
    copiedLog.position = copied.at(-1)?.position ?? copiedLog.position;
    onProgress?.((page.at(-1) as StoredEvent).position);
  }
  return copiedLog;
}

/** The log after `since` up to `until`, a page at a time. */
async function* logPages(from: EventStore, since: number, until: number): AsyncGenerator<StoredEvent[]> {
  for (let after = since; ;) {
    const page = await readAllUntil(from, after, PAGE, until);
    if (page.length === 0) return;
    yield page;
    after = (page.at(-1) as StoredEvent).position;
  }
}

/**
 * The events, up to `until`, of the streams with an event after `since`, in log order: the window is
 * read to name the streams, then each stream is read whole (its earlier events fold into its records
 * and carry its hash chain). Held in memory: a window is the recent work, not the log.
 */
async function* windowPages(from: EventStore, since: number, until: number): AsyncGenerator<StoredEvent[]> {
  const streams = new Set<string>();
  for await (const page of logPages(from, since, until)) {
    for (const event of page) streams.add(event.stream);
  }
  const events: StoredEvent[] = [];
  for (const stream of streams) {
    events.push(...(await from.readStream(stream)).filter((event) => event.position <= until));
  }
  events.sort((a, b) => a.position - b.position);
  for (let start = 0; start < events.length; start += PAGE) yield events.slice(start, start + PAGE);
}

import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';

const PAGE = 2000;

/**
 * A log's events in business-time order: by `occurred_at`, never before an earlier event of their own
 * stream (a stream's order is its hash chain's), and otherwise in the order they were written. Each
 * with the time it is recorded at in that order.
 */
function inBusinessTimeOrder(events: readonly StoredEvent[]): { event: StoredEvent; at: number }[] {
  const streamTime = new Map<string, number>();
  const timed = events.map((event) => {
    const at = Math.max(Date.parse(event.metadata.occurred_at), streamTime.get(event.stream) ?? -Infinity);
    streamTime.set(event.stream, at);
    return { event, at };
  });
  // A stable sort: events of one time keep the order they were written in.
  return timed.sort((a, b) => a.at - b.at);
}

/**
 * Copies a log written story by story (the demo data, module after module) into an empty one in
 * business-time order, each event recorded (`recorded_at`) at its time: a log as a suite that recorded
 * things as they happened would hold. Ids, revisions and data are the original's; hashes are the
 * copy's own (its recording times are).
 */
export async function copyInBusinessTimeOrder(from: EventStore, to: EventStore): Promise<void> {
  const events: StoredEvent[] = [];
  for (let after = 0; ;) {
    const page = await from.readAll({ after, limit: PAGE });
    if (page.length === 0) break;
    events.push(...page);
    after = (page[page.length - 1] as StoredEvent).position;
  }
  const ordered = inBusinessTimeOrder(events);
  for (let start = 0; start < ordered.length; start += PAGE) {
    await Promise.all(
      ordered.slice(start, start + PAGE).map(({ event, at }) =>
        to.append(
          event.stream,
          [{ type: event.type, data: event.data, schema_version: event.schema_version }],
          {
            expectedRevision: event.revision === 0 ? 'no_stream' : event.revision - 1,
            metadata: { ...event.metadata, recorded_at: new Date(at).toISOString() },
            eventIds: [event.event_id],
            copy: true,
          },
        ),
      ),
    );
  }
}

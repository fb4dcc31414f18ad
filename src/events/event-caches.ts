import type { StoredEvent } from './envelope';

/**
 * The newest events of the log in position order, so that feed readers that follow the head (the
 * projection runtime, job triggers, the relay) get what was just committed without reading it back
 * from disk. Only an unbroken run of positions is kept: an event that does not follow the last one
 * (another process wrote in between) starts the run again.
 */
export function recentEvents(limit: number) {
  let run: StoredEvent[] = [];
  return {
    remember(events: readonly StoredEvent[]): void {
      for (const event of events) {
        const last = run[run.length - 1];
        if (last && event.position !== last.position + 1) run = [];
        run.push(event);
      }
      if (run.length > limit) run = run.slice(run.length - limit);
    },
    /** The events after `after`, when the run holds every one of them up to `head`; else undefined. */
    after(after: number, count: number, head: number): StoredEvent[] | undefined {
      const first = run[0];
      const last = run[run.length - 1];
      if (!first || !last || last.position !== head || after < first.position - 1) return undefined;
      const start = after - first.position + 1;
      return run.slice(start, start + count);
    },
  };
}

/**
 * The events of recently read or written streams, so a decider reading a stream again (the service
 * behind every new request) does not parse it from disk again. A read to the head checks an entry
 * against the stream's head revision first, so other processes' appends are never missed; a read up to
 * a revision the entry holds needs no check, since written events never change.
 */
export function streamCache(limit: number) {
  const streams = new Map<string, StoredEvent[]>();
  return {
    get(stream: string): StoredEvent[] | undefined {
      const events = streams.get(stream);
      if (events) {
        // Least recently used goes first: re-insert on use.
        streams.delete(stream);
        streams.set(stream, events);
      }
      return events;
    },
    set(stream: string, events: StoredEvent[]): void {
      streams.delete(stream);
      streams.set(stream, events);
      if (streams.size > limit) streams.delete(streams.keys().next().value as string);
    },
  };
}

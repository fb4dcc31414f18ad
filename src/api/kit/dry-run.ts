import type { IdAllocator } from '../../commands/ids';
import type { AppendOptions, EventStore, PendingEvent } from '../../events/event-store';
import type { StoredEvent } from '../../events/envelope';
import type { ProjectionProgress } from '../../projections/runtime';

/** The events an append would store, as the store would answer them; positions and hashes are not real. */
function asStored(stream: string, events: readonly PendingEvent[], options: AppendOptions): StoredEvent[] {
  const first = typeof options.expectedRevision === 'number' ? options.expectedRevision + 1 : 0;
  return events.map((event, index) => ({
    ...event,
    event_id: options.eventIds?.[index] ?? `dry-run-${index}`,
    stream,
    revision: first + index,
    position: index + 1,
    metadata: options.metadata,
    prev_hash: '',
    hash: '',
  }));
}

export interface DryRun {
  eventStore: EventStore;
  ids: IdAllocator;
  runtime: ProjectionProgress;
  readYourWrites: false;
  /** Gives back the ids the dry run took, so that the real write gets the same ones. */
  end(): void;
}

/**
 * Services under which a write decides everything it would (reads the streams, validates, numbers
 * what it creates, refuses what it would refuse) and stores nothing: a write held back for approval
 * is checked this way before it is proposed.
 */
export function dryRun(services: {
  eventStore: EventStore;
  ids: IdAllocator;
  runtime: ProjectionProgress;
}): DryRun {
  const taken: [category: string, id: number][] = [];
  return {
    eventStore: {
      ...services.eventStore,
      append: async (stream, events, options) => ({ events: asStored(stream, events, options) }),
      appendAll: async (appends) =>
        appends.map(({ stream, events, options }) => ({ events: asStored(stream, events, options) })),
    },
    ids: {
      ...services.ids,
      async next(category) {
        const id = await services.ids.next(category);
        taken.push([category, id]);
        return id;
      },
    },
    runtime: { ...services.runtime, waitFor: async () => undefined },
    readYourWrites: false,
    end() {
      for (const [category, id] of taken.reverse()) services.ids.release(category, id);
    },
  };
}

import type { SuiteCatalog } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import type { AppendOptions, AppendResult, EventStore, PendingEvent } from '../events/event-store';
import { OpenedValues } from './opened-values';
import { openAll, sealEvents } from './personal-data';
import { drawnInBulk, type RandomBytes, type SubjectKeyStore } from './subject-keys';

/** Events a read holds at most to be looked up in the values opened lately (a live projection's batch, a stream). */
const RECENT_READ = 100;

/**
 * The log with its personal data sealed as it is appended and opened as it is read: the store
 * underneath keeps (and hashes) only the sealed values; everything above it sees the values, or reads
 * them as erased once their subject's key is gone.
 */
export function withPersonalData(
  store: EventStore,
  catalog: SuiteCatalog,
  keys: SubjectKeyStore,
  randomBytes: RandomBytes,
): EventStore {
  const opened = new OpenedValues();
  const sealing = { catalog, keys, randomBytes: drawnInBulk(randomBytes), opened };
  const seal = (stream: string, events: PendingEvent[], { expectedRevision }: AppendOptions) =>
    sealEvents(stream, events, sealing, { creating: expectedRevision === 'no_stream' });
  const openEvents = async <Event extends StoredEvent>(events: readonly Event[]): Promise<Event[]> => {
    // A long read (a catch-up, a rebuild) holds values sealed long ago: looking them up first costs more than it saves.
    const data = await openAll(
      events.map((event) => event.data),
      keys,
      events.length <= RECENT_READ ? opened : undefined,
    );
    return events.map((event, index) =>
      data[index] === event.data ? event : { ...event, data: data[index] },
    );
  };
  /** The appended events with the data they were given (the values just sealed), unless the store answered others (a repeat). */
  const asGiven = async (
    result: AppendResult,
    given: readonly PendingEvent[],
    sealed: readonly PendingEvent[],
  ): Promise<AppendResult> => {
    const appended = result.events.every((event, index) => event.data === sealed[index]?.data);
    if (!appended) return { ...result, events: await openEvents(result.events) };
    return {
      ...result,
      events: result.events.map((event, index) => ({ ...event, data: given[index]?.data })),
    };
  };
  return {
    ...store,
    async append(stream, events, options) {
      const sealed = await seal(stream, events, options);
      return asGiven(await store.append(stream, sealed, options), events, sealed);
    },
    async appendAll(appends) {
      const sealed = await Promise.all(
        appends.map(async (part) => ({
          ...part,
          events: await seal(part.stream, part.events, part.options),
        })),
      );
      const results = await store.appendAll(sealed);
      return Promise.all(
        results.map((result, index) =>
          asGiven(result, appends[index]?.events ?? [], sealed[index]?.events ?? []),
        ),
      );
    },
    readStream: async (stream, options) => openEvents(await store.readStream(stream, options)),
    readAll: async (options) => openEvents(await store.readAll(options)),
    queryLog: async (query) => openEvents(await store.queryLog(query)),
    async eventAt(position) {
      const event = await store.eventAt(position);
      return event && ((await openEvents([event]))[0] as StoredEvent);
    },
  };
}

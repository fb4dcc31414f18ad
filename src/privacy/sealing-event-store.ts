import type { SuiteCatalog } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import type { AppendResult, EventStore } from '../events/event-store';
import { openAll, sealEvents } from './personal-data';
import type { RandomBytes, SubjectKeyStore } from './subject-keys';

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
  const openEvents = async <Event extends StoredEvent>(events: readonly Event[]): Promise<Event[]> => {
    const opened = await openAll(
      events.map(({ data }) => data),
      keys,
    );
    return events.map((event, index) =>
      opened[index] === event.data ? event : { ...event, data: opened[index] },
    );
  };
  const openResult = async (result: AppendResult): Promise<AppendResult> => ({
    ...result,
    events: await openEvents(result.events),
  });
  return {
    ...store,
    async append(stream, events, options) {
      return openResult(
        await store.append(stream, await sealEvents(stream, events, catalog, keys, randomBytes), options),
      );
    },
    async appendAll(appends) {
      const sealed = await Promise.all(
        appends.map(async (part) => ({
          ...part,
          events: await sealEvents(part.stream, part.events, catalog, keys, randomBytes),
        })),
      );
      return Promise.all((await store.appendAll(sealed)).map(openResult));
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

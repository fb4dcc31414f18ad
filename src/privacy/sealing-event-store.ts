import type { SuiteCatalog } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import type { AppendResult, EventStore, PendingEvent } from '../events/event-store';
import { OpenedValues } from './opened-values';
import { openAll, sealEvents } from './personal-data';
import { drawnInBulk, type RandomBytes, type SubjectKeyStore } from './subject-keys';

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
  const ivs = drawnInBulk(randomBytes);
  const seal = (stream: string, events: PendingEvent[]) =>
    sealEvents(stream, events, catalog, keys, ivs, opened);
  const openEvents = async <Event extends StoredEvent>(events: readonly Event[]): Promise<Event[]> => {
    const data = await openAll(
      events.map((event) => event.data),
      keys,
      opened,
    );
    return events.map((event, index) =>
      data[index] === event.data ? event : { ...event, data: data[index] },
    );
  };
  const openResult = async (result: AppendResult): Promise<AppendResult> => ({
    ...result,
    events: await openEvents(result.events),
  });
  return {
    ...store,
    async append(stream, events, options) {
      return openResult(await store.append(stream, await seal(stream, events), options));
    },
    async appendAll(appends) {
      const sealed = await Promise.all(
        appends.map(async (part) => ({
          ...part,
          events: await seal(part.stream, part.events),
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

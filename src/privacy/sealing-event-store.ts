import type { SuiteCatalog } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import type { AppendOptions, AppendResult, EventStore, PendingEvent } from '../events/event-store';
import { openedEvents } from './opened-events';
import { openAll, sealedKeyIds, sealEvents, type SealedEvent } from './personal-data';
import { REMEMBERED_READ, type KeysBySubject, type SubjectKeyStore } from './subject-keys';

/**
 * The log with its personal data sealed as it is appended and opened as it is read: the store
 * underneath keeps (and hashes) only the sealed values; everything above it sees the values, or reads
 * them as erased once their subject's key is gone.
 */
export function withPersonalData(
  store: EventStore,
  catalog: SuiteCatalog,
  keys: SubjectKeyStore,
): EventStore {
  const seal = (stream: string, events: PendingEvent[], { expectedRevision }: AppendOptions) =>
    sealEvents(stream, events, catalog, keys, { creating: expectedRevision === 'no_stream' });
  const openedLately = openedEvents();
  const openEvents = async <Event extends StoredEvent>(events: readonly Event[]): Promise<Event[]> => {
    const subjects = openedLately.subjectsOf(events);
    const known: KeysBySubject = subjects.size > 0 ? await keys.keysOf(subjects) : new Map();
    const remembered = events.map((event) => openedLately.opened(event, known) as Event | undefined);
    const toOpen = events.filter((_, index) => remembered[index] === undefined);
    if (toOpen.length === 0) return remembered as Event[];
    // A long read (a catch-up, a rebuild) is not read again: remembering it, or its keys, would cost,
    // not save. Its events this process appended are found all the same: they were remembered as they
    // were appended.
    const remember = toOpen.length <= REMEMBERED_READ;
    const data = await openAll(
      toOpen.map((event) => event.data),
      keys,
      { remember },
    );
    let next = 0;
    return events.map((event, index) => {
      const found = remembered[index];
      if (found) return found;
      const openedData = data[next++];
      const opened = openedData === event.data ? event : { ...event, data: openedData };
      if (remember)
        openedLately.remember(event, opened, opened === event ? undefined : sealedKeyIds(event.data));
      return opened;
    });
  };
  /** The appended events with the data they were given (the values just sealed), unless the store answered others (a repeat). */
  const asGiven = async (
    result: AppendResult,
    given: readonly PendingEvent[],
    sealed: readonly SealedEvent[],
  ): Promise<AppendResult> => {
    const appended = result.events.every((event, index) => event.data === sealed[index]?.event.data);
    if (!appended) return { ...result, events: await openEvents(result.events) };
    return {
      ...result,
      events: result.events.map((stored, index) => {
        const data = given[index]?.data;
        if (data === stored.data) {
          openedLately.remember(stored, stored);
          return stored;
        }
        const event = { ...stored, data };
        openedLately.remember(stored, event, sealed[index]?.sealedWith);
        return event;
      }),
    };
  };
  /** The events as the store underneath appends them. */
  const sealedEvents = (sealed: readonly SealedEvent[]) => sealed.map(({ event }) => event);
  return {
    ...store,
    async append(stream, events, options) {
      const sealed = await seal(stream, events, options);
      return asGiven(await store.append(stream, sealedEvents(sealed), options), events, sealed);
    },
    async appendAll(appends) {
      const sealed = await Promise.all(
        appends.map(({ stream, events, options }) => seal(stream, events, options)),
      );
      const results = await store.appendAll(
        appends.map((part, index) => ({ ...part, events: sealedEvents(sealed[index] ?? []) })),
      );
      return Promise.all(
        results.map((result, index) => asGiven(result, appends[index]?.events ?? [], sealed[index] ?? [])),
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

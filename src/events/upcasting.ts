import { upcast, type SuiteCatalog } from './catalog';
import type { EventStore } from './event-store';

/**
 * The store as deciders and projectors read it: every event at its type's current schema version.
 * Appends pass through; the audit reads the store underneath, where events are as they were stored.
 */
export function withUpcasting(store: EventStore, catalog: SuiteCatalog): EventStore {
  return {
    ...store,
    readStream: async (stream, options) =>
      (await store.readStream(stream, options)).map((event) => upcast(catalog, event)),
    readAll: async (options) => (await store.readAll(options)).map((event) => upcast(catalog, event)),
  };
}

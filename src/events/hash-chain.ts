import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { StoredEvent } from './envelope';

export const GENESIS_HASH = '0'.repeat(64);

export type HashedFields = Omit<StoredEvent, 'position' | 'hash'>;

/**
 * SHA-256 over the canonical JSON (RFC 8785) of the event, including the hash of the previous event
 * of the same stream. The global position is left out: it is assigned by the store at commit time,
 * which a distributed store cannot know when the hash is computed.
 */
export function hashEvent(event: HashedFields): string {
  const canonical = canonicalize({
    event_id: event.event_id,
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    schema_version: event.schema_version,
    data: event.data,
    metadata: event.metadata,
    prev_hash: event.prev_hash,
  });
  return createHash('sha256')
    .update(canonical as string)
    .digest('hex');
}

export type ChainBreak = { stream: string; revision: number; reason: string };

/** Checks one stream's events, in revision order, for continuity and intact hashes. */
export function verifyStreamChain(events: readonly StoredEvent[]): ChainBreak | null {
  let prevHash = GENESIS_HASH;
  for (const [index, event] of events.entries()) {
    const at = { stream: event.stream, revision: event.revision };
    if (event.revision !== index) return { ...at, reason: `expected revision ${index}` };
    if (event.prev_hash !== prevHash) return { ...at, reason: 'prev_hash does not match the previous event' };
    if (hashEvent(event) !== event.hash) return { ...at, reason: 'hash does not match the event content' };
    prevHash = event.hash;
  }
  return null;
}

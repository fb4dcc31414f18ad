import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { StoredEvent } from './envelope';

export const GENESIS_HASH = '0'.repeat(64);

export type HashedFields = Omit<StoredEvent, 'position' | 'hash'>;

/**
 * SHA-256 over the canonical JSON (RFC 8785) of the event, including the hash of the previous event
 * of the same stream. The global position is left out: it is assigned by the store at commit time,
 * which a distributed store cannot know when the hash is computed.
 *
 * The canonical text is assembled here with the envelope's keys in their canonical (sorted) order:
 * the same text `canonicalize` gives for the whole object, since JSON.stringify writes strings and
 * integers exactly as RFC 8785 does. An append passes its metadata's canonical JSON once for all its
 * events (`canonicalMetadata`), which makes hashing a batch markedly cheaper.
 */
export function hashEvent(event: HashedFields, canonicalMetadata = canonicalJson(event.metadata)): string {
  const canonical =
    `{"data":${canonicalJson(event.data)},"event_id":${JSON.stringify(event.event_id)}` +
    `,"metadata":${canonicalMetadata},"prev_hash":${JSON.stringify(event.prev_hash)}` +
    `,"revision":${event.revision},"schema_version":${event.schema_version}` +
    `,"stream":${JSON.stringify(event.stream)},"type":${JSON.stringify(event.type)}}`;
  return createHash('sha256').update(canonical).digest('hex');
}

/** RFC 8785 canonical JSON of a value. */
export function canonicalJson(value: unknown): string {
  return canonicalize(value) as string;
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

import { createHash } from 'node:crypto';
import {
  jsonEvent,
  NO_STREAM,
  START,
  type AppendExpectedRevision,
  type CurrentRevision,
  type EventData,
  type JSONType,
  type Position,
  type ReadPosition,
  type RecordedEvent,
} from '@eventstore/db-client';
import type { EventMetadata, StoredEvent } from './envelope';
import type { ExpectedRevision } from './event-store';

/** Streams the adapter keeps for itself beside the domain streams; the feed leaves them out. */
export const IDEMPOTENCY_STREAM_PREFIX = 'suite-idempotency-';

/** What the suite's envelope adds to an ESDB event: ESDB already keeps id, stream, revision and type. */
export interface EnvelopeMetadata {
  schema_version: number;
  prev_hash: string;
  hash: string;
  metadata: EventMetadata;
}

export type UnpositionedEvent = Omit<StoredEvent, 'position'>;

/** One stream per key, so that the first record of a key wins through `expectedRevision: NO_STREAM`. */
export function idempotencyStream(key: string): string {
  return `${IDEMPOTENCY_STREAM_PREFIX}${createHash('sha256').update(key).digest('hex')}`;
}

/** Domain events only: no system event (`$` type or `$` stream) and none of the adapter's own streams. */
export function isSuiteEvent(stream: string, type: string): boolean {
  return !type.startsWith('$') && !stream.startsWith('$') && !stream.startsWith(IDEMPOTENCY_STREAM_PREFIX);
}

/** The append always names the revision it built the hash chain on, whatever the caller expected. */
export function appendRevisionFor(head: number | 'no_stream'): AppendExpectedRevision {
  return head === 'no_stream' ? NO_STREAM : BigInt(head);
}

export function revisionFromEsdb(current: CurrentRevision): number | 'no_stream' {
  return current === NO_STREAM ? 'no_stream' : Number(current);
}

/**
 * The revision from which the stream would already hold an append of `count` events with the same ids,
 * or null when it cannot: right after the expected revision, or for `any` at the end of the stream.
 */
export function duplicateRangeStart(
  expected: ExpectedRevision,
  head: number | 'no_stream',
  count: number,
): number | null {
  if (head === 'no_stream') return null;
  const from = expected === 'any' ? head - count + 1 : expected === 'no_stream' ? 0 : expected + 1;
  return from >= 0 && from + count - 1 <= head ? from : null;
}

/**
 * The suite's global position is the event's commit position in the ESDB transaction log. Every event
 * appended without an explicit (legacy TCP) transaction has its own commit position, equal to its
 * prepare position, so it is unique and increases in commit order; it is a byte offset, so positions
 * are sparse. As a JS number it is exact below 2^53 bytes (8 PiB) of log.
 */
export function positionFromEsdb(position: Position | undefined): number {
  if (position === undefined || position.commit > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(
      'EventStoreDB answered an event without a usable log position: the suite needs EventStoreDB 22.10 or ' +
        'later (or KurrentDB), which reports positions on stream reads too',
    );
  }
  return Number(position.commit);
}

/** Reads are inclusive of the position they start from; the caller skips the event found there. */
export function readPositionFrom(position: number): ReadPosition {
  if (position <= 0) return START;
  const at = BigInt(position);
  return { commit: at, prepare: at };
}

export function toEsdbEvent(event: UnpositionedEvent): EventData {
  const metadata: EnvelopeMetadata = {
    schema_version: event.schema_version,
    prev_hash: event.prev_hash,
    hash: event.hash,
    metadata: event.metadata,
  };
  return jsonEvent({ id: event.event_id, type: event.type, data: event.data as JSONType, metadata });
}

function isEnvelope(metadata: unknown): metadata is EnvelopeMetadata {
  const candidate = metadata as Partial<EnvelopeMetadata> | undefined;
  return typeof candidate?.hash === 'string' && typeof candidate.metadata === 'object';
}

export function fromEsdbEvent(recorded: RecordedEvent): StoredEvent {
  const envelope = recorded.metadata;
  if (!recorded.isJson || !isEnvelope(envelope)) {
    throw new Error(`${recorded.streamId}@${recorded.revision} (${recorded.id}) is not a suite event`);
  }
  return {
    event_id: recorded.id,
    stream: recorded.streamId,
    revision: Number(recorded.revision),
    position: positionFromEsdb(recorded.position),
    type: recorded.type,
    schema_version: envelope.schema_version,
    data: recorded.data,
    metadata: envelope.metadata,
    prev_hash: envelope.prev_hash,
    hash: envelope.hash,
  };
}

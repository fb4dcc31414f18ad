import { randomUUID } from 'node:crypto';
import type { EventMetadata, StoredEvent } from '../../src/events/envelope';
import { GENESIS_HASH, hashEvent } from '../../src/events/hash-chain';

let nextPosition = 1;

/** The envelope metadata of the tests' events. */
export const testMetadata: EventMetadata = {
  actor: 'tester',
  request_id: 'r-1',
  correlation_id: 'c-1',
  causation_id: null,
  occurred_at: '2026-11-21T09:30:00Z',
};

/** A well-formed stored event (hashed as a store would hash it) for tests of what consumes the log. */
export function storedEvent(
  stream: string,
  revision: number,
  overrides: Partial<Omit<StoredEvent, 'hash'>> = {},
): StoredEvent {
  const fields = {
    event_id: randomUUID(),
    stream,
    revision,
    type: 'ThingHappened',
    schema_version: 1,
    data: { n: revision },
    metadata: testMetadata,
    prev_hash: GENESIS_HASH,
    ...overrides,
  };
  return { ...fields, position: overrides.position ?? nextPosition++, hash: hashEvent(fields) };
}

import { NO_STREAM, START, type RecordedEvent } from '@eventstore/db-client';
import {
  appendRevisionFor,
  duplicateRangeStart,
  fromEsdbEvent,
  idempotencyStream,
  isSuiteEvent,
  positionFromEsdb,
  readPositionFrom,
  revisionFromEsdb,
  toEsdbEvent,
} from '../../src/events/esdb-mapping';
import { storedEvent } from '../support/stored-event';

describe('EventStoreDB mapping', () => {
  it('appends at the revision the chain was built on', () => {
    expect(appendRevisionFor('no_stream')).toBe(NO_STREAM);
    expect(appendRevisionFor(4)).toBe(BigInt(4));
    expect(revisionFromEsdb(NO_STREAM)).toBe('no_stream');
    expect(revisionFromEsdb(BigInt(9))).toBe(9);
  });

  it('finds where a repeated append would already stand', () => {
    expect(duplicateRangeStart('no_stream', 'no_stream', 2)).toBeNull();
    expect(duplicateRangeStart('no_stream', 1, 2)).toBe(0);
    expect(duplicateRangeStart('no_stream', 0, 2)).toBeNull();
    expect(duplicateRangeStart(3, 5, 2)).toBe(4);
    expect(duplicateRangeStart(3, 4, 2)).toBeNull();
    expect(duplicateRangeStart(3, 3, 1)).toBeNull();
    expect(duplicateRangeStart('any', 5, 2)).toBe(4);
    expect(duplicateRangeStart('any', 0, 2)).toBeNull();
  });

  it('takes the commit position as the global position, exact below 2^53', () => {
    expect(positionFromEsdb({ commit: BigInt(1234), prepare: BigInt(1234) })).toBe(1234);
    const huge = BigInt(Number.MAX_SAFE_INTEGER) + BigInt(1);
    expect(() => positionFromEsdb({ commit: huge, prepare: huge })).toThrow('22.10');
    expect(() => positionFromEsdb(undefined)).toThrow('log position');
    expect(readPositionFrom(0)).toBe(START);
    expect(readPositionFrom(77)).toEqual({ commit: BigInt(77), prepare: BigInt(77) });
  });

  it("keeps system events and the adapter's own streams out of the feed", () => {
    expect(isSuiteEvent('esm.request-1', 'RequestSubmitted')).toBe(true);
    expect(isSuiteEvent('esm.request-1', '$>')).toBe(false);
    expect(isSuiteEvent('$stats-127.0.0.1:2113', 'StatsCollected')).toBe(false);
    expect(isSuiteEvent(idempotencyStream('esm:POST /api/v1/requests:k1'), 'IdempotencyKeyRecorded')).toBe(
      false,
    );
    expect(idempotencyStream('k')).toBe(idempotencyStream('k'));
    expect(idempotencyStream('k')).toMatch(/^suite-idempotency-[0-9a-f]{64}$/);
  });

  it('carries the envelope through an ESDB event and back unchanged', () => {
    const event = storedEvent('esm.request-7', 2, { position: 4096, data: { title: 'x', tags: ['a'] } });
    const written = toEsdbEvent(event);
    expect(written).toMatchObject({ id: event.event_id, type: event.type, contentType: 'application/json' });
    const recorded = {
      streamId: event.stream,
      id: event.event_id,
      revision: BigInt(event.revision),
      type: event.type,
      data: written.data,
      metadata: written.metadata,
      isJson: true,
      created: new Date(),
      position: { commit: BigInt(4096), prepare: BigInt(4096) },
    } as RecordedEvent;
    expect(fromEsdbEvent(recorded)).toEqual(event);
  });

  it('refuses an event that does not carry the envelope', () => {
    const foreign = {
      streamId: 'esm.request-7',
      id: 'e1',
      revision: BigInt(0),
      type: 'Other',
      data: {},
      metadata: { source: 'elsewhere' },
      isJson: true,
      created: new Date(),
      position: { commit: BigInt(1), prepare: BigInt(1) },
    } as RecordedEvent;
    expect(() => fromEsdbEvent(foreign)).toThrow('is not a suite event');
  });
});

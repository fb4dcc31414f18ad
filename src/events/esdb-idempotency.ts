import {
  FORWARDS,
  NO_STREAM,
  START,
  WrongExpectedVersionError,
  jsonEvent,
  type AppendExpectedRevision,
} from '@eventstore/db-client';
import { collect, type EsdbClient } from './esdb-client';
import { idempotencyStream } from './esdb-mapping';
import type { StoredEvent } from './envelope';
import { IdempotencyKeyInUseError, type IdempotencyClaim, type IdempotencyRecord } from './event-store';

const RESERVED = 'IdempotencyKeyReserved';
const RECORDED = 'IdempotencyKeyRecorded';
const RELEASED = 'IdempotencyKeyReleased';
/** A reservation older than this whose events are not all there was left by a write that stopped. */
export const RESERVATION_LEASE_MS = 60_000;
const TAKEOVER_ATTEMPTS = 3;

/** Where one stream's part of a keyed append goes: its events' ids from revision `from`. */
export interface PlannedPart {
  stream: string;
  from: number;
  ids: string[];
}

interface Reservation {
  fingerprint: string;
  reserved_at: number;
  /** The part whose last event the key's record names. */
  record_part: number;
  parts: PlannedPart[];
}

type KeyState = { revision: number } & (
  | { reserved: Reservation; recorded?: never; released?: never }
  | { recorded: IdempotencyRecord; reserved?: never; released?: never }
  | { released: true; reserved?: never; recorded?: never }
);

export interface KeyedAppends {
  /**
   * Reserves the key for an append planned as `parts`: answers the record of the write that used it
   * first instead when there is one, and throws IdempotencyKeyInUseError while that write is running.
   */
  reserve(
    claim: IdempotencyClaim,
    parts: PlannedPart[],
    recordPart: number,
  ): Promise<{ revision: number } | { previous: IdempotencyRecord }>;
  /** Records the key's result once every part is appended; a write that settled it first wins. */
  record(claim: IdempotencyClaim, last: StoredEvent, reservedRevision: number): Promise<void>;
  /** Frees a reserved key whose append was refused before anything was written (the command is decided again). */
  release(claim: IdempotencyClaim, reservedRevision: number): Promise<void>;
  /** The key's record; a reserved key whose events are all appended is recorded now (its write stopped). */
  find(key: string): Promise<IdempotencyRecord | null>;
}

/**
 * Idempotency keys on EventStoreDB, which has no transaction across streams: a stream per key, where
 * the key is reserved (`NO_STREAM` makes one writer win) with the places its events are to be appended
 * before any of them is, then recorded after the last. Whoever finds a reservation whose events are all
 * in place (a retry after a crash, a concurrent request with the same key) records it and answers the
 * first result, so a command under a key runs once; a request that finds the write still running is
 * answered IdempotencyKeyInUseError. A reservation whose events are not in place after
 * `RESERVATION_LEASE_MS` belongs to a write that stopped before appending: the next request takes it over.
 * A write refused for a stale revision before any of its events was appended frees its reservation
 * (`IdempotencyKeyReleased`), so that the command, decided again on the newer state, takes the key.
 */
export function keyedAppends(
  client: EsdbClient,
  readStreamEvents: (stream: string, from: bigint, count: number) => Promise<StoredEvent[]>,
  now: () => number = Date.now,
): KeyedAppends {
  async function keyState(key: string): Promise<KeyState | null> {
    const read = client.readStream(idempotencyStream(key), {
      fromRevision: START,
      maxCount: Number.MAX_SAFE_INTEGER,
      direction: FORWARDS,
    });
    const last = (await collect(read)).at(-1)?.event;
    if (!last) return null;
    const revision = Number(last.revision);
    if (last.type === RELEASED) return { revision, released: true };
    return last.type === RESERVED
      ? { revision, reserved: last.data as unknown as Reservation }
      : { revision, recorded: last.data as unknown as IdempotencyRecord };
  }

  async function appendKeyEvent(
    key: string,
    type: string,
    data: Reservation | IdempotencyRecord | Pick<IdempotencyClaim, 'fingerprint'>,
    expectedRevision: AppendExpectedRevision,
  ): Promise<number> {
    const result = await client.appendToStream(
      idempotencyStream(key),
      [jsonEvent({ type, data: data as unknown as Record<string, unknown> })],
      { expectedRevision },
    );
    return Number(result.nextExpectedRevision);
  }

  /** The events of a reservation's parts, when every one is where it was planned. */
  async function placed(reservation: Reservation): Promise<StoredEvent[][] | null> {
    const parts: StoredEvent[][] = [];
    for (const { stream, from, ids } of reservation.parts) {
      const events = await readStreamEvents(stream, BigInt(from), ids.length);
      if (events.length !== ids.length || events.some((event, index) => event.event_id !== ids[index])) {
        return null;
      }
      parts.push(events);
    }
    return parts;
  }

  async function record(claim: IdempotencyClaim, last: StoredEvent, reservedRevision: number) {
    const entry = { ...claim, stream: last.stream, revision: last.revision, position: last.position };
    try {
      await appendKeyEvent(claim.key, RECORDED, entry, BigInt(reservedRevision));
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
    return entry;
  }

  /** The record of a key's write when it is finished, recording it if it is not yet. */
  async function settled(key: string, state: KeyState): Promise<IdempotencyRecord | null> {
    if (state.recorded) return state.recorded;
    if (state.released) return null;
    const parts = await placed(state.reserved);
    const last = parts?.[state.reserved.record_part]?.at(-1);
    if (!last) return null;
    return record({ key, fingerprint: state.reserved.fingerprint }, last, state.revision);
  }

  return {
    async reserve(claim, parts, recordPart) {
      const reservation: Reservation = {
        fingerprint: claim.fingerprint,
        reserved_at: now(),
        record_part: recordPart,
        parts,
      };
      let expected: AppendExpectedRevision = NO_STREAM;
      for (let attempt = 1; ; attempt++) {
        try {
          return { revision: await appendKeyEvent(claim.key, RESERVED, reservation, expected) };
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError) || attempt === TAKEOVER_ATTEMPTS) throw error;
        }
        const state = await keyState(claim.key);
        if (!state) continue;
        if (state.released) {
          expected = BigInt(state.revision);
          continue;
        }
        const previous = await settled(claim.key, state);
        if (previous) return { previous };
        if (now() - (state.reserved as Reservation).reserved_at < RESERVATION_LEASE_MS) {
          throw new IdempotencyKeyInUseError(claim.key);
        }
        expected = BigInt(state.revision);
      }
    },
    async record(claim, last, reservedRevision) {
      await record(claim, last, reservedRevision);
    },
    async release({ key, fingerprint }, reservedRevision) {
      try {
        await appendKeyEvent(key, RELEASED, { fingerprint }, BigInt(reservedRevision));
      } catch (error) {
        // Settled or taken over meanwhile: it is no longer this write's to free.
        if (!(error instanceof WrongExpectedVersionError)) throw error;
      }
    },
    async find(key) {
      const state = await keyState(key);
      return state ? settled(key, state) : null;
    },
  };
}

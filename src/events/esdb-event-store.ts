import {
  BACKWARDS,
  CancelledError,
  DeadlineExceededError,
  END,
  FORWARDS,
  START,
  UnavailableError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type Direction,
  type ReadPosition,
  type ReadRevision,
} from '@eventstore/db-client';
import { checkAppendSize } from './append-size';
import { collect, connectEsdb, type EsdbClient } from './esdb-client';
import { keyedAppends, type PlannedPart } from './esdb-idempotency';
import { esdbNotifications } from './esdb-notifications';
import { streamCategory, streamNumber, type EventMetadata, type StoredEvent } from './envelope';
import {
  appendRevisionFor,
  duplicateRangeStart,
  fromEsdbEvent,
  isSuiteEvent,
  positionFromEsdb,
  readPositionFrom,
  revisionFromEsdb,
  toEsdbEvent,
  type UnpositionedEvent,
} from './esdb-mapping';
import {
  UnknownPositionError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type LogQuery,
  type PendingEvent,
  type StreamAppend,
  type StreamHead,
  listOf,
  nothingAppended,
} from './event-store';
import { newEventId } from './event-ids';
import { GENESIS_HASH, hashEvent } from './hash-chain';
import { matchesLogFilter } from './log-filter';
import { withRecordingTime } from './recording-time';
import { sealedSubjectsIn } from '../privacy/sealed-value';
import { systemClock, type Clock } from '../clock';

/** Events per read request over `$all` or a stream. */
const PAGE = 1000;
/** Stream heads read concurrently by `streamHeads`. */
const HEAD_READS_IN_FLIGHT = 32;
/** Appends with expected revision `any` re-read the head and re-chain after a concurrent append. */
const ANY_ATTEMPTS = 5;

/** One stream's part of an append, checked against the stream's head and ready to be written. */
interface Plan extends PlannedPart {
  part: StreamAppend;
  /** The stream's revision the events are chained on. */
  actual: number | 'no_stream';
  chained: UnpositionedEvent[];
  /** Set when the same ids are already at this place: nothing is to be written. */
  stored?: StoredEvent[];
}

/** Errors of the connection rather than of the request. */
function isTransportError(error: unknown): boolean {
  return (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof CancelledError
  );
}

function chain(
  stream: string,
  events: readonly PendingEvent[],
  ids: readonly string[],
  metadata: EventMetadata,
  head: StoredEvent | null,
): UnpositionedEvent[] {
  let prevHash = head?.hash ?? GENESIS_HASH;
  let revision = head?.revision ?? -1;
  return events.map((event, index) => {
    revision += 1;
    const fields = {
      event_id: ids[index] as string,
      stream,
      revision,
      type: event.type,
      schema_version: event.schema_version,
      data: event.data,
      metadata,
      prev_hash: prevHash,
    };
    const hash = hashEvent(fields);
    prevHash = hash;
    return { ...fields, hash };
  });
}

/**
 * The EventStore on EventStoreDB / KurrentDB (22.10 or later; `esdb://host:2113?tls=false`).
 *
 * - Position: the event's commit position in the ESDB log (see `positionFromEsdb`). A dense counter of
 *   the suite's own cannot be kept across writers without serialising them, so positions are sparse
 *   byte offsets that only increase; callers compare them and never count with them.
 * - Stream and revision are ESDB's; the envelope's schema version, `prev_hash`, `hash` and metadata
 *   travel as the ESDB event's metadata, and the hash is computed as the SQLite store computes it. The
 *   append names the revision it chained on as ESDB's expected revision, also when the caller expected
 *   `any`, so two writers can never fork a stream's chain.
 * - Event ids are ESDB's event ids (UUIDs, answered in lower case, so they are hashed in lower case).
 *   Appending the same ids again at the same place of the stream is answered with the stored events.
 *   ESDB has no index by event id, so unlike the SQLite store an id is not recognised elsewhere.
 * - Idempotency keys: a stream per key, reserved before the append with the places its events go
 *   and recorded after it (see `keyedAppends`), so a command under a key runs once, also when two
 *   requests race or the process stops between its append and the key's record.
 * - Several streams (`appendAll`): ESDB has no transaction across streams. Every part is checked
 *   against its stream's head before the first is written, so a decision made on a stale revision of
 *   any stream appends nothing; the parts are then appended in order. A writer that appends to a later
 *   part's stream between that check and that part's append, or a crash there, leaves the first parts
 *   without the later: callers order the parts so that what can stand alone is a state their readers
 *   discount (`Together` in `commands/module-commands.ts`).
 * - Appends are bounded by `MAX_APPEND_BYTES`, ESDB's default `MaxAppendSize`, as on every adapter.
 * - A read from a position (`readAll`, `queryLog`) must start at 0 or at an event's position: ESDB
 *   refuses a read from the middle of a record, and the adapter answers UnknownPositionError.
 * - The feed (`readAll`, `queryLog`) reads `$all` forwards and leaves out system events and the key
 *   streams; `onAppended` follows `$all` (see `esdbNotifications`). Every other
 *   stream is taken for the suite's, so the suite needs an ESDB database of its own. Costs: a
 *   filtered `queryLog`, `subjectPositions` and `lastStreamNumber` scan the log (the latter only the
 *   part it has not seen yet), `streamHeads` scans it and reads each stream's last event, an append reads the stream's last
 *   event before writing and its own events after (for their positions).
 * - `recorded_at`: this process's clock (never earlier than its own last), or the time the metadata
 *   carries (a copy of a log). Positions are the server's commit order, and a cut at a recording time
 *   (`positionRecordedBy`) is a prefix of it: a late clock cannot reorder events, only make the cut
 *   as exact as the writers' clocks agree (with several writers one can record an event earlier than
 *   one before it).
 */
export function openEsdbEventStore(
  connectionString: string,
  connect: (connectionString: string) => EsdbClient = connectEsdb,
  clock: Clock = systemClock,
): EventStore {
  const client = connect(connectionString);
  let lastRecordedAt: string | undefined;
  const streamNumbers = { scannedTo: 0, last: new Map<string, number>() };

  async function readStreamEvents(
    stream: string,
    fromRevision: ReadRevision,
    maxCount: number,
    direction: Direction = FORWARDS,
  ): Promise<StoredEvent[]> {
    const resolved = await collect(client.readStream(stream, { fromRevision, maxCount, direction }));
    return resolved.flatMap(({ event }) => (event ? [fromEsdbEvent(event)] : []));
  }

  const keys = keyedAppends(client, readStreamEvents);

  async function lastEvent(stream: string): Promise<StoredEvent | null> {
    const [last] = await readStreamEvents(stream, END, 1, BACKWARDS);
    return last ?? null;
  }

  function readAllPage(
    fromPosition: ReadPosition,
    direction: Direction,
    maxCount = PAGE,
  ): Promise<AllStreamResolvedEvent[]> {
    return collect(client.readAll({ fromPosition, direction, maxCount }));
  }

  /** The record at a position of the log, or null when none starts there (ESDB refuses such a read). */
  async function recordAt(position: number): Promise<AllStreamResolvedEvent['event'] | null> {
    try {
      const [found] = await readAllPage(readPositionFrom(position), FORWARDS, 1);
      return found?.event && positionFromEsdb(found.event.position) === position ? found.event : null;
    } catch (error) {
      if (isTransportError(error)) throw error;
      return null;
    }
  }

  async function checkAfter(after: number): Promise<void> {
    if (after > 0 && !(await recordAt(after))) throw new UnknownPositionError(after);
  }

  /** The suite's events after `after`, in position order. */
  async function* feed(after: number): AsyncGenerator<StoredEvent> {
    await checkAfter(after);
    let from = after;
    for (;;) {
      const page = await readAllPage(readPositionFrom(from), FORWARDS);
      for (const { event } of page) {
        if (!event) continue;
        const position = positionFromEsdb(event.position);
        if (position <= from) continue;
        from = position;
        if (isSuiteEvent(event.streamId, event.type)) yield fromEsdbEvent(event);
      }
      if (page.length < PAGE) return;
    }
  }

  async function* streamFeed(stream: string, after: number): AsyncGenerator<StoredEvent> {
    await checkAfter(after);
    for (let revision = 0; ; revision += PAGE) {
      const page = await readStreamEvents(stream, BigInt(revision), PAGE);
      for (const event of page) if (event.position > after) yield event;
      if (page.length < PAGE) return;
    }
  }

  async function take(source: AsyncIterable<StoredEvent>, query: LogQuery): Promise<StoredEvent[]> {
    const found: StoredEvent[] = [];
    if (query.limit <= 0) return found;
    for await (const event of source) {
      if (query.until !== undefined && event.position > query.until) break;
      if (!matchesLogFilter(event, query)) continue;
      found.push(event);
      if (found.length >= query.limit) break;
    }
    return found;
  }

  /** Checks a part against its stream's head and chains its events on it. */
  async function plan(part: StreamAppend): Promise<Plan> {
    const { stream, events, options } = part;
    const expected = options.expectedRevision;
    const ids = events.map((_, index) => (options.eventIds?.[index] ?? newEventId()).toLowerCase());
    const head = await lastEvent(stream);
    const actual = head ? head.revision : 'no_stream';
    const duplicateFrom = options.eventIds ? duplicateRangeStart(expected, actual, events.length) : null;
    if (duplicateFrom !== null) {
      const existing = await readStreamEvents(stream, BigInt(duplicateFrom), events.length);
      if (existing.length === ids.length && existing.every((event, index) => event.event_id === ids[index])) {
        return { part, stream, from: duplicateFrom, ids, actual, chained: [], stored: existing };
      }
    }
    if (expected !== 'any' && expected !== actual)
      throw new WrongExpectedRevisionError(stream, expected, actual);
    const from = actual === 'no_stream' ? 0 : actual + 1;
    const metadata = withRecordingTime(options, clock.now(), lastRecordedAt);
    lastRecordedAt = metadata.recorded_at ?? lastRecordedAt;
    return { part, stream, from, ids, actual, chained: chain(stream, events, ids, metadata, head) };
  }

  async function write(planned: Plan): Promise<StoredEvent[]> {
    let current = planned;
    for (let attempt = 1; ; attempt++) {
      if (current.stored) return current.stored;
      try {
        await client.appendToStream(current.stream, current.chained.map(toEsdbEvent), {
          expectedRevision: appendRevisionFor(current.actual),
        });
        return await readStreamEvents(current.stream, BigInt(current.from), current.ids.length);
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        const expected = current.part.options.expectedRevision;
        if (expected !== 'any' || attempt === ANY_ATTEMPTS) {
          throw new WrongExpectedRevisionError(
            current.stream,
            expected,
            revisionFromEsdb(error.actualVersion),
          );
        }
        current = await plan(current.part);
      }
    }
  }

  async function appendAll(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (appends.some(({ events }) => events.length === 0)) throw new Error('append needs at least one event');
    checkAppendSize(appends);
    const keyed = appends.findIndex(({ options }) => options.idempotency);
    const claim = appends[keyed]?.options.idempotency;
    if (claim) {
      const previous = await keys.find(claim.key);
      if (previous) return nothingAppended(appends.length, keyed, previous);
    }
    const plans: Plan[] = [];
    for (const part of appends) plans.push(await plan(part));
    const reserved =
      claim &&
      (await keys.reserve(
        claim,
        plans.map(({ stream, from, ids }) => ({ stream, from, ids })),
        keyed,
      ));
    if (reserved && 'previous' in reserved) return nothingAppended(appends.length, keyed, reserved.previous);
    const results: AppendResult[] = [];
    try {
      for (const planned of plans) results.push({ events: await write(planned) });
    } catch (error) {
      // Refused before anything was written: the command is decided again, under the same key.
      const refused = results.length === 0 && error instanceof WrongExpectedRevisionError;
      if (claim && reserved && refused) await keys.release(claim, reserved.revision);
      throw error;
    }
    if (claim && reserved)
      await keys.record(claim, results[keyed]?.events.at(-1) as StoredEvent, reserved.revision);
    notifications.committed(
      Math.max(...results.map(({ events }) => (events.at(-1) as StoredEvent).position)),
    );
    return results;
  }

  async function headPosition(): Promise<number> {
    let from: ReadPosition = END;
    let before = Infinity;
    for (;;) {
      const page = await readAllPage(from, BACKWARDS);
      for (const { event } of page) {
        if (!event) continue;
        const position = positionFromEsdb(event.position);
        if (position >= before) continue;
        before = position;
        if (isSuiteEvent(event.streamId, event.type)) return position;
      }
      if (page.length < PAGE) return 0;
      from = readPositionFrom(before);
    }
  }

  const notifications = esdbNotifications(client, headPosition);

  return {
    async append(stream, events, options) {
      const [result] = await appendAll([{ stream, events, options }]);
      return result as AppendResult;
    },
    appendAll,
    async readStream(stream, options = {}) {
      const count = options.toRevision === undefined ? Number.MAX_SAFE_INTEGER : options.toRevision + 1;
      return count > 0 ? readStreamEvents(stream, START, count) : [];
    },
    readAll({ after, limit }) {
      return take(feed(after), { after, limit });
    },
    async readHashes(options) {
      return (await take(feed(options.after), options)).map(({ position, hash }) => ({ position, hash }));
    },
    queryLog(query) {
      // One stream is read by itself; several, like none, from the log's feed.
      const streams = query.stream === undefined ? [] : listOf(query.stream);
      const [only] = streams;
      return take(
        streams.length === 1 && only !== undefined ? streamFeed(only, query.after) : feed(query.after),
        query,
      );
    },
    async eventAt(position) {
      const event = position > 0 ? await recordAt(position) : null;
      return event && isSuiteEvent(event.streamId, event.type) ? fromEsdbEvent(event) : null;
    },
    async subjectPositions(subject, until = Infinity) {
      const positions: number[] = [];
      for await (const event of feed(0)) {
        if (event.position > until) break;
        if (sealedSubjectsIn(event.data).includes(subject)) positions.push(event.position);
      }
      return positions;
    },
    async streamHeads() {
      const streams = new Set<string>();
      for await (const event of feed(0)) streams.add(event.stream);
      const names = [...streams].sort();
      const heads: StreamHead[] = [];
      for (let index = 0; index < names.length; index += HEAD_READS_IN_FLIGHT) {
        const lasts = await Promise.all(names.slice(index, index + HEAD_READS_IN_FLIGHT).map(lastEvent));
        for (const last of lasts) {
          if (last) heads.push({ stream: last.stream, revision: last.revision, hash: last.hash });
        }
      }
      return heads;
    },
    headPosition,
    async lastStreamNumber(category) {
      for await (const event of feed(streamNumbers.scannedTo)) {
        streamNumbers.scannedTo = Math.max(streamNumbers.scannedTo, event.position);
        const number = streamNumber(event.stream);
        if (event.revision !== 0 || number === null) continue;
        const known = streamNumbers.last.get(streamCategory(event.stream)) ?? 0;
        if (number > known) streamNumbers.last.set(streamCategory(event.stream), number);
      }
      return streamNumbers.last.get(category) ?? 0;
    },
    findIdempotency: (key) => keys.find(key),
    onAppended: (listener, after) => notifications.follow(listener, after),
    async close() {
      await notifications.close();
      await client.dispose();
    },
  };
}

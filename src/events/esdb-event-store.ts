import {
  BACKWARDS,
  END,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type Direction,
  type ReadPosition,
  type ReadRevision,
} from '@eventstore/db-client';
import { connectEsdb, type EsdbClient, type EsdbSubscription } from './esdb-client';
import { streamCategory, streamNumber, type EventMetadata, type StoredEvent } from './envelope';
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
  type UnpositionedEvent,
} from './esdb-mapping';
import {
  WrongExpectedRevisionError,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type LogQuery,
  type PendingEvent,
  type StreamAppend,
  type StreamHead,
  nothingAppended,
} from './event-store';
import { newEventId } from './event-ids';
import { GENESIS_HASH, hashEvent } from './hash-chain';
import { matchesLogFilter } from './log-filter';

/** Events per read request over `$all` or a stream. */
const PAGE = 1000;
/** Stream heads read concurrently by `streamHeads`. */
const HEAD_READS_IN_FLIGHT = 32;
/** Appends with expected revision `any` re-read the head and re-chain after a concurrent append. */
const ANY_ATTEMPTS = 5;
const RESUBSCRIBE_MS = 1000;
const IDEMPOTENCY_EVENT = 'IdempotencyKeyRecorded';

async function collect<E>(read: AsyncIterable<E>): Promise<E[]> {
  const items: E[] = [];
  try {
    for await (const item of read) items.push(item);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
  return items;
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
 * - Idempotency keys: a stream per key, written with `NO_STREAM` after the append. This is not atomic
 *   with the append: a crash in between leaves the events without their key (a retry under the key runs
 *   the command again), and when two requests with one key race, both appends stand and the first key
 *   record wins. It is still safe in the sense the API needs: a key record never points at events that
 *   were not committed, and once written it answers every later request with the first result.
 * - The feed (`readAll`, `queryLog`) reads `$all` forwards and leaves out system events and the key
 *   streams; `onAppended` follows `$all` with a server-side `excludeSystemEvents` filter. Every other
 *   stream is taken for the suite's, so the suite needs an ESDB database of its own. Costs: a
 *   filtered `queryLog` and `lastStreamNumber` scan the log (the latter only the part it has not seen
 *   yet), `streamHeads` scans it and reads each stream's last event, an append reads the stream's last
 *   event before writing and its own events after (for their positions).
 */
export function openEsdbEventStore(
  connectionString: string,
  connect: (connectionString: string) => EsdbClient = connectEsdb,
): EventStore {
  const client = connect(connectionString);
  const listeners = new Set<(head: number) => void>();
  const streamNumbers = { scannedTo: 0, last: new Map<string, number>() };
  let notified = 0;
  let subscription: EsdbSubscription | null = null;
  let resubscribe: NodeJS.Timeout | null = null;

  async function readStreamEvents(
    stream: string,
    fromRevision: ReadRevision,
    maxCount: number,
    direction: Direction = FORWARDS,
  ): Promise<StoredEvent[]> {
    const resolved = await collect(client.readStream(stream, { fromRevision, maxCount, direction }));
    return resolved.flatMap(({ event }) => (event ? [fromEsdbEvent(event)] : []));
  }

  async function lastEvent(stream: string): Promise<StoredEvent | null> {
    const [last] = await readStreamEvents(stream, END, 1, BACKWARDS);
    return last ?? null;
  }

  function readAllPage(fromPosition: ReadPosition, direction: Direction): Promise<AllStreamResolvedEvent[]> {
    return collect(client.readAll({ fromPosition, direction, maxCount: PAGE }));
  }

  /** The suite's events after `after`, in position order. */
  async function* feed(after: number): AsyncGenerator<StoredEvent> {
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

  async function findIdempotency(key: string): Promise<IdempotencyRecord | null> {
    const [resolved] = await collect(
      client.readStream(idempotencyStream(key), { fromRevision: START, maxCount: 1, direction: FORWARDS }),
    );
    return (resolved?.event?.data as IdempotencyRecord | undefined) ?? null;
  }

  async function recordIdempotency(claim: IdempotencyClaim, last: StoredEvent): Promise<void> {
    const record = { ...claim, stream: last.stream, revision: last.revision, position: last.position };
    try {
      await client.appendToStream(
        idempotencyStream(claim.key),
        [jsonEvent({ type: IDEMPOTENCY_EVENT, data: record })],
        {
          expectedRevision: NO_STREAM,
        },
      );
    } catch (error) {
      // Another request with the same key recorded it first; its record stands (see the header).
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }

  async function appendChained(
    stream: string,
    events: readonly PendingEvent[],
    ids: readonly string[],
    options: AppendOptions,
  ): Promise<StoredEvent[]> {
    const expected = options.expectedRevision;
    for (let attempt = 1; ; attempt++) {
      const head = await lastEvent(stream);
      const actual = head ? head.revision : 'no_stream';
      const duplicateFrom = options.eventIds ? duplicateRangeStart(expected, actual, events.length) : null;
      if (duplicateFrom !== null) {
        const existing = await readStreamEvents(stream, BigInt(duplicateFrom), events.length);
        if (
          existing.length === ids.length &&
          existing.every((event, index) => event.event_id === ids[index])
        ) {
          return existing;
        }
      }
      if (expected !== 'any' && expected !== actual)
        throw new WrongExpectedRevisionError(stream, expected, actual);
      const chained = chain(stream, events, ids, options.metadata, head);
      try {
        await client.appendToStream(stream, chained.map(toEsdbEvent), {
          expectedRevision: appendRevisionFor(actual),
        });
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (expected === 'any' && attempt < ANY_ATTEMPTS) continue;
        throw new WrongExpectedRevisionError(stream, expected, revisionFromEsdb(error.actualVersion));
      }
      return readStreamEvents(stream, BigInt(actual === 'no_stream' ? 0 : actual + 1), events.length);
    }
  }

  function notify(position: number): void {
    if (position <= notified) return;
    notified = position;
    for (const listener of listeners) listener(position);
  }

  /**
   * Follows `$all` for commits of other processes (this process's own appends notify directly). A
   * dropped subscription resumes from the last position notified, so no commit goes unnoticed; commits
   * between a first `onAppended` and the server's confirmation of the subscription are not notified.
   */
  function follow(fromPosition: ReadPosition): void {
    const current = client.subscribeToAll({ fromPosition, filter: excludeSystemEvents() });
    subscription = current;
    const restart = () => {
      if (subscription !== current) return;
      subscription = null;
      resubscribe = setTimeout(() => {
        resubscribe = null;
        if (listeners.size > 0) follow(notified > 0 ? readPositionFrom(notified) : END);
      }, RESUBSCRIBE_MS);
    };
    current.on('data', ({ event }: AllStreamResolvedEvent) => {
      if (event && isSuiteEvent(event.streamId, event.type)) notify(positionFromEsdb(event.position));
    });
    current.on('error', restart);
    current.on('close', restart);
  }

  function stopFollowing(): Promise<void> {
    if (resubscribe) clearTimeout(resubscribe);
    resubscribe = null;
    const current = subscription;
    subscription = null;
    return current ? current.unsubscribe() : Promise.resolve();
  }

  /** Appends after the idempotency key, if any, was found unused. */
  async function appendUnclaimed({ stream, events, options }: StreamAppend): Promise<AppendResult> {
    const ids = events.map((_, index) => (options.eventIds?.[index] ?? newEventId()).toLowerCase());
    const stored = await appendChained(stream, events, ids, options);
    const last = stored[stored.length - 1] as StoredEvent;
    if (options.idempotency) await recordIdempotency(options.idempotency, last);
    notify(last.position);
    return { events: stored };
  }

  async function appendAll(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (appends.some(({ events }) => events.length === 0)) throw new Error('append needs at least one event');
    for (const [index, { options }] of appends.entries()) {
      const previous = options.idempotency ? await findIdempotency(options.idempotency.key) : null;
      if (previous) return nothingAppended(appends.length, index, previous);
    }
    // EventStoreDB has no transaction across streams: the parts are appended one after the other.
    const results: AppendResult[] = [];
    for (const part of appends) results.push(await appendUnclaimed(part));
    return results;
  }

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
    queryLog(query) {
      return take(
        query.stream === undefined ? feed(query.after) : streamFeed(query.stream, query.after),
        query,
      );
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
    async headPosition() {
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
    },
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
    findIdempotency,
    onAppended(listener) {
      listeners.add(listener);
      if (!subscription && !resubscribe) follow(END);
      return () => {
        listeners.delete(listener);
        // Nobody waits for the cancelled subscription; a failure to cancel it changes nothing here.
        if (listeners.size === 0) stopFollowing().catch(() => undefined);
      };
    },
    async close() {
      listeners.clear();
      await stopFollowing();
      await client.dispose();
    },
  };
}

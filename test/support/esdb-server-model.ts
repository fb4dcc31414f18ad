import { EventEmitter } from 'node:events';
import {
  BACKWARDS,
  END,
  MaxAppendSizeExceededError,
  NO_STREAM,
  START,
  StreamNotFoundError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
  type AllStreamRecordedEvent,
  type AppendExpectedRevision,
  type EventData,
  type Filter,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import type { EsdbClient, EsdbSubscription } from '../../src/events/esdb-client';

/**
 * A model of one EventStoreDB (KurrentDB 24.10) node, behind the client calls the suite's adapter makes
 * (`EsdbClient`). It reproduces these documented behaviours (KurrentDB documentation, "Appending
 * events", "Reading events", "Catch-up subscriptions", "Server configuration"; the gRPC client's
 * `CommandError` types):
 *
 * - Positions are offsets in the transaction log: each event is a record whose commit and prepare
 *   positions are the byte offset where it starts, so positions increase with every record but are not
 *   dense, and a new database already holds system records (`$`-types) before the first user event.
 * - Reading `$all` forwards from a position includes the record at it, backwards excludes it; a
 *   position that is not where a record starts (or the end of the log) is refused
 *   (`ReadAllResult.InvalidPosition`, answered to the client as an error).
 * - Optimistic concurrency: an append whose expected revision is not the stream's is refused whole
 *   with `WrongExpectedVersionError` carrying the actual revision (`no_stream` when there is none).
 * - Idempotence: appending events whose ids were appended to this stream right after the same expected
 *   revision succeeds and writes nothing; event ids are recognised only there, never in another
 *   stream or at another place of the stream (a partial match is a wrong expected version).
 * - No transaction across streams: each `appendToStream` is its own commit, so appends to several
 *   streams are independent and the first ones stand when a later one fails.
 * - `MaxAppendSize` (default 1,048,576 bytes): an append whose events' data, metadata and type add up
 *   to more is refused whole with `MaxAppendSizeExceededError` (the size counts metadata and type
 *   since 24.10.4, per its release notes).
 * - Reading a stream that does not exist fails with `StreamNotFoundError`, when the read is iterated.
 * - `subscribeToAll` delivers the events after the position it starts from (none before: `END` means
 *   only what is committed later), then each new one, filtered on the server; the server may drop a
 *   subscription at any time (the client reports an error, then the close) and it never resumes by
 *   itself. Tests drop them with `dropSubscriptions`.
 *
 * And for the tests: `loseConnectionAfterAppendTo` stands for a process that stops right after an
 * append was committed (every later call of that client fails until `reconnect`).
 */
export const DEFAULT_MAX_APPEND_SIZE = 1_048_576;

/** Bytes a record takes besides its stream, type, data and metadata (ids, revision, timestamps, flags). */
const RECORD_HEADER_BYTES = 120;

interface LogRecord {
  stream: string;
  revision: number;
  position: number;
  id: string;
  type: string;
  data: string;
  metadata: string;
  created: Date;
}

interface ModelSubscription {
  after: number;
  filter: Filter;
  emitter: EventEmitter & EsdbSubscription;
  active: boolean;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));

export interface EsdbServerModel {
  /** A client of this server: what `openEsdbEventStore`'s `connect` answers. */
  connect(): EsdbClient;
  /** The server drops every subscription (a restart, a leader change, a slow consumer). */
  dropSubscriptions(): void;
  /** After the next committed append to `stream`, every call of that client fails until `reconnect`. */
  loseConnectionAfterAppendTo(stream: string): void;
  reconnect(): void;
  /** Events stored in a stream, for assertions (the model's own view: no client involved). */
  stored(stream: string): readonly { id: string; type: string; revision: number }[];
}

export function esdbServerModel(options: { maxAppendSize?: number } = {}): EsdbServerModel {
  const maxAppendSize = options.maxAppendSize ?? DEFAULT_MAX_APPEND_SIZE;
  const log: LogRecord[] = [];
  const streams = new Map<string, LogRecord[]>();
  const subscriptions = new Set<ModelSubscription>();
  let end = 0;
  let disconnectAfter: string | null = null;
  let disconnected = false;

  function write(stream: string, event: EventData): LogRecord {
    const events = streams.get(stream) ?? [];
    const record: LogRecord = {
      stream,
      revision: events.length,
      position: end,
      id: event.id,
      type: event.type,
      data: json(event.data),
      metadata: json(event.metadata),
      created: new Date(),
    };
    end +=
      RECORD_HEADER_BYTES + bytes(stream) + bytes(record.type) + bytes(record.data) + bytes(record.metadata);
    events.push(record);
    streams.set(stream, events);
    log.push(record);
    return record;
  }

  // A new database's own records: `$all` does not start with the first user event.
  write('$epoch', {
    id: '00000000-0000-4000-8000-000000000001',
    type: '$epoch-information',
    data: {},
    metadata: undefined,
    contentType: 'application/json',
  });
  write('$settings', {
    id: '00000000-0000-4000-8000-000000000002',
    type: '$settings',
    data: {},
    metadata: undefined,
    contentType: 'application/json',
  });

  function recorded(record: LogRecord): AllStreamRecordedEvent {
    const position: Position = { commit: BigInt(record.position), prepare: BigInt(record.position) };
    return {
      streamId: record.stream,
      id: record.id,
      isJson: true,
      revision: BigInt(record.revision),
      type: record.type,
      created: record.created,
      data: JSON.parse(record.data),
      metadata: record.metadata === '' ? undefined : JSON.parse(record.metadata),
      position,
    } as AllStreamRecordedEvent;
  }

  function passes(filter: Filter, record: LogRecord): boolean {
    if (!('regex' in filter)) {
      const subject = filter.filterOn === 'eventType' ? record.type : record.stream;
      return filter.prefixes.some((prefix) => subject.startsWith(prefix));
    }
    return new RegExp(filter.regex).test(filter.filterOn === 'eventType' ? record.type : record.stream);
  }

  function deliver(subscription: ModelSubscription): void {
    for (const record of log) {
      if (!subscription.active) return;
      if (record.position <= subscription.after) continue;
      subscription.after = record.position;
      if (passes(subscription.filter, record)) subscription.emitter.emit('data', { event: recorded(record) });
    }
  }

  function notifySubscriptions(): void {
    setImmediate(() => {
      for (const subscription of subscriptions) deliver(subscription);
    });
  }

  /** Where a read of `$all` starts: the index of the first record at or after the position. */
  function logIndex(position: ReadPosition): number {
    if (position === START) return 0;
    if (position === END) return log.length;
    const at = Number(position.commit);
    if (at === end) return log.length;
    const index = log.findIndex((record) => record.position === at);
    if (index < 0 || position.prepare !== position.commit) {
      throw new UnknownError(
        undefined,
        `Invalid position: ${position.commit}/${position.prepare} is not a record`,
      );
    }
    return index;
  }

  function matchesAt(events: LogRecord[], from: number, appended: EventData[]): 'all' | 'none' | 'some' {
    const there = events.slice(from, from + appended.length);
    const same = there.filter((record, index) => record.id === appended[index]?.id).length;
    if (same === 0) return 'none';
    return same === appended.length ? 'all' : 'some';
  }

  function append(stream: string, events: EventData[], expected: AppendExpectedRevision) {
    const size = events.reduce(
      (total, event) => total + bytes(json(event.data)) + bytes(json(event.metadata)) + bytes(event.type),
      0,
    );
    if (size > maxAppendSize) throw MaxAppendSizeExceededError.fromMaxAppendSize(maxAppendSize);
    const stored = streams.get(stream) ?? [];
    const current = stored.length === 0 ? NO_STREAM : BigInt(stored.length - 1);
    if (expected !== 'any' && expected !== 'stream_exists') {
      const from = expected === NO_STREAM ? 0 : Number(expected) + 1;
      const match = matchesAt(stored, from, events);
      if (match === 'all') {
        const last = stored[from + events.length - 1] as LogRecord;
        return { revision: last.revision, position: last.position };
      }
      if (expected !== current || match === 'some') {
        throw new WrongExpectedVersionError(undefined, { streamName: stream, expected, current });
      }
    } else if (expected === 'stream_exists' && current === NO_STREAM) {
      throw new WrongExpectedVersionError(undefined, { streamName: stream, expected, current });
    } else if (events.length > 0 && stored.length >= events.length) {
      if (matchesAt(stored, stored.length - events.length, events) === 'all') {
        const last = stored[stored.length - 1] as LogRecord;
        return { revision: last.revision, position: last.position };
      }
    }
    let last: LogRecord | null = null;
    for (const event of events) last = write(stream, event);
    notifySubscriptions();
    return { revision: last ? last.revision : stored.length - 1, position: last ? last.position : end };
  }

  function checkConnection(): void {
    if (disconnected) throw new UnavailableError(undefined, 'The connection to the server was lost');
  }

  const model: EsdbServerModel = {
    connect() {
      const clientSubscriptions = new Set<ModelSubscription>();
      return {
        async appendToStream(stream, events, { expectedRevision }) {
          checkConnection();
          const { revision, position } = append(stream, events, expectedRevision);
          if (disconnectAfter === stream) {
            disconnectAfter = null;
            disconnected = true;
          }
          return {
            success: true,
            nextExpectedRevision: BigInt(revision),
            position: { commit: BigInt(position), prepare: BigInt(position) },
          };
        },
        async *readStream(stream, { fromRevision, maxCount, direction }) {
          checkConnection();
          const events = streams.get(stream);
          if (!events) throw new StreamNotFoundError(undefined, stream);
          const backwards = direction === BACKWARDS;
          let index =
            fromRevision === START ? 0 : fromRevision === END ? events.length - 1 : Number(fromRevision);
          if (fromRevision === END && !backwards) index = events.length;
          for (let count = 0; count < maxCount && index >= 0 && index < events.length; count++) {
            yield { event: recorded(events[index] as LogRecord) };
            index += backwards ? -1 : 1;
          }
        },
        async *readAll({ fromPosition, maxCount, direction }) {
          checkConnection();
          const start = logIndex(fromPosition);
          const backwards = direction === BACKWARDS;
          let index = backwards ? start - 1 : start;
          for (let count = 0; count < maxCount && index >= 0 && index < log.length; count++) {
            yield { event: recorded(log[index] as LogRecord) };
            index += backwards ? -1 : 1;
          }
        },
        subscribeToAll({ fromPosition, filter }) {
          checkConnection();
          const after =
            fromPosition === START ? -1 : fromPosition === END ? end - 1 : Number(fromPosition.commit);
          const emitter = Object.assign(new EventEmitter(), {
            async unsubscribe() {
              finish();
            },
          }) as EventEmitter & EsdbSubscription;
          const subscription: ModelSubscription = { after, filter, emitter, active: true };
          const finish = () => {
            if (!subscription.active) return;
            subscription.active = false;
            subscriptions.delete(subscription);
            clientSubscriptions.delete(subscription);
            setImmediate(() => emitter.emit('close'));
          };
          try {
            if (fromPosition !== START && fromPosition !== END) logIndex(fromPosition);
          } catch (error) {
            subscription.active = false;
            setImmediate(() => {
              emitter.emit('error', error);
              emitter.emit('close');
            });
            return emitter;
          }
          subscriptions.add(subscription);
          clientSubscriptions.add(subscription);
          notifySubscriptions();
          return emitter;
        },
        async dispose() {
          for (const subscription of clientSubscriptions) await subscription.emitter.unsubscribe();
        },
      };
    },
    dropSubscriptions() {
      for (const subscription of [...subscriptions]) {
        subscription.active = false;
        subscriptions.delete(subscription);
        const { emitter } = subscription;
        setImmediate(() => {
          emitter.emit('error', new UnavailableError(undefined, 'Subscription dropped by the server'));
          emitter.emit('close');
        });
      }
    },
    loseConnectionAfterAppendTo(stream) {
      disconnectAfter = stream;
    },
    reconnect() {
      disconnected = false;
    },
    stored(stream) {
      return (streams.get(stream) ?? []).map(({ id, type, revision }) => ({ id, type, revision }));
    },
  };
  return model;
}

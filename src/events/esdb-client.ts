import {
  EventStoreDBClient,
  StreamNotFoundError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult,
  type Direction,
  type EventData,
  type Filter,
  type ReadPosition,
  type ReadRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';

/** A subscription to `$all`: events as they are committed, until the server or the caller ends it. */
export interface EsdbSubscription {
  on(event: 'data', listener: (resolved: AllStreamResolvedEvent) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  unsubscribe(): Promise<void>;
}

/**
 * The calls the EventStoreDB adapter makes: the client library's (`connectEsdb`), or, in tests, a
 * model of the server (`test/support/esdb-server-model.ts`).
 */
export interface EsdbClient {
  appendToStream(
    stream: string,
    events: EventData[],
    options: { expectedRevision: AppendExpectedRevision },
  ): Promise<AppendResult>;
  readStream(
    stream: string,
    options: { fromRevision: ReadRevision; maxCount: number; direction: Direction },
  ): AsyncIterable<ResolvedEvent>;
  readAll(options: {
    fromPosition: ReadPosition;
    maxCount: number;
    direction: Direction;
  }): AsyncIterable<AllStreamResolvedEvent>;
  subscribeToAll(options: { fromPosition: ReadPosition; filter: Filter }): EsdbSubscription;
  dispose(): Promise<void>;
}

export function connectEsdb(connectionString: string): EsdbClient {
  return EventStoreDBClient.connectionString(connectionString);
}

/** Every item of a read; a stream that does not exist reads as empty. */
export async function collect<E>(read: AsyncIterable<E>): Promise<E[]> {
  const items: E[] = [];
  try {
    for await (const item of read) items.push(item);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
  return items;
}

import path from 'node:path';
import pino from 'pino';
import type { EventStore } from '../../src/events/event-store';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { runRelay, type RelayCheckpoint } from '../../src/workers/relay';
import { eventually, type Patience } from '../support/eventually';
import { createInMemoryPublisher, type InMemoryPublisher } from '../support/in-memory-publisher';
import { testMetadata as metadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

function memoryCheckpoint(): RelayCheckpoint & { saves: number[] } {
  const saves: number[] = [];
  return {
    saves,
    load: async () => saves[saves.length - 1] ?? 0,
    save: async (position) => {
      saves.push(position);
    },
  };
}

describe('relay', () => {
  let store: EventStore;
  let cleanup: () => void;
  let publisher: InMemoryPublisher;
  let checkpoint: ReturnType<typeof memoryCheckpoint>;
  let relays: { controller: AbortController; done: Promise<void> }[];

  beforeEach(() => {
    const dir = tempDir();
    cleanup = dir.cleanup;
    store = openSqliteEventStore(path.join(dir.dir, 'events.db'));
    publisher = createInMemoryPublisher();
    checkpoint = memoryCheckpoint();
    relays = [];
  });

  afterEach(async () => {
    await stopRelays();
    await store.close();
    cleanup();
  });

  function startRelay(batchSize = 500): void {
    const controller = new AbortController();
    const done = runRelay({
      eventStore: store,
      publisher,
      checkpoint,
      logger: pino({ enabled: false }),
      signal: controller.signal,
      batchSize,
      idlePollMs: 50,
      retryDelayMs: 5,
    });
    relays.push({ controller, done });
  }

  async function stopRelays(): Promise<void> {
    for (const relay of relays) relay.controller.abort();
    await Promise.all(relays.map((relay) => relay.done));
    relays = [];
  }

  async function append(
    stream: string,
    types: string[],
    expectedRevision: number | 'no_stream' = 'no_stream',
  ) {
    const events = types.map((type) => ({ type, data: {}, schema_version: 1 }));
    return (await store.append(stream, events, { expectedRevision, metadata })).events;
  }

  const quickly: Patience = { timeoutMs: 5000, intervalMs: 5 };
  const counted = (what: string, count: () => number) => (expected: number) =>
    eventually(`${expected} ${what}`, count, (now) => now === expected, quickly);
  const deliveries = counted('deliveries', () => publisher.delivered.length);
  const publishAttempts = counted('publish attempts', () => publisher.attempts);
  const checkpointSaves = counted('checkpoint saves', () => checkpoint.saves.length);

  const delivered = () => publisher.delivered.map((event) => `${event.stream}@${event.revision}`);

  it('publishes the log in position order, batch after batch, and saves each acknowledged position', async () => {
    await append('esm.request-1', ['A', 'B']);
    await append('crm.deal-1', ['C']);
    await append('esm.request-1', ['D', 'E'], 1);
    startRelay(2);
    await deliveries(5);
    expect(delivered()).toEqual([
      'esm.request-1@0',
      'esm.request-1@1',
      'crm.deal-1@0',
      'esm.request-1@2',
      'esm.request-1@3',
    ]);
    const positions = publisher.delivered.map((event) => event.position);
    await checkpointSaves(3);
    expect(checkpoint.saves).toEqual([positions[1], positions[3], positions[4]]);
  });

  it('follows new commits live', async () => {
    startRelay();
    await append('esm.request-1', ['A']);
    await deliveries(1);
    const [later] = await append('esm.request-1', ['B'], 0);
    await eventually(
      `a checkpoint saved at ${later!.position}`,
      () => checkpoint.saves,
      (saves) => saves.includes(later!.position),
      quickly,
    );
    expect(delivered()).toEqual(['esm.request-1@0', 'esm.request-1@1']);
  });

  it('saves the checkpoint only after the broker acknowledged the batch', async () => {
    publisher.hold();
    const [only] = await append('esm.request-1', ['A']);
    startRelay();
    await publishAttempts(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(checkpoint.saves).toEqual([]);
    publisher.release();
    await checkpointSaves(1);
    expect(checkpoint.saves).toEqual([only!.position]);
  });

  it('does not advance the checkpoint when publishing fails, and retries the same batch', async () => {
    publisher.failNext(3);
    const events = await append('esm.request-1', ['A', 'B']);
    startRelay();
    await publishAttempts(3);
    expect(checkpoint.saves).toEqual([]);
    await checkpointSaves(1);
    expect(publisher.attempts).toBe(4);
    expect(delivered()).toEqual(['esm.request-1@0', 'esm.request-1@1']);
    expect(checkpoint.saves).toEqual([events[1]!.position]);
  });

  it('resumes after a restart from the saved checkpoint, publishing nothing twice', async () => {
    await append('esm.request-1', ['A']);
    startRelay();
    await checkpointSaves(1);
    await stopRelays();
    await append('esm.request-1', ['B'], 0);
    await append('esm.request-2', ['C']);
    startRelay();
    await deliveries(3);
    expect(delivered()).toEqual(['esm.request-1@0', 'esm.request-1@1', 'esm.request-2@0']);
  });

  it('ends on abort while a publish waits for its acknowledgement, leaving the checkpoint where it was', async () => {
    publisher.hold();
    await append('esm.request-1', ['A']);
    startRelay();
    await publishAttempts(1);
    await stopRelays();
    publisher.release();
    expect(checkpoint.saves).toEqual([]);
    startRelay();
    await checkpointSaves(1);
    expect(delivered()).toEqual(['esm.request-1@0', 'esm.request-1@0']);
  });
});

import path from 'node:path';
import type { StoredEvent } from '../../src/events/envelope';
import type { EventStore } from '../../src/events/event-store';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { listParkedEvents } from '../../src/projections/parked-events';
import type { DocumentProjection, Projector } from '../../src/projections/projection';
import type { ReadStore } from '../../src/projections/read-store';
import { createProjectionRuntime, type RuntimeOptions } from '../../src/projections/runtime';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { testMetadata } from '../support/stored-event';

const metadata = testMetadata;

interface Counted {
  /** The projection throws on it. */
  poison?: boolean;
  /** The projection makes a document no store can serialise. */
  unstorable?: boolean;
}

/**
 * Counts a stream's events. `picky` is the projection before a fix: it throws on a poisoned event and
 * makes a document no store can serialise (it keeps a BigInt) of another; the fixed one counts them all.
 */
function counter(module: string, { picky }: { picky: boolean }): Projector {
  const projection: DocumentProjection = {
    collection: `${module}.counters`,
    handles: ['Counted'],
    documentId: (event) => event.stream,
    evolve: (doc, event) => {
      const data = event.data as Counted;
      if (picky && data.poison) throw new Error('cannot count a poisoned event');
      return {
        ...doc,
        id: event.stream,
        count: ((doc?.count as number) ?? 0) + 1,
        last: event.position,
        ...(picky && data.unstorable && { size: BigInt(1) }),
      };
    },
  };
  return { name: module, projections: [projection] };
}

const upcastRefusingVersionZero: RuntimeOptions['upcast'] = (event) => {
  if (event.schema_version === 0) throw new Error('Counted has no upcaster from v0');
  return event;
};

let cleanup: () => void;
let events: EventStore;
let readStore: ReadStore;

beforeEach(async () => {
  const made = tempDir();
  cleanup = made.cleanup;
  events = openSqliteEventStore(path.join(made.dir, 'events.db'));
  readStore = openSqliteReadStore(path.join(made.dir, 'read.db'));
  await readStore.defineCollections(
    ['a', 'b'].map((module) => ({
      name: `${module}.counters`,
      idKind: 'string' as const,
      searchFields: [],
      filterFields: [],
    })),
  );
});

afterEach(async () => {
  await readStore.close();
  await events.close();
  cleanup();
});

/** Appends one event per item to `stream`, which holds `revision + 1` events; answers them. */
async function append(stream: string, revision: number, items: (Counted & { version?: number })[]) {
  const { events: stored } = await events.append(
    stream,
    items.map(({ version = 1, ...data }) => ({ type: 'Counted', data, schema_version: version })),
    { expectedRevision: revision < 0 ? 'no_stream' : revision, metadata },
  );
  return stored;
}

const runtimeOf = (projectors: Projector[]) =>
  createProjectionRuntime(events, readStore, projectors, {
    onError: () => {},
    upcast: upcastRefusingVersionZero,
  });

const counted = async (stream: string) =>
  JSON.parse((await readStore.get(`${stream.split('.')[0]}.counters`, stream)) ?? 'null') as {
    count: number;
  } | null;

const parked = async () => (await listParkedEvents(readStore, { limit: 100, offset: 0 })).items;

const picky = [counter('a', { picky: true }), counter('b', { picky: true })];
const fixed = [counter('a', { picky: false }), counter('b', { picky: false })];

describe('parking the events a projection cannot apply', () => {
  let poisoned: StoredEvent;
  let head: number;

  beforeEach(async () => {
    const stored = await append('a.counter-1', -1, [{}, {}, { poison: true }, {}, {}]);
    poisoned = stored[2] as StoredEvent;
    const others = await append('b.counter-1', -1, [{}, {}, {}]);
    head = (others[2] as StoredEvent).position;
  });

  it('parks an event its projection throws on, with the projection, position, stream and error, and goes on', async () => {
    const runtime = runtimeOf(picky);
    await runtime.start();
    await runtime.waitFor(head);

    expect(await counted('a.counter-1')).toMatchObject({ count: 4 });
    expect(await counted('b.counter-1')).toMatchObject({ count: 3 });
    expect(await parked()).toEqual([
      {
        id: expect.any(String),
        projection: 'a.counters',
        position: poisoned.position,
        event_id: poisoned.event_id,
        stream: 'a.counter-1',
        type: 'Counted',
        error: 'Error: cannot count a poisoned event',
      },
    ]);
    expect(runtime.status()).toBe('degraded');
    expect(runtime.parkedCount()).toBe(1);
    await runtime.stop();
  });

  it('parks an event that cannot be upcast to its current version', async () => {
    const [old] = await append('b.counter-2', -1, [{ version: 0 }]);
    const runtime = runtimeOf(fixed);
    await runtime.start();

    expect(await parked()).toMatchObject([
      { projection: 'b.counters', position: old?.position, error: 'Error: Counted has no upcaster from v0' },
    ]);
    expect(await counted('b.counter-2')).toBeNull();
    await runtime.stop();
  });

  it('parks the event that made a document unstorable, and stores the rest of its batch', async () => {
    const [unstorable] = await append('b.counter-1', 2, [{ unstorable: true }, {}]);
    const runtime = runtimeOf(picky);
    await runtime.start();

    expect((await parked()).map(({ position, error }) => ({ position, error }))).toEqual([
      { position: poisoned.position, error: 'Error: cannot count a poisoned event' },
      { position: unstorable?.position, error: expect.stringMatching(/cannot be stored: .*BigInt/) },
    ]);
    expect(await counted('b.counter-1')).toMatchObject({ count: 4 });
    expect(await counted('a.counter-1')).toMatchObject({ count: 4 });
    await runtime.stop();
  });

  it('keeps what it parked across a restart, and parks the same again on a rebuild', async () => {
    const first = runtimeOf(picky);
    await first.start();
    await first.stop();
    const before = await parked();

    const restarted = runtimeOf(picky);
    await restarted.start();
    expect(restarted.status()).toBe('degraded');
    await restarted.rebuild();
    expect(await parked()).toEqual(before);
    expect(await counted('a.counter-1')).toMatchObject({ count: 4 });
    await restarted.stop();
  });

  it('keeps writers waiting for later events unharmed: a live append after a poisoned one is projected', async () => {
    const runtime = runtimeOf(picky);
    await runtime.start();
    const [poisonedLive, after] = await append('b.counter-1', 2, [{ poison: true }, {}]);
    await runtime.waitFor(after?.position as number);

    expect(await counted('b.counter-1')).toMatchObject({ count: 4 });
    expect((await parked()).map(({ position }) => position)).toEqual([
      poisoned.position,
      poisonedLive?.position,
    ]);
    await runtime.stop();
  });
});

describe('retrying parked events', () => {
  let poisoned: StoredEvent;

  beforeEach(async () => {
    const stored = await append('a.counter-1', -1, [{}, { poison: true }, {}]);
    poisoned = stored[1] as StoredEvent;
    await append('a.counter-2', -1, [{ poison: true }]);
    const first = runtimeOf(picky);
    await first.start();
    await first.stop();
  });

  it('after a fix, folds the documents again as a rebuild would, and nothing stays parked', async () => {
    const runtime = runtimeOf(fixed);
    await runtime.start();
    const outcome = await runtime.retryParked();

    expect(outcome).toMatchObject({ retried: 2, stillParked: [] });
    expect(outcome.applied.map(({ stream }) => stream).sort()).toEqual(['a.counter-1', 'a.counter-2']);
    expect(await parked()).toEqual([]);
    expect(runtime.status()).toBe('ok');
    const retried = [await counted('a.counter-1'), await counted('a.counter-2')];
    await runtime.rebuild();
    expect([await counted('a.counter-1'), await counted('a.counter-2')]).toEqual(retried);
    expect(retried).toMatchObject([{ count: 3 }, { count: 1 }]);
    await runtime.stop();
  });

  it('retries only the event at a position when asked', async () => {
    const runtime = runtimeOf(fixed);
    await runtime.start();
    const outcome = await runtime.retryParked(poisoned.position);

    expect(outcome.retried).toBe(1);
    expect((await parked()).map(({ stream }) => stream)).toEqual(['a.counter-2']);
    expect(await counted('a.counter-1')).toMatchObject({ count: 3 });
    await runtime.stop();
  });

  it('keeps an event that still fails parked, with its error, and changes nothing else', async () => {
    const runtime = runtimeOf(picky);
    await runtime.start();
    const before = await parked();
    const outcome = await runtime.retryParked(poisoned.position);

    expect(outcome).toMatchObject({ retried: 1, applied: [] });
    expect(outcome.stillParked.map(({ position }) => position)).toEqual([poisoned.position]);
    expect(await parked()).toEqual(before);
    expect(await counted('a.counter-1')).toMatchObject({ count: 2 });
    await runtime.stop();
  });

  it('retries nothing at a position where no event is parked', async () => {
    const runtime = runtimeOf(fixed);
    await runtime.start();
    expect(await runtime.retryParked(1)).toEqual({ retried: 0, applied: [], stillParked: [] });
    expect(await parked()).toHaveLength(2);
    await runtime.stop();
  });
});

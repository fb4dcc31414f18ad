import path from 'node:path';
import { appendRuns, eventBytes } from '../../src/events/append-size';
import type { EventStore } from '../../src/events/event-store';
import { FALLBACK_POLL_MS } from '../../src/events/log-follower';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import type { DocumentProjection, Projector } from '../../src/projections/projection';
import type { ReadStore } from '../../src/projections/read-store';
import { BATCH_SIZE } from '../../src/projections/batch-fold';
import { createProjectionRuntime } from '../../src/projections/runtime';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { tempDir } from '../support/temp-dir';
import { testMetadata } from '../support/stored-event';

const metadata = testMetadata;

/** Counts a stream's events: a document that is wrong if any event is lost or folded twice. */
function counter(module: string): Projector {
  const projection: DocumentProjection = {
    collection: `${module}.counters`,
    handles: ['Counted'],
    documentId: (event) => event.stream,
    evolve: (doc, event) => ({
      id: event.stream,
      count: ((doc?.count as number) ?? 0) + 1,
      last: event.position,
    }),
  };
  return { name: module, projections: [projection] };
}

/** A read store whose commits take a while to land, as a remote one's (or a writer thread's) do. */
function slowCommits(store: ReadStore): ReadStore {
  return {
    ...store,
    async commit(changes, checkpoints, after) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      await store.commit(changes, checkpoints, after);
    },
  };
}

/**
 * A read store that holds each commit until the runtime hands it the next one; the last one, up to
 * `head`, goes through. A runtime that waited for a commit before handing over the next would stall.
 */
function holdingEachCommitForTheNext(store: ReadStore, head: number): ReadStore {
  let releaseTheOneBefore = () => {};
  return {
    ...store,
    async commit(changes, checkpoints, after) {
      releaseTheOneBefore();
      if (Math.max(...[...checkpoints.values()].map(({ to }) => to)) < head) {
        await new Promise<void>((resolve) => (releaseTheOneBefore = resolve));
      }
      await store.commit(changes, checkpoints, after);
    },
  };
}

/** A read store whose first commit fails once the runtime has handed it the next batch too. */
function firstCommitFails(store: ReadStore, failure: Error): ReadStore {
  let nextHandedOver = () => {};
  const handedOver = new Promise<void>((resolve) => (nextHandedOver = resolve));
  let commits = 0;
  return {
    ...store,
    async commit(changes, checkpoints, after) {
      commits += 1;
      if (commits === 1) {
        await handedOver;
        throw failure;
      }
      nextHandedOver();
      await store.commit(changes, checkpoints, after);
    },
  };
}

/** A read store whose first commit fails, as a locked file or a lost connection makes it. */
function failingOnce(store: ReadStore, failure: Error): ReadStore {
  let failed = false;
  return {
    ...store,
    async commit(changes, checkpoints, after) {
      if (!failed) {
        failed = true;
        throw failure;
      }
      await store.commit(changes, checkpoints, after);
    },
  };
}

const counters = [
  { name: 'a.counters', idKind: 'string' as const, searchFields: [], filterFields: [] },
  { name: 'b.counters', idKind: 'string' as const, searchFields: [], filterFields: [] },
];
const counted = (count: number) =>
  Array.from({ length: count }, () => ({ type: 'Counted', data: {}, schema_version: 1 }));

/**
 * Appends `count` events to `stream` after `revision` (-1: a new stream), in as many appends as the
 * bound of one append needs; answers the last one's position.
 */
async function append(store: EventStore, stream: string, revision: number, count: number): Promise<number> {
  let last = revision;
  let position = 0;
  for (const run of appendRuns(counted(count), (event) => eventBytes(event, metadata))) {
    const { events } = await store.append(stream, run, {
      expectedRevision: last < 0 ? 'no_stream' : last,
      metadata,
    });
    last += run.length;
    position = events[events.length - 1]!.position;
  }
  return position;
}

/**
 * The log as far as `reveal` has shown it, with its notifications sent by the test alone: `atLastRead`
 * runs when a read finds nothing more (as a catch-up's last read does).
 */
function revealedLog(store: EventStore) {
  let visible = 0;
  let notify: (head: number) => void = () => {};
  const revealed: EventStore & { atLastRead?: () => void } = {
    ...store,
    async readAll(query) {
      const page = (await store.readAll(query)).filter((event) => event.position <= visible);
      if (page.length === 0) revealed.atLastRead?.();
      return page;
    },
    onAppended(listener) {
      notify = listener;
      return () => (notify = () => {});
    },
  };
  const reveal = (position: number) => {
    visible = position;
    notify(position);
  };
  return { revealed, reveal };
}

let cleanup: () => void;
let events: EventStore;
let readStore: ReadStore;

beforeEach(async () => {
  const made = tempDir();
  cleanup = made.cleanup;
  events = openSqliteEventStore(path.join(made.dir, 'events.db'));
  readStore = openSqliteReadStore(path.join(made.dir, 'read.db'));
  await readStore.defineCollections(counters);
});

afterEach(async () => {
  await readStore.close();
  await events.close();
  cleanup();
});

describe('projection runtime, over more than one batch of events', () => {
  it('folds each page of a batch on top of the pages before, and each batch on top of the one before while that one is still being committed', async () => {
    // Two appends of three quarters of a batch each: the first batch ends inside the second append.
    const part = (BATCH_SIZE * 3) / 4;
    await append(events, 'a.counter-1', -1, part);
    const head = await append(events, 'a.counter-1', part - 1, part);

    const runtime = createProjectionRuntime(events, slowCommits(readStore), [counter('a')], {
      onError: () => {},
    });
    await runtime.start();
    await runtime.stop();

    expect(JSON.parse((await readStore.get('a.counters', 'a.counter-1'))!)).toMatchObject({
      id: 'a.counter-1',
      count: 2 * part,
      last: head,
    });
  });

  it('hands the store each batch while the one before is still being committed, so that it can prepare it', async () => {
    const head = await append(events, 'a.counter-1', -1, 2 * BATCH_SIZE + 10);

    const store = holdingEachCommitForTheNext(readStore, head);
    const runtime = createProjectionRuntime(events, store, [counter('a')], { onError: () => {} });
    await runtime.start();
    await runtime.stop();

    expect(JSON.parse((await readStore.get('a.counters', 'a.counter-1'))!)).toMatchObject({
      id: 'a.counter-1',
      count: 2 * BATCH_SIZE + 10,
      last: head,
    });
  }, 20_000);

  it('writes nothing of the batch after one whose commit failed, and fails', async () => {
    await append(events, 'a.counter-1', -1, BATCH_SIZE + 10);
    const failure = new Error('disk full');

    const runtime = createProjectionRuntime(events, firstCommitFails(readStore, failure), [counter('a')], {
      onError: () => {},
    });
    await expect(runtime.start()).rejects.toBe(failure);
    await runtime.stop();

    expect(runtime.position()).toBe(0);
    expect(await readStore.get('a.counters', 'a.counter-1')).toBeNull();
    expect(await readStore.checkpoints()).toEqual(new Map());
  });

  it('keeps the checkpoint of a projector that was more than a batch ahead of the others', async () => {
    // b has applied its first two events (its checkpoint is past them), not its third.
    await append(events, 'b.counter-1', -1, 1);
    const ahead = BATCH_SIZE + 5000;
    await append(events, 'a.counter-1', -1, ahead);
    await append(events, 'b.counter-1', 0, 1);
    const bCheckpoint = await append(events, 'a.counter-1', ahead - 1, 1000);
    const bThird = await append(events, 'b.counter-1', 1, 1);
    const head = await append(events, 'a.counter-1', ahead + 999, 1000);
    await readStore.commit(
      [{ collection: 'b.counters', id: 'b.counter-1', doc: { id: 'b.counter-1', count: 2, last: 0 } }],
      new Map([['b', { from: 0, to: bCheckpoint }]]),
    );

    const runtime = createProjectionRuntime(events, readStore, [counter('a'), counter('b')], {
      onError: () => {},
    });
    await runtime.start();
    await runtime.stop();

    expect(JSON.parse((await readStore.get('b.counters', 'b.counter-1'))!)).toMatchObject({
      id: 'b.counter-1',
      count: 3,
      last: bThird,
    });
    expect(await readStore.checkpoints()).toEqual(
      new Map([
        ['a', head],
        ['b', head],
      ]),
    );
  });
});

describe('projection runtime, over a store that bounds its commits', () => {
  it('ends each batch at about the changes the store takes in one commit (MongoDB: a transaction within 60 s)', async () => {
    for (let stream = 1; stream <= 350; stream++) await append(events, `a.counter-${stream}`, -1, 1);
    const commitSizes: number[] = [];
    const bounded: ReadStore = {
      ...readStore,
      maxCommitChanges: 100,
      async commit(changes, checkpoints, after) {
        commitSizes.push(changes.length);
        await readStore.commit(changes, checkpoints, after);
      },
    };
    const runtime = createProjectionRuntime(events, bounded, [counter('a')], { onError: () => {} });
    await runtime.start();
    await runtime.stop();

    expect(Math.max(...commitSizes)).toBeLessThanOrEqual(100);
    expect(commitSizes.reduce((sum, size) => sum + size, 0)).toBe(350);
    expect(JSON.parse((await readStore.get('a.counters', 'a.counter-350')) as string)).toMatchObject({
      count: 1,
    });
  });
});

describe('projection runtime, following the log', () => {
  it('catches up again after a commit failed, without waiting for another append', async () => {
    const failure = new Error('database is locked');
    let reportFailure: (error: unknown) => void = () => {};
    const reported = new Promise((resolve) => (reportFailure = resolve));
    const runtime = createProjectionRuntime(events, failingOnce(readStore, failure), [counter('a')], {
      onError: reportFailure,
    });
    await runtime.start();

    const head = await append(events, 'a.counter-1', -1, 3);
    expect(await reported).toBe(failure);
    await runtime.waitFor(head);
    await runtime.stop();

    expect(JSON.parse((await readStore.get('a.counters', 'a.counter-1'))!)).toMatchObject({
      id: 'a.counter-1',
      count: 3,
      last: head,
    });
  });

  it.each(Array.from({ length: 20 }, (_, turns) => turns))(
    'catches up with a commit notified %i turns of the event loop after the last read of a catch-up',
    async (turns) => {
      const positions = [
        await append(events, 'a.counter-1', -1, 1),
        await append(events, 'a.counter-1', 0, 1),
        await append(events, 'a.counter-1', 1, 1),
      ];
      const { revealed, reveal } = revealedLog(events);
      reveal(positions[0]!);
      const runtime = createProjectionRuntime(revealed, readStore, [counter('a')], { onError: () => {} });
      await runtime.start();

      revealed.atLastRead = () => {
        revealed.atLastRead = undefined;
        void (async () => {
          for (let turn = 0; turn < turns; turn++) await Promise.resolve();
          reveal(positions[2]!);
        })();
      };
      reveal(positions[1]!);
      // A notification the runtime lost is never repeated: only the fallback poll would find the commit.
      const reached = await runtime.waitFor(positions[2]!, FALLBACK_POLL_MS / 2).then(
        () => true,
        () => false,
      );
      await runtime.stop();

      expect(reached).toBe(true);
    },
  );
});

import path from 'node:path';
import type { StoredEvent } from '../../src/events/envelope';
import type { EventStore } from '../../src/events/event-store';
import { followLogInBatches, type FollowerCheckpoint, type LogFollower } from '../../src/events/log-follower';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { testMetadata as metadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

let store: EventStore;
let cleanup: () => void;
let followers: LogFollower[];

beforeEach(() => {
  const made = tempDir();
  cleanup = made.cleanup;
  store = openSqliteEventStore(path.join(made.dir, 'events.db'));
  followers = [];
});

afterEach(async () => {
  await Promise.all(followers.map((follower) => follower.stop()));
  await store.close();
  cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(5)) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
  }
}

let appended = 0;
async function append(count: number): Promise<StoredEvent[]> {
  const events = Array.from({ length: count }, () => ({ type: 'Noted', data: {}, schema_version: 1 }));
  const stream = `test.note-${++appended}`;
  return (await store.append(stream, events, { expectedRevision: 'no_stream', metadata })).events;
}

function memoryCheckpoint(): FollowerCheckpoint & { saves: number[] } {
  const saves: number[] = [];
  return {
    saves,
    load: async () => saves.at(-1) ?? 0,
    save: async (position) => {
      saves.push(position);
      return position;
    },
  };
}

interface Options {
  log?: EventStore;
  checkpoint?: FollowerCheckpoint;
  batchSize?: number;
  pollMs?: number;
  handle?: (events: StoredEvent[]) => Promise<void>;
}

/** A follower that notes the batches it handled (their positions); started, stopped after the test. */
function follower({
  log = store,
  checkpoint = memoryCheckpoint(),
  batchSize = 100,
  pollMs,
  handle,
}: Options) {
  const batches: number[][] = [];
  const following = followLogInBatches({
    log,
    pollMs,
    checkpoint,
    batchSize,
    read: (after, limit) => store.readAll({ after, limit }),
    async handle(events) {
      await handle?.(events);
      batches.push(events.map((event) => event.position));
    },
    onError: () => {},
  });
  followers.push(following);
  following.start();
  const handled = () => batches.flat();
  return { following, batches, handled };
}

/** The log, its commits told to no one. */
const silent = (): EventStore => ({ ...store, onAppended: () => () => {} });

describe('a log follower', () => {
  it('handles the log in batches of at most the batch size, in log order, and saves each batch’s last position', async () => {
    const positions = (await append(5)).map((event) => event.position);
    const checkpoint = memoryCheckpoint();
    const { batches } = follower({ checkpoint, batchSize: 2 });

    await until(() => checkpoint.saves.length === 3);
    expect(batches).toEqual([positions.slice(0, 2), positions.slice(2, 4), positions.slice(4)]);
    expect(checkpoint.saves).toEqual([positions[1], positions[3], positions[4]]);
  });

  it('wakes up on a commit, well before its poll', async () => {
    const { handled } = follower({ pollMs: 60_000 });
    await sleep(20);
    const [event] = await append(1);

    await until(() => handled().length === 1, 1000);
    expect(handled()).toEqual([event!.position]);
  });

  it('finds a commit it was not told of at its next poll', async () => {
    const { handled } = follower({ log: silent(), pollMs: 50 });
    await sleep(20);
    const [event] = await append(1);

    await until(() => handled().length === 1, 1000);
    expect(handled()).toEqual([event!.position]);
  });

  it('handles one batch at a time, reading the next once the one before is handled', async () => {
    await append(6);
    let handling = 0;
    let most = 0;
    const { handled } = follower({
      batchSize: 2,
      async handle() {
        most = Math.max(most, ++handling);
        await sleep(20);
        handling -= 1;
      },
    });
    // Commits while a batch is handled ask for a catch-up: none runs beside the one under way.
    await append(2);
    await append(2);

    await until(() => handled().length === 10);
    expect(most).toBe(1);
    expect(handled()).toEqual([...handled()].sort((a, b) => a - b));
  });

  it('goes on after a restart from its checkpoint, handling nothing twice', async () => {
    const first = await append(2);
    const checkpoint = memoryCheckpoint();
    const before = follower({ checkpoint });
    await until(() => before.handled().length === 2);
    await before.following.stop();

    const later = await append(3);
    const after = follower({ checkpoint });
    await until(() => after.handled().length === 3);
    expect(before.handled()).toEqual(first.map((event) => event.position));
    expect(after.handled()).toEqual(later.map((event) => event.position));
  });

  it('handles a failed batch again, from where it was, and saves nothing for it meanwhile', async () => {
    const events = await append(2);
    const checkpoint = memoryCheckpoint();
    let failures = 0;
    const errors: unknown[] = [];
    const following = followLogInBatches({
      log: store,
      checkpoint,
      batchSize: 100,
      retryDelayMs: 5,
      read: (after, limit) => store.readAll({ after, limit }),
      async handle() {
        if (++failures <= 2) throw new Error('broker unavailable');
      },
      onError: (error) => errors.push(error),
    });
    followers.push(following);
    following.start();

    await until(() => checkpoint.saves.length === 1);
    expect(errors).toHaveLength(2);
    expect(checkpoint.saves).toEqual([events[1]!.position]);
  });

  it('stops once the batch under way is handled, and handles nothing after', async () => {
    await append(2);
    let release: (() => void) | null = null;
    const checkpoint = memoryCheckpoint();
    const { following, handled } = follower({
      checkpoint,
      batchSize: 1,
      handle: () => new Promise<void>((resolve) => (release = resolve)),
    });
    await until(() => release !== null);

    let stopped = false;
    const stopping = following.stop().then(() => (stopped = true));
    await sleep(20);
    expect(stopped).toBe(false);
    release!();
    await stopping;
    await append(1);
    await sleep(50);

    expect(handled()).toHaveLength(1);
    expect(checkpoint.saves).toHaveLength(1);
  });

  it('follows only while it holds an exclusive lease, and goes on from the checkpoint when it takes over', async () => {
    let holder: string | null = null;
    const leaseOf = (name: string) => ({
      take: async () => (holder ??= name) === name,
      release: async () => {
        if (holder === name) holder = null;
      },
    });
    const checkpoint = memoryCheckpoint();
    const handledBy = new Map<string, number[]>([
      ['first', []],
      ['second', []],
    ]);
    const start = (name: string) => {
      const following = followLogInBatches({
        log: store,
        pollMs: 20,
        exclusive: leaseOf(name),
        checkpoint,
        batchSize: 100,
        read: (after, limit) => store.readAll({ after, limit }),
        handle: async (events) => void handledBy.get(name)!.push(...events.map((event) => event.position)),
        onError: () => {},
      });
      followers.push(following);
      following.start();
      return following;
    };
    const first = start('first');
    const second = start('second');
    const before = await append(2);
    await until(() => checkpoint.saves.length === 1);

    await first.stop();
    const after = await append(1);
    await until(() => checkpoint.saves.length === 2);
    await second.stop();

    expect(handledBy.get('first')).toEqual(before.map((event) => event.position));
    expect(handledBy.get('second')).toEqual(after.map((event) => event.position));
  });
});

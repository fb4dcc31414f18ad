import Database from 'better-sqlite3';
import { appendRuns, eventBytes } from '../../src/events/append-size';
import path from 'node:path';
import pino from 'pino';
import type { Clock } from '../../src/clock';
import type { StoredEvent } from '../../src/events/envelope';
import type { EventStore } from '../../src/events/event-store';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { checkpointText, parseCheckpoint } from '../../src/log-proofs/checkpoint';
import { leafOf } from '../../src/log-proofs/log-against-tree';
import {
  growTree,
  logTree,
  rootFromLog,
  rootsFromLog,
  SIGNING_INTERVAL_MS,
  type LogTree,
} from '../../src/log-proofs/log-tree';
import { Frontier, leafHash, treeRoot, type Hash, type TreeNode } from '../../src/log-proofs/merkle';
import { generateSigningKey, noteSigner, NoteError, openNote } from '../../src/log-proofs/note';
import { openSqliteTreeStore, treeReader, type Leaf, type TreeStore } from '../../src/log-proofs/tree-store';
import { eventually } from '../support/eventually';
import * as rfc from '../support/rfc9162';
import { testMetadata as metadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

const ORIGIN = 'suite.test/log';
const signer = noteSigner(generateSigningKey(ORIGIN));
const logger = pino({ enabled: false });

let dir: { dir: string; cleanup: () => void };
let eventStore: EventStore;
let store: TreeStore;
const trees: LogTree[] = [];

const eventsFile = () => path.join(dir.dir, 'events.db');
const treeFile = () => path.join(dir.dir, 'log-tree.db');

beforeEach(() => {
  dir = tempDir();
  eventStore = openSqliteEventStore(eventsFile());
  store = openSqliteTreeStore(treeFile());
});

afterEach(async () => {
  // stop() closes the tree's store; closing it again does no harm.
  for (const tree of trees.splice(0)) await tree.stop();
  store.close();
  await eventStore.close();
  dir.cleanup();
});

let appended = 0;
/** Appends `count` events, a few to each of three streams, and answers them as stored. */
async function appendEvents(count: number): Promise<StoredEvent[]> {
  const stored: StoredEvent[] = [];
  while (stored.length < count) {
    const events = Array.from({ length: Math.min(count - stored.length, 4) }, () => ({
      type: 'ThingHappened',
      schema_version: 1,
      data: { n: ++appended },
    }));
    const stream = `test.thing-${(appended % 3) + 1}`;
    stored.push(...(await eventStore.append(stream, events, { expectedRevision: 'any', metadata })).events);
  }
  return stored;
}

const logEvents = () => eventStore.readAll({ after: 0, limit: 100_000 });
/** The leaf inputs of the log's events, as RFC 9162 takes them: the raw bytes of each event's hash. */
const leafInputs = (events: readonly StoredEvent[]) => events.map((event) => Buffer.from(event.hash, 'hex'));
const hex = (hash: Hash | undefined) => hash?.toString('hex');

/** A clock at a fixed time that notes when (real time) it was read: the tree reads it once per signature. */
function recordingClock(): Clock & { readAt: number[] } {
  const readAt: number[] = [];
  return {
    readAt,
    now() {
      readAt.push(Date.now());
      return new Date('2026-11-21T09:30:00Z');
    },
  };
}

/** A log tree over the test's stores, not started yet; stopped after the test. */
function newTree(clock: Clock = recordingClock()): LogTree {
  const tree = logTree({ eventStore, store, signer, origin: ORIGIN, clock, logger });
  trees.push(tree);
  return tree;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The checkpoint of the tree at `size` leaves, once one is kept. */
const keptCheckpoint = (size: number) =>
  eventually(
    `a checkpoint of ${size} leaves`,
    () => store.checkpointOfSize(size),
    (kept) => kept !== undefined,
    { intervalMs: 20 },
  );

/** Signs and keeps a checkpoint of the tree as it is, as the log tree would. */
async function keepSignedCheckpoint(size = store.extent().size, root?: Hash): Promise<void> {
  const signedRoot = root ?? treeRoot(size, treeReader(store));
  const note = signer.sign(checkpointText({ origin: ORIGIN, size, root: signedRoot }));
  store.keepCheckpoint({ size, root: signedRoot, note, signed_at: '2026-11-21T09:30:00Z' });
}

describe('growTree', () => {
  it('adds every event of the log as the next leaf, its input the event hash, and the roots are MTH of those', async () => {
    const events = [...(await appendEvents(30)), ...(await appendEvents(40))];
    await growTree(eventStore, store);

    expect(store.extent()).toEqual({ size: 70, lastPosition: events.at(-1)?.position });
    for (const [index, event] of events.entries()) {
      const leaf = store.leafAt(event.position);
      expect({ ...leaf, hash: hex(leaf?.hash) }).toEqual({
        index,
        position: event.position,
        hash: hex(rfc.leafHash(Buffer.from(event.hash, 'hex'))),
      });
      expect(leafOf(event)).toEqual(leaf?.hash);
      expect(store.leaf(index)?.position).toBe(event.position);
    }
    const inputs = leafInputs(events);
    for (let size = 0; size <= 70; size++) {
      expect(hex(treeRoot(size, treeReader(store)))).toBe(hex(rfc.mth(inputs.slice(0, size))));
    }
  });

  it('picks up from where the tree ends, and does nothing when it covers the whole log', async () => {
    await appendEvents(5);
    await growTree(eventStore, store);
    await growTree(eventStore, store);
    expect(store.extent().size).toBe(5);
    await appendEvents(6);
    await growTree(eventStore, store);
    const events = await logEvents();
    expect(store.extent()).toEqual({ size: 11, lastPosition: events.at(-1)?.position });
    expect(hex(treeRoot(11, treeReader(store)))).toBe(hex(rfc.mth(leafInputs(events))));
  });

  it('covers a log longer than a page of reads', async () => {
    const data = Array.from({ length: 5_003 }, (_, n) => ({
      type: 'ThingHappened',
      schema_version: 1,
      data: { n },
    }));
    let revision = -1;
    for (const run of appendRuns(data, (event) => eventBytes(event, metadata))) {
      await eventStore.append('test.bulk-1', run, {
        expectedRevision: revision < 0 ? 'no_stream' : revision,
        metadata,
      });
      revision += run.length;
    }
    await growTree(eventStore, store);
    const events = await logEvents();
    expect(store.extent()).toEqual({ size: 5_003, lastPosition: events.at(-1)?.position });
    const root = rfc.mth(leafInputs(events));
    expect(hex(treeRoot(5_003, treeReader(store)))).toBe(hex(root));
    expect(hex(await rootFromLog(eventStore, 5_003))).toBe(hex(root));
  });
});

describe('rootsFromLog', () => {
  it('recomputes from the events the root the tree holds, for every size, and none past the log', async () => {
    await appendEvents(37);
    await growTree(eventStore, store);
    const sizes = Array.from({ length: 39 }, (_, size) => size);
    const roots = await rootsFromLog(eventStore, sizes);
    for (let size = 0; size <= 37; size++) {
      expect(hex(roots.get(size))).toBe(hex(treeRoot(size, treeReader(store))));
    }
    expect(roots.has(38)).toBe(false);
    expect(hex(await rootFromLog(eventStore, 37))).toBe(hex(treeRoot(37, treeReader(store))));
    await expect(rootFromLog(eventStore, 38)).rejects.toThrow(RangeError);
  });
});

describe('logTree', () => {
  it('signs a checkpoint of the whole log once started: a note of the signer whose root is MTH of the events', async () => {
    const events = await appendEvents(5);
    const tree = newTree();
    tree.start();
    expect(tree.status()).toBe('checking');
    await tree.checked();
    expect(tree.status()).toBe('ok');

    const kept = await keptCheckpoint(5);
    const root = rfc.mth(leafInputs(events));
    expect(hex(kept.root)).toBe(hex(root));
    expect(kept.signed_at).toBe('2026-11-21T09:30:00Z');
    const signed = parseCheckpoint(openNote(kept.note, signer.verifierKey));
    expect({ ...signed, root: hex(signed.root) }).toEqual({
      origin: ORIGIN,
      size: 5,
      root: hex(root),
      extensions: ['suite.local/log time 2026-11-21T09:30:00Z'],
    });
    const stranger = noteSigner(generateSigningKey(ORIGIN));
    expect(() => openNote(kept.note, stranger.verifierKey)).toThrow(NoteError);
  });

  it('follows the log and signs a checkpoint of its new size, at most one a second', async () => {
    await appendEvents(3);
    const clock = recordingClock();
    const tree = newTree(clock);
    tree.start();
    await tree.checked();
    await keptCheckpoint(3);

    // Appends, one at a time, over more than two signing intervals.
    const until = Date.now() + 2.5 * SIGNING_INTERVAL_MS;
    while (Date.now() < until) {
      await appendEvents(1);
      await sleep(25);
    }
    const size = (await logEvents()).length;
    const latest = await keptCheckpoint(size);
    expect(store.latestCheckpoint()?.size).toBe(size);
    expect(hex(latest.root)).toBe(hex(rfc.mth(leafInputs(await logEvents()))));
    expect(tree.status()).toBe('ok');

    const kept = Array.from({ length: size }, (_, n) => store.checkpointOfSize(n + 1)).filter(Boolean);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    expect(kept.length).toBe(clock.readAt.length);
    // Signatures are spaced by the interval, not by the appends (25 ms apart). A timer counts from the
    // event loop's cached time, so it may fire a little early by the wall clock: hence the allowance.
    const gaps = clock.readAt.slice(1).map((at, n) => at - (clock.readAt[n] as number));
    expect(gaps.filter((gap) => gap < 0.9 * SIGNING_INTERVAL_MS)).toEqual([]);
  });

  it('reports a log that does not extend the latest checkpoint as inconsistent, and signs nothing more', async () => {
    await appendEvents(4);
    await keepSignedCheckpoint(3, leafHash(Buffer.from('not the root of the log')));
    const tree = newTree();
    tree.start();
    await tree.checked();
    expect(tree.status()).toBe('inconsistent');

    await appendEvents(3);
    await sleep(SIGNING_INTERVAL_MS + 200);
    expect(tree.status()).toBe('inconsistent');
    expect(store.latestCheckpoint()?.size).toBe(3);
    expect(store.extent().size).toBe(0);
  });

  it('reports a log whose event hash was rewritten after a checkpoint as inconsistent, and signs nothing more', async () => {
    await appendEvents(6);
    const first = newTree();
    first.start();
    await first.checked();
    await keptCheckpoint(6);
    await first.stop();
    trees.splice(0);
    await eventStore.close();

    const db = new Database(eventsFile());
    db.prepare('UPDATE events SET hash = ? WHERE position = 2').run('ab'.repeat(32));
    db.close();

    eventStore = openSqliteEventStore(eventsFile());
    store = openSqliteTreeStore(treeFile());
    const tree = newTree();
    tree.start();
    await tree.historyCompared();
    expect(tree.status()).toBe('inconsistent');

    await appendEvents(2);
    await sleep(SIGNING_INTERVAL_MS + 200);
    expect(tree.status()).toBe('inconsistent');
    expect(store.latestCheckpoint()?.size).toBe(6);
    expect(store.extent().size).toBe(6);
  });

  it.each([
    ['past the latest checkpoint, fewer than the log holds there', { checkpoint: true, bogus: 2 }],
    ['past the latest checkpoint, more than the log holds', { checkpoint: true, bogus: 7 }],
    ['with no checkpoint kept', { checkpoint: false, bogus: 3 }],
  ])(
    'cuts back and grows again a tree whose leaves differ from the log %s',
    async (_, { checkpoint, bogus }) => {
      await appendEvents(6);
      await growTree(eventStore, store);
      if (checkpoint) await keepSignedCheckpoint();
      await appendEvents(4);
      const events = await logEvents();
      await growWithBogusLeaves(bogus, events);
      expect(hex(treeRoot(store.extent().size, treeReader(store)))).not.toBe(
        hex(rfc.mth(leafInputs(events.slice(0, 6 + bogus)))),
      );

      const tree = newTree();
      tree.start();
      await tree.checked();
      expect(tree.status()).toBe('ok');
      const kept = await keptCheckpoint(10);
      expect(store.extent()).toEqual({ size: 10, lastPosition: events.at(-1)?.position });
      for (const [index, event] of events.entries()) expect(store.leaf(index)?.hash).toEqual(leafOf(event));
      const root = rfc.mth(leafInputs(events));
      expect(hex(treeRoot(10, treeReader(store)))).toBe(hex(root));
      expect(hex(await rootFromLog(eventStore, 10))).toBe(hex(root));
      expect(hex(kept.root)).toBe(hex(root));
    },
  );
});

describe("logTree's start: the cost of the events since the latest checkpoint, the history after", () => {
  /** A log of `count` events in one stream, appended in runs (fast), its tree grown and signed at `signed`. */
  async function signedLog(count: number, signed: number): Promise<void> {
    for (let done = 0; done < count; done += 500) {
      const events = Array.from({ length: Math.min(500, count - done) }, (_, n) => ({
        type: 'ThingHappened',
        schema_version: 1,
        data: { n: done + n },
      }));
      await eventStore.append('test.thing-1', events, { expectedRevision: 'any', metadata });
    }
    const events = await eventStore.readHashes({ after: 0, limit: signed });
    const frontier = Frontier.empty();
    const inner: TreeNode[] = [];
    const leaves = events.map((event, index) => {
      const hash = leafOf(event);
      inner.push(...frontier.append(hash));
      return { index, position: event.position, hash };
    });
    store.grow(leaves, inner);
    await keepSignedCheckpoint(signed);
    await growTree(eventStore, store);
  }

  /** The test's log, noting the position after which each read of hashes starts, and counting whole reads. */
  function observedLog(): { reads: number[]; wholeReads: () => number } {
    const reads: number[] = [];
    let whole = 0;
    const inner = eventStore;
    eventStore = {
      ...inner,
      readHashes: (options) => {
        reads.push(options.after);
        return inner.readHashes(options);
      },
      readAll: (options) => {
        whole++;
        return inner.readAll(options);
      },
      close: () => inner.close(),
    };
    return { reads, wholeReads: () => whole };
  }

  it("reads at start only the events from the checkpoint's last leaf on, then compares every older leaf, page by page", async () => {
    await signedLog(6_000, 5_000);
    const { reads, wholeReads } = observedLog();
    const tree = newTree();
    tree.start();
    await tree.historyCompared();

    expect(tree.status()).toBe('ok');
    // The start's check: the checkpoint's last leaf on (after the event before it).
    const checkFrom = store.leaf(4_998)?.position as number;
    expect(reads[0]).toBe(checkFrom);
    // Then the history before it, from the first leaf, a page at a time (the tree's growth reads past the log's end).
    const history = reads.filter((after) => after < checkFrom);
    expect(history[0]).toBe(0);
    expect(history.length).toBeGreaterThan(1);
    expect(history).toEqual([...history].sort((a, b) => a - b));
    // Each page starts where the last ended: its reads cover every leaf up to the check's.
    const pageSize = (history[1] as number) - (history[0] as number);
    expect(history).toEqual(Array.from({ length: history.length }, (_, page) => page * pageSize));
    expect(history.at(-1) as number).toBeGreaterThan(checkFrom - 1 - pageSize);
    expect(wholeReads()).toBe(0);
  });

  it.each([
    ['in its first page', 3],
    ['pages past its start', 4_321],
    ["at the checkpoint's last leaf", 5_000],
  ])('finds a history rewritten %s, and signs nothing more', async (_, position) => {
    await signedLog(5_500, 5_000);
    await eventStore.close();
    const db = new Database(eventsFile());
    db.prepare('UPDATE events SET hash = ? WHERE position = ?').run('ab'.repeat(32), position);
    db.close();
    eventStore = openSqliteEventStore(eventsFile());

    const tree = newTree();
    tree.start();
    await tree.historyCompared();
    expect(tree.status()).toBe('inconsistent');
    // What the tree signed meanwhile is its own nodes' (the history as it was), not the rewritten log's.
    const signed = store.latestCheckpoint()?.size;
    await appendEvents(3);
    await sleep(SIGNING_INTERVAL_MS + 200);
    expect(store.latestCheckpoint()?.size).toBe(signed);
  });

  it('grows again from the log a tree whose kept nodes no longer give the signed root, when the log does', async () => {
    await signedLog(3_000, 3_000);
    const db = new Database(treeFile());
    db.prepare('UPDATE nodes SET hash = ? WHERE level = 3 AND idx = 7').run(leafHash(Buffer.from('damage')));
    db.close();

    const tree = newTree();
    tree.start();
    await tree.checked();
    expect(tree.status()).toBe('ok');
    await appendEvents(2);
    const kept = await keptCheckpoint(3_002);
    const events = await logEvents();
    expect(hex(kept.root)).toBe(hex(rfc.mth(leafInputs(events))));
  });
});

/** Grows the tree by `count` leaves that are not the log's, with the inner nodes they complete. */
async function growWithBogusLeaves(count: number, events: readonly StoredEvent[]): Promise<void> {
  const { size } = store.extent();
  const frontier = Frontier.of(size, treeReader(store));
  const leaves: Leaf[] = [];
  const inner: TreeNode[] = [];
  for (let index = size; index < size + count; index++) {
    const hash = leafHash(Buffer.from(`bogus leaf ${index}`));
    inner.push(...frontier.append(hash));
    leaves.push({ index, position: events[index]?.position ?? 1_000 + index, hash });
  }
  store.grow(leaves, inner);
}

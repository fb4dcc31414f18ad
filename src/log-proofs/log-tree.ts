import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { isoTimestamp, type Clock } from '../clock';
import type { EventHash, EventStore } from '../events/event-store';
import { followLog } from '../events/log-follower';
import { firstDifference, leafOf } from './log-against-tree';
import { checkpointText, timeExtension } from './checkpoint';
import { EMPTY_ROOT, Frontier, treeRoot, type Hash, type TreeNode } from './merkle';
import type { NoteSigner } from './note';
import { treeReader, type Leaf, type TreeStore } from './tree-store';
import type { Witnessing, WitnessState } from './witnessing';

/** Events read and added to the tree at a time. */
const PAGE = 5_000;
/**
 * The share of the event loop the history's comparison after a start may take: it read 2,000 leaves in
 * 25 to 50 ms at 1M events on a loaded machine, and took half the loop with a fixed pause of 50 ms.
 */
const HISTORY_SHARE = 0.1;
/** A new checkpoint is signed at most this often while the log grows. */
export const SIGNING_INTERVAL_MS = 1_000;
/**
 * The tree grows at most this often: one transaction for the events of that while, which costs
 * writes far less than one per append, and which the log still holds in its cache of recent events.
 */
const GROWING_INTERVAL_MS = 200;

/**
 * The roots of the trees over the first `sizes` events of the log, recomputed from the events
 * themselves (their hashes): what the tree should be. A size past the end of the log has no root in
 * the answer.
 */
export async function rootsFromLog(
  eventStore: EventStore,
  sizes: readonly number[],
  signal?: AbortSignal,
): Promise<Map<number, Hash>> {
  const roots = new Map<number, Hash>();
  const frontier = Frontier.empty();
  const last = Math.max(0, ...sizes);
  if (sizes.includes(0)) roots.set(0, EMPTY_ROOT);
  for (let after = 0; frontier.size < last;) {
    signal?.throwIfAborted();
    const page = await eventStore.readHashes({ after, limit: Math.min(PAGE, last - frontier.size) });
    if (page.length === 0) break;
    for (const event of page) {
      frontier.append(leafOf(event));
      if (sizes.includes(frontier.size)) roots.set(frontier.size, frontier.root());
    }
    after = (page.at(-1) as EventHash).position;
  }
  return roots;
}

/** The root of the tree over the first `size` events of the log, from the events themselves. */
export async function rootFromLog(eventStore: EventStore, size: number): Promise<Hash> {
  const root = (await rootsFromLog(eventStore, [size])).get(size);
  if (!root) throw new RangeError(`The log holds fewer than ${size} events`);
  return root;
}

/**
 * Adds the log's events after the last the tree covers as its next leaves, with the inner nodes they
 * complete, a page per transaction and per turn of the event loop (a tree grown over a whole log of
 * 10M events held a first start's servers for minutes without the turns), up to the head.
 */
export async function growTree(eventStore: EventStore, store: TreeStore): Promise<void> {
  const extent = store.extent();
  const frontier = Frontier.of(extent.size, treeReader(store));
  for (let after = extent.lastPosition; ;) {
    const events = await eventStore.readHashes({ after, limit: PAGE });
    if (events.length === 0) return;
    const leaves: Leaf[] = [];
    const inner: TreeNode[] = [];
    for (const event of events) {
      const hash = leafOf(event);
      leaves.push({ index: frontier.size, position: event.position, hash });
      inner.push(...frontier.append(hash));
    }
    store.grow(leaves, inner);
    after = (events.at(-1) as EventHash).position;
    await nextTurn();
  }
}

export interface LogTree {
  store: TreeStore;
  /**
   * Checks that the log still extends the latest checkpoint (see `logTree`), then follows it from where
   * the tree ends and signs checkpoints as it grows; compares the log's older history with the tree
   * in the background.
   */
  start(): void;
  /** Resolves once the start's check has its answer (or failed: it is tried again). */
  checked(): Promise<void>;
  /** Resolves once the log's history has been compared with the tree (or the comparison failed or was not needed). */
  historyCompared(): Promise<void>;
  /** Stops following the log and closes the store. */
  stop(): Promise<void>;
  /**
   * `checking` until the start-up check has its answer; `inconsistent` once the log is found not to
   * extend a checkpoint the suite signed (at start, or later by the comparison of its history): it
   * signs nothing more.
   */
  status(): 'checking' | 'ok' | 'inconsistent';
  /** What the suite knows of each of its witnesses (none without SUITE_WITNESSES). */
  witnesses(): WitnessState[];
}

export interface LogTreeOptions {
  /** The log as stored. */
  eventStore: EventStore;
  store: TreeStore;
  signer: NoteSigner;
  origin: string;
  clock: Clock;
  logger: Logger;
  /** Where each checkpoint signed is sent for cosignatures; none: the suite has no witnesses. */
  witnesses?: Witnessing;
}

/**
 * The Merkle tree over the log (RFC 9162: leaf i is the i-th event, its input the event's hash), kept
 * by following the log as the projections do, and its signed checkpoints: one at most every
 * `SIGNING_INTERVAL_MS` while the log grows, each kept. A start checks, at the cost of the events since
 * the latest checkpoint kept, that the log still extends it: the tree's kept nodes still give its signed
 * root, and the log holds, from its last leaf on, the events the tree covers. The older history (every
 * leaf before) is then compared with the log in the background, taking `HISTORY_SHARE` of the event loop. A
 * log that no longer extends the checkpoint is reported, and nothing more is signed.
 */
export function logTree({
  eventStore,
  store,
  signer,
  origin,
  clock,
  logger,
  witnesses,
}: LogTreeOptions): LogTree {
  let consistent: boolean | undefined;
  let signedAt = -Infinity;
  let answered: () => void = () => undefined;
  const checked = new Promise<void>((resolve) => (answered = resolve));
  let compared: () => void = () => undefined;
  const historyCompared = new Promise<void>((resolve) => (compared = resolve));
  const comparing = new AbortController();

  /** Signs the tree as it is, unless the latest checkpoint covers it, or was signed less than an interval ago. */
  function sign(): void {
    const { size } = store.extent();
    if (size === 0 || size <= (store.latestCheckpoint()?.size ?? 0)) return;
    if (Date.now() - signedAt < SIGNING_INTERVAL_MS) return follower.wake();
    signedAt = Date.now();
    const root = treeRoot(size, treeReader(store));
    const signed_at = isoTimestamp(clock.now());
    const note = signer.sign(checkpointText({ origin, size, root, extensions: [timeExtension(signed_at)] }));
    store.keepCheckpoint({ size, root, note, signed_at });
    witnesses?.submit({ size, root, note, signed_at, cosignatures: '' });
  }

  /** Stops signing, for good: answers that no history remains to compare. */
  function rewritten(checkpoint: number, leaf?: number): 0 {
    consistent = false;
    logger.error(
      { checkpoint, leaf },
      'the log no longer extends the latest signed checkpoint: history was rewritten; signing stopped',
    );
    return 0;
  }

  /**
   * Whether the log still extends the latest checkpoint kept, as far as the tree's nodes and the events
   * from its last leaf on tell; and whether the tree still matches the log past it (a log that lost its
   * last commits in a crash may hold other events there now): if not, the tree is cut back to the
   * checkpoint and grown again from the log. A tree that no longer gives the signed root (its file
   * damaged) is grown again from the log, if the log's root is the one signed. Answers how many leaves
   * of the history remain to compare with the log (see `compareHistory`).
   */
  async function check(signal: AbortSignal): Promise<number> {
    const latest = store.latestCheckpoint();
    const signedSize = latest?.size ?? 0;
    const { size } = store.extent();
    if (latest && (size < signedSize || !treeRoot(signedSize, treeReader(store)).equals(latest.root))) {
      // The whole log is read here: its root is the judge, and the history needs no other comparison.
      const root = (await rootsFromLog(eventStore, [signedSize], signal)).get(signedSize);
      if (!root?.equals(latest.root)) return rewritten(signedSize);
      logger.warn(
        { checkpoint: signedSize },
        'the tree kept does not give the signed root: growing it again',
      );
      store.truncate(0);
      consistent = true;
      return 0;
    }
    const history = Math.max(0, signedSize - 1);
    const differs = await firstDifference(eventStore, store, { from: history, to: size }, { signal });
    if (differs !== undefined && differs < signedSize) return rewritten(signedSize, differs);
    consistent = true;
    if (differs !== undefined) {
      logger.warn(
        { checkpoint: signedSize, tree: size },
        'the tree differs from the log past the latest checkpoint: growing it again',
      );
      store.truncate(signedSize);
    }
    return history;
  }

  /**
   * Compares the first `leaves` leaves with the log: the history before the latest checkpoint's last
   * leaf, which the start did not read. A difference there is a rewritten history.
   */
  async function compareHistory(leaves: number): Promise<void> {
    const started = performance.now();
    const differs = await firstDifference(
      eventStore,
      store,
      { from: 0, to: leaves },
      { signal: comparing.signal, share: HISTORY_SHARE },
    );
    if (differs !== undefined) {
      rewritten(store.latestCheckpoint()?.size ?? 0, differs);
      return;
    }
    const seconds = Math.round(performance.now() - started) / 1000;
    logger.info({ leaves, seconds }, "the log's history matches the tree");
  }

  /** The start's check, then the history's comparison in the background. */
  async function checkOnStart(signal: AbortSignal): Promise<void> {
    const history = await check(signal).finally(answered);
    if (!consistent || history === 0) return compared();
    compareHistory(history)
      .catch((error: unknown) => {
        if (!comparing.signal.aborted)
          logger.error({ err: error }, "the comparison of the log's history failed");
      })
      .finally(compared);
  }

  const follower = followLog({
    log: eventStore,
    wakeEveryMs: GROWING_INTERVAL_MS,
    async catchUp(signal) {
      if (consistent === undefined) await checkOnStart(signal);
      if (!consistent) return;
      await growTree(eventStore, store);
      sign();
    },
    onError: (error) => logger.error({ err: error }, 'the log tree failed'),
  });

  return {
    store,
    status: () => (consistent === undefined ? 'checking' : consistent ? 'ok' : 'inconsistent'),
    checked: () => checked,
    historyCompared: () => historyCompared,
    witnesses: () => witnesses?.states() ?? [],
    start: () => follower.start(),
    async stop() {
      comparing.abort();
      await follower.stop();
      await witnesses?.stop();
      store.close();
    },
  };
}

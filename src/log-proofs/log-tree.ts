import type { Logger } from 'pino';
import { isoTimestamp, type Clock } from '../clock';
import { coalescing, retryingAfterFailure, type Retrying } from '../coalescing';
import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import { checkpointText } from './checkpoint';
import {
  EMPTY_ROOT,
  leafHash,
  nodeHash,
  nodesCompletedBy,
  treeRoot,
  type Hash,
  type NodeReader,
} from './merkle';
import type { NoteSigner } from './note';
import { treeReader, type Leaf, type TreeNode, type TreeStore } from './tree-store';

/** Events read and added to the tree at a time. */
const PAGE = 5_000;
/** A new checkpoint is signed at most this often while the log grows. */
export const SIGNING_INTERVAL_MS = 1_000;

/** The leaf input of an event: the raw bytes of its hash. */
export const leafOf = (event: Pick<StoredEvent, 'hash'>): Hash => leafHash(Buffer.from(event.hash, 'hex'));

/** Reads the tree's nodes from the store, and from the nodes of a batch not stored yet. */
function readerWith(store: TreeStore, pending: Map<string, Hash>): NodeReader {
  return async (level, index) => pending.get(`${level}:${index}`) ?? store.node(level, index);
}

/**
 * The roots of the trees over the first `sizes` events of the log, recomputed from the events
 * themselves (their hashes), keeping only a stack of perfect subtrees: what the tree should be. A size
 * past the end of the log has no root in the answer.
 */
export async function rootsFromLog(
  eventStore: EventStore,
  sizes: readonly number[],
  signal?: AbortSignal,
): Promise<Map<number, Hash>> {
  const roots = new Map<number, Hash>();
  const stack: { level: number; hash: Hash }[] = [];
  const rootOfStack = () =>
    stack.reduceRight<Hash | undefined>(
      (right, { hash }) => (right ? nodeHash(hash, right) : hash),
      undefined,
    ) ?? EMPTY_ROOT;
  const last = Math.max(0, ...sizes);
  let count = 0;
  if (sizes.includes(0)) roots.set(0, EMPTY_ROOT);
  for (let after = 0; count < last;) {
    signal?.throwIfAborted();
    const page = await eventStore.readAll({ after, limit: Math.min(PAGE, last - count) });
    if (page.length === 0) break;
    for (const event of page) {
      let node = { level: 0, hash: leafOf(event) };
      for (let top = stack.at(-1); top?.level === node.level; top = stack.at(-1)) {
        stack.pop();
        node = { level: node.level + 1, hash: nodeHash(top.hash, node.hash) };
      }
      stack.push(node);
      count += 1;
      if (sizes.includes(count)) roots.set(count, rootOfStack());
    }
    after = (page.at(-1) as StoredEvent).position;
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
 * complete, a page per transaction, up to the head.
 */
export async function growTree(eventStore: EventStore, store: TreeStore): Promise<void> {
  for (;;) {
    const { size, lastPosition } = store.extent();
    const events = await eventStore.readAll({ after: lastPosition, limit: PAGE });
    if (events.length === 0) return;
    const pending = new Map<string, Hash>();
    const read = readerWith(store, pending);
    const leaves: Leaf[] = [];
    const inner: TreeNode[] = [];
    for (const [offset, event] of events.entries()) {
      const index = size + offset;
      for (const node of await nodesCompletedBy(index, leafOf(event), read)) {
        pending.set(`${node.level}:${node.index}`, node.hash);
        if (node.level === 0) leaves.push({ index, position: event.position, hash: node.hash });
        else inner.push(node);
      }
    }
    store.grow(leaves, inner);
  }
}

export interface LogTree {
  store: TreeStore;
  /**
   * Checks the log still extends the latest checkpoint (the log is read whole), then follows it from
   * where the tree ends and signs checkpoints as it grows. Resolves once checked and caught up.
   */
  start(): Promise<void>;
  /** Stops following the log and closes the store. */
  stop(): Promise<void>;
  /** `inconsistent` once the log no longer extends a checkpoint the suite signed: it signs nothing more. */
  status(): 'ok' | 'inconsistent';
}

export interface LogTreeOptions {
  /** The log as stored. */
  eventStore: EventStore;
  store: TreeStore;
  signer: NoteSigner;
  origin: string;
  clock: Clock;
  logger: Logger;
}

/**
 * The Merkle tree over the log (RFC 9162: leaf i is the i-th event, its input the event's hash), kept
 * by following the log as the projections do, and its signed checkpoints: one at most every
 * `SIGNING_INTERVAL_MS` while the log grows, each kept. On start, the log is checked against the
 * latest checkpoint kept (its root recomputed from the events): a log that no longer extends it is
 * reported, and nothing more is signed.
 */
export function logTree({ eventStore, store, signer, origin, clock, logger }: LogTreeOptions): LogTree {
  let consistent: boolean | undefined;
  let signedAt = 0;
  let signing: NodeJS.Timeout | null = null;
  let signed: Promise<void> = Promise.resolve();
  let unsubscribe: (() => void) | null = null;
  let following: Retrying | null = null;
  const stopping = new AbortController();

  async function sign(): Promise<void> {
    const { size } = store.extent();
    if (consistent !== true || size === 0 || size <= (store.latestCheckpoint()?.size ?? 0)) return;
    const root = await treeRoot(size, treeReader(store));
    const note = signer.sign(checkpointText({ origin, size, root }));
    store.keepCheckpoint({ size, root, note, signed_at: isoTimestamp(clock.now()) });
    signedAt = Date.now();
  }

  /** Signs now, or once the interval since the last checkpoint has passed (one timer at a time). */
  function signSoon(): void {
    if (signing) return;
    const wait = Math.max(0, signedAt + SIGNING_INTERVAL_MS - Date.now());
    signing = setTimeout(() => {
      signing = null;
      signed = sign().catch((error: unknown) => logger.error({ err: error }, 'signing a checkpoint failed'));
    }, wait);
    signing.unref();
  }

  /**
   * Whether the log still extends the latest checkpoint kept; and whether the tree still matches the
   * log past it (a log that lost its last commits in a crash may hold other events there now): if
   * not, the tree is cut back to the checkpoint and grown again from the log.
   */
  async function check(): Promise<void> {
    const latest = store.latestCheckpoint();
    const signedSize = latest?.size ?? 0;
    const { size } = store.extent();
    const roots = await rootsFromLog(eventStore, [signedSize, size], stopping.signal);
    consistent = !latest || (roots.get(signedSize)?.equals(latest.root) ?? false);
    if (!consistent) {
      logger.error(
        { checkpoint: signedSize },
        'the log no longer extends the latest signed checkpoint: history was rewritten; signing stopped',
      );
      return;
    }
    if (!roots.get(size)?.equals(await treeRoot(size, treeReader(store)))) {
      logger.warn(
        { checkpoint: signedSize, tree: size },
        'the tree differs from the log past the latest checkpoint: growing it again',
      );
      store.truncate(signedSize);
    }
  }

  const work = coalescing(async () => {
    if (consistent === undefined) await check();
    if (!consistent) return;
    await growTree(eventStore, store);
    signSoon();
  });

  return {
    store,
    status: () => (consistent === false ? 'inconsistent' : 'ok'),
    async start() {
      const onError = (error: unknown) => {
        if (!stopping.signal.aborted) logger.error({ err: error }, 'the log tree failed');
      };
      following = retryingAfterFailure(work, onError);
      unsubscribe = eventStore.onAppended(following.run);
      try {
        await work();
      } catch (error) {
        onError(error);
        following.run();
      }
    },
    async stop() {
      stopping.abort();
      unsubscribe?.();
      following?.stop();
      await work.settled();
      if (signing) clearTimeout(signing);
      await signed;
      store.close();
    },
  };
}

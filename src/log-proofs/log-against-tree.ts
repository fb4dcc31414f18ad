import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { UnknownPositionError, type EventHash, type EventStore } from '../events/event-store';
import { leafHash, type Hash } from './merkle';
import type { TreeStore } from './tree-store';

/** The leaf input of an event: the raw bytes of its hash. */
export const leafOf = (event: Pick<EventHash, 'hash'>): Hash => leafHash(Buffer.from(event.hash, 'hex'));

/** Leaves compared at a time: a page is one short turn of the event loop (5 to 10 ms at 1M events). */
const PAGE = 500;
/**
 * Leaves compared at a time when sharing the loop: a request that comes meanwhile waits for one
 * page, 1 to 2 ms, not 5 to 10.
 */
const SHARED_PAGE = 100;

/**
 * The index of the first of the tree's leaves `from` to `to` (excluded; at most the tree's size) that
 * is not what the log holds at that leaf's position (the event's hash, or no event at all), or
 * undefined when all are. Reads the log's hashes only, a page per turn of the event loop, so that a
 * long range shares the loop with the requests served meanwhile; given a `share` of the loop, it
 * pauses after each page so as to take no more of it.
 */
export async function firstDifference(
  eventStore: Pick<EventStore, 'readHashes'>,
  store: TreeStore,
  range: { from: number; to: number },
  { signal, share }: { signal?: AbortSignal; share?: number } = {},
): Promise<number | undefined> {
  const page = share ? SHARED_PAGE : PAGE;
  for (let from = range.from; from < range.to; from += page) {
    signal?.throwIfAborted();
    const started = performance.now();
    const leaves = store.leaves(from, Math.min(page, range.to - from));
    // `after` must name an event of the log: that of the leaf before (gone: the log differs there).
    const after = from === 0 ? 0 : (store.leaf(from - 1)?.position ?? 0);
    let hashes;
    try {
      hashes = await eventStore.readHashes({ after, limit: leaves.length });
    } catch (error) {
      if (error instanceof UnknownPositionError) return from - 1;
      throw error;
    }
    for (const [offset, leaf] of leaves.entries()) {
      const event = hashes[offset];
      if (event?.position !== leaf.position || !leafOf(event).equals(leaf.hash)) {
        return leaf.index;
      }
    }
    const busy = performance.now() - started;
    await (share ? sleep(busy * (1 / share - 1)) : nextTurn());
  }
  return undefined;
}

import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { UnknownPositionError, type EventStore } from '../events/event-store';
import { leafHash } from './merkle';
import type { TreeStore } from './tree-store';

/** Leaves compared at a time: a page is one short turn of the event loop. */
const PAGE = 2_000;

/**
 * The index of the first of the tree's leaves `from` to `to` (excluded; at most the tree's size) that
 * is not what the log holds at that leaf's position (the event's hash, or no event at all), or
 * undefined when all are. Reads the log's hashes only, a page per turn of the event loop (or per
 * `pauseMs`), so that a long range shares the loop with the requests served meanwhile.
 */
export async function firstDifference(
  eventStore: Pick<EventStore, 'readHashes'>,
  store: TreeStore,
  range: { from: number; to: number },
  { signal, pauseMs = 0 }: { signal?: AbortSignal; pauseMs?: number } = {},
): Promise<number | undefined> {
  for (let from = range.from; from < range.to; from += PAGE) {
    signal?.throwIfAborted();
    const leaves = store.leaves(from, Math.min(PAGE, range.to - from));
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
      if (event?.position !== leaf.position || !leafHash(Buffer.from(event.hash, 'hex')).equals(leaf.hash)) {
        return leaf.index;
      }
    }
    await (pauseMs > 0 ? sleep(pauseMs) : nextTurn());
  }
  return undefined;
}

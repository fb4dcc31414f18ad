import type { EventStore } from '../../src/events/event-store';
import type { LogTree } from '../../src/log-proofs/log-tree';

/** The tree's latest checkpoint, once one covers the whole log (checkpoints follow it by up to a second). */
export async function signedHead(events: Pick<EventStore, 'headPosition'>, tree: LogTree) {
  const head = await events.headPosition();
  for (;;) {
    const latest = tree.store.latestCheckpoint();
    if (latest && latest.size >= head) return latest;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

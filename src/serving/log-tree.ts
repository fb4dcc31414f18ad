import { logTree, type LogTree } from '../log-proofs/log-tree';
import { resolveLogSigner } from '../log-proofs/signing-key';
import { openSqliteTreeStore, treeStoreFile } from '../log-proofs/tree-store';
import { witnessing } from '../log-proofs/witnessing';
import type { Suite } from '../main';

/** How long a start waits for the tree's start-up check before serving (a large log is checked meanwhile). */
const TREE_CHECK_WAIT_MS = 1_000;

/**
 * The Merkle tree over the log and its signed checkpoints, kept in the data directory by the one
 * process that follows the log for it (`suite start`, or the auditor role), which sends each new
 * checkpoint to the witnesses of SUITE_WITNESSES and keeps their cosignatures with it. Resolves once the tree
 * has checked the log against its latest checkpoint, or after TREE_CHECK_WAIT_MS: the check reads the
 * whole log, and a start is not held up by the size of the log.
 */
export async function startLogTree(suite: Suite): Promise<LogTree> {
  const { config } = suite;
  const store = openSqliteTreeStore(treeStoreFile(config.dataDir));
  const witnesses =
    config.witnesses.length === 0
      ? undefined
      : witnessing({ store, witnesses: config.witnesses, logger: suite.logger });
  const tree = logTree({
    eventStore: suite.storedEvents,
    store,
    witnesses,
    signer: resolveLogSigner(config),
    origin: config.logOrigin,
    clock: suite.clock,
    logger: suite.logger,
  });
  tree.start();
  let waiting: NodeJS.Timeout | undefined;
  await Promise.race([
    tree.checked(),
    new Promise((resolve) => (waiting = setTimeout(resolve, TREE_CHECK_WAIT_MS))),
  ]);
  clearTimeout(waiting);
  return tree;
}

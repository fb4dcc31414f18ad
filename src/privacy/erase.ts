import type { Logger } from 'pino';
import { coalescing, retryingAfterFailure, throttled, type Retrying } from '../coalescing';
import type { CommandContext } from '../commands/context';
import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import type { ProjectionRuntime } from '../projections/runtime';
import { CheckpointConflict, type ReadStore } from '../projections/read-store';
import { recordErasure } from './erasures';
import { sealedHeader } from './sealed-value';
import { requireKnownSubject } from './subjects';
import type { SubjectKeyStore } from './subject-keys';

const PAGE = 5_000;
/** How often at most the log is looked at for new erasures: an erasure reaches the read models within a second. */
const FOLLOWING_INTERVAL_MS = 250;
/** The read store's checkpoint of the erasures whose documents were folded again. */
const REFOLDED = 'privacy.erasure-refolds';

/**
 * Erases a data subject the suite holds a record of (else `unknown_subject`, nothing recorded):
 * records `SubjectErased` (subject, reason; the actor in its metadata) and
 * deletes the subject's keys, after which the log reads its personal data as erased. The process
 * that projects folds the documents that held it again (`erasureFollower`). Two stores, no transaction:
 * the erasure is recorded first and the follower deletes the keys again for every erasure in the log,
 * so a crash in between delays the deletion and never loses it.
 */
export async function eraseSubject(
  context: CommandContext,
  keys: SubjectKeyStore,
  subject: string,
  reason: string,
) {
  await requireKnownSubject(context.eventStore, subject);
  const recorded = await recordErasure(context, subject, reason);
  await keys.erase(subject);
  return recorded;
}

/** Adds to `keyIds` the ids of the keys under which `value` holds values sealed for `subject`. */
function addKeyIdsOf(value: unknown, subject: string, keyIds: Set<string>): void {
  if (typeof value === 'string') {
    const header = sealedHeader(value);
    if (header?.subject === subject) keyIds.add(header.keyId);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) addKeyIdsOf(item, subject, keyIds);
  }
}

/**
 * The events, up to `until`, holding personal data sealed for `subject` (their positions), and the
 * keys it was sealed under: a scan of the log as stored.
 */
export async function sealedForSubject(
  storedEvents: EventStore,
  subject: string,
  until: number,
): Promise<{ positions: number[]; keyIds: Set<string> }> {
  const positions: number[] = [];
  const keyIds = new Set<string>();
  for (let after = 0; after < until;) {
    const page = await storedEvents.queryLog({ after, until, limit: PAGE });
    for (const event of page) {
      const held = new Set<string>();
      addKeyIdsOf(event.data, subject, held);
      if (held.size === 0) continue;
      positions.push(event.position);
      for (const id of held) keyIds.add(id);
    }
    if (page.length < PAGE) break;
    after = (page.at(-1) as StoredEvent).position;
  }
  return { positions, keyIds };
}

export interface ErasureFollower {
  start(): void;
  stop(): Promise<void>;
}

/**
 * In the process that projects: for each `SubjectErased` the log records, makes sure the keys are gone
 * (the process that erased may have stopped before, and a key handed to the subject may still be kept
 * as a spare), folds again every document that held the subject's personal data, and purges the read
 * store's files; then keeps a checkpoint, so that each erasure is done once, also across restarts.
 * It looks for erasures only in the part of the log it has not looked at, at most every
 * FOLLOWING_INTERVAL_MS.
 */
export function erasureFollower(services: {
  storedEvents: EventStore;
  readStore: ReadStore;
  runtime: ProjectionRuntime;
  subjectKeys: SubjectKeyStore;
  logger: Logger;
}): ErasureFollower {
  const { storedEvents, readStore, runtime, subjectKeys, logger } = services;
  let unsubscribe: (() => void) | null = null;
  let following: Retrying | null = null;
  const looking = throttled(FOLLOWING_INTERVAL_MS, () => following?.run());
  /** The log up to here holds no erasure that is not done. */
  let lookedAt = 0;
  const work = coalescing(async () => {
    for (;;) {
      const done = (await readStore.checkpoints()).get(REFOLDED) ?? 0;
      const head = await storedEvents.headPosition();
      const [erasure] = await storedEvents.queryLog({
        module: 'privacy',
        type: 'SubjectErased',
        after: Math.max(done, lookedAt),
        until: head,
        limit: 1,
      });
      if (!erasure) {
        lookedAt = head;
        return;
      }
      const { subject } = erasure.data as { subject: string };
      const { positions, keyIds } = await sealedForSubject(storedEvents, subject, erasure.position);
      await subjectKeys.erase(subject, keyIds);
      await runtime.refold(positions);
      try {
        await readStore.commit([], new Map([[REFOLDED, { from: done, to: erasure.position }]]));
      } catch (error) {
        // Another process that projects did this erasure too; the next one is read from its checkpoint.
        if (!(error instanceof CheckpointConflict)) throw error;
        continue;
      }
      lookedAt = erasure.position;
      await readStore.purge();
      logger.info({ subject, position: erasure.position }, 'subject erased: its documents folded again');
    }
  });
  return {
    start() {
      following = retryingAfterFailure(work, (error) => logger.error({ err: error }, 'an erasure failed'));
      unsubscribe = storedEvents.onAppended(looking.request);
      following.run();
    },
    async stop() {
      unsubscribe?.();
      looking.cancel();
      following?.stop();
      await work.settled();
    },
  };
}

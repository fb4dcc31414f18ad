import type { Logger } from 'pino';
import { coalescing, retryingAfterFailure, type Retrying } from '../coalescing';
import type { CommandContext } from '../commands/context';
import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import type { ProjectionRuntime } from '../projections/runtime';
import { CheckpointConflict, type ReadStore } from '../projections/read-store';
import { recordErasure } from './erasures';
import { sealedHeader } from './sealed-value';
import type { SubjectKeyStore } from './subject-keys';

const PAGE = 5_000;
/** The read store's checkpoint of the erasures whose documents were folded again. */
const REFOLDED = 'privacy.erasure-refolds';

/**
 * Erases a data subject: records `SubjectErased` (subject, reason; the actor in its metadata) and
 * deletes the subject's keys, after which the log reads its personal data as erased. The process
 * that projects folds the documents that held it again (`erasureFollower`).
 */
export async function eraseSubject(
  context: CommandContext,
  keys: SubjectKeyStore,
  subject: string,
  reason: string,
) {
  const recorded = await recordErasure(context, subject, reason);
  await keys.erase(subject);
  return recorded;
}

/** Whether data holds a value sealed for `subject`. */
function holdsSealedFor(value: unknown, subject: string): boolean {
  if (typeof value === 'string') return sealedHeader(value)?.subject === subject;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((item) => holdsSealedFor(item, subject));
}

/** The positions, up to `until`, of the events holding personal data sealed for `subject`: a scan of the log as stored. */
export async function positionsOfSubject(
  storedEvents: EventStore,
  subject: string,
  until: number,
): Promise<number[]> {
  const positions: number[] = [];
  for (let after = 0; after < until;) {
    const page = await storedEvents.queryLog({ after, until, limit: PAGE });
    positions.push(
      ...page.filter((event) => holdsSealedFor(event.data, subject)).map((event) => event.position),
    );
    if (page.length < PAGE) break;
    after = (page.at(-1) as StoredEvent).position;
  }
  return positions;
}

export interface ErasureFollower {
  start(): void;
  stop(): Promise<void>;
}

/**
 * In the process that projects: for each `SubjectErased` the log records, makes sure the keys are gone
 * (the process that erased may have stopped before), folds again every document that held the
 * subject's personal data, and purges the read store's files; then keeps a checkpoint, so that each
 * erasure is done once, also across restarts.
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
  const work = coalescing(async () => {
    for (;;) {
      const done = (await readStore.checkpoints()).get(REFOLDED) ?? 0;
      const [erasure] = await storedEvents.queryLog({
        module: 'privacy',
        type: 'SubjectErased',
        after: done,
        limit: 1,
      });
      if (!erasure) return;
      const { subject } = erasure.data as { subject: string };
      await subjectKeys.erase(subject);
      await runtime.refold(await positionsOfSubject(storedEvents, subject, erasure.position));
      try {
        await readStore.commit([], new Map([[REFOLDED, { from: done, to: erasure.position }]]));
      } catch (error) {
        // Another process that projects did this erasure too; the next one is read from its checkpoint.
        if (!(error instanceof CheckpointConflict)) throw error;
        continue;
      }
      await readStore.purge();
      logger.info({ subject, position: erasure.position }, 'subject erased: its documents folded again');
    }
  });
  return {
    start() {
      following = retryingAfterFailure(work, (error) => logger.error({ err: error }, 'an erasure failed'));
      unsubscribe = storedEvents.onAppended(following.run);
      following.run();
    },
    async stop() {
      unsubscribe?.();
      following?.stop();
      await work.settled();
    },
  };
}

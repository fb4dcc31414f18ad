import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { CommandContext } from '../commands/context';
import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import { followLogInBatches } from '../events/log-follower';
import type { ProjectionRuntime } from '../projections/runtime';
import { CheckpointConflict, type ReadStore } from '../projections/read-store';
import { recordErasure } from './erasures';
import { sealedKeyIds } from './personal-data';
import { requireKnownSubject } from './subjects';
import type { SubjectKeyStore } from './subject-keys';

/** How often at most the log is looked at for new erasures: an erasure reaches the read models within a second. */
const FOLLOWING_INTERVAL_MS = 250;
/** The read store's checkpoint of the erasures whose documents were folded again. */
export const REFOLDED = 'privacy.erasure-refolds';
/** The lease a process that follows erasures holds while it runs: `suite erase` waits for it, or does the work. */
export const FOLLOWING_LEASE = 'privacy.erasure-follower';
/** How long the lease is held, and how often it is renewed: a process gone this long follows nothing. */
const LEASE_MS = 3_000;
const RENEW_MS = 1_000;
/** How often a process waiting for an erasure to be done looks at the checkpoint. */
const DONE_POLL_MS = 25;
/** Erasures done together at most: one fold and one purge serve them all. */
const ERASURES_AT_ONCE = 100;

/**
 * Erases a data subject the suite holds a record of (else `unknown_subject`, nothing recorded):
 * records `SubjectErased` (subject, reason; the actor in its metadata), then tombstones the subject
 * and deletes its keys, after which the log reads its personal data as erased and no key is given to
 * it again. The process that projects folds the documents that held it again (`erasureFollower`):
 * the erasure is done once it has (`erasureDone`). Two stores, no transaction: the erasure is
 * recorded first and the follower tombstones the subject again for every erasure in the log, so a
 * crash in between delays the deletion and never loses it. Answers the erasure's id and its position
 * in the log.
 */
export async function eraseSubject(
  context: CommandContext,
  keys: SubjectKeyStore,
  subject: string,
  reason: string,
): Promise<{ id: number; position: number }> {
  await requireKnownSubject(context.eventStore, subject);
  const { id, outcome } = await recordErasure(context, subject, reason);
  await keys.erase(subject);
  return { id, position: (outcome.events[0] as StoredEvent).position };
}

/**
 * Resolves once the erasure at `position` is done: some process that projects folded again every
 * document that held the subject's data and purged the read store's files. False after `timeoutMs`.
 */
export async function erasureDone(
  readStore: ReadStore,
  position: number,
  timeoutMs: number,
): Promise<boolean> {
  for (const started = Date.now(); ;) {
    if (((await readStore.checkpoints()).get(REFOLDED) ?? 0) >= position) return true;
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, DONE_POLL_MS));
  }
}

/**
 * The events, up to `until`, holding personal data sealed for any of `subjects` (their positions, in
 * log order), and the keys it was sealed under, by subject: found by the log's index of subjects to
 * events, so the work is the subjects' events, not the log.
 */
export async function sealedForSubjects(
  storedEvents: EventStore,
  subjects: ReadonlySet<string>,
  until: number,
): Promise<{ positions: number[]; keyIds: Map<string, Set<string>> }> {
  const positions = new Set<number>();
  for (const subject of subjects) {
    for (const position of await storedEvents.subjectPositions(subject, until)) positions.add(position);
  }
  const keyIds = new Map<string, Set<string>>();
  for (const position of positions) {
    const event = await storedEvents.eventAt(position);
    for (const [subject, ids] of sealedKeyIds(event?.data ?? null) ?? []) {
      if (!subjects.has(subject)) continue;
      const all = keyIds.get(subject) ?? new Set<string>();
      for (const id of ids) all.add(id);
      keyIds.set(subject, all);
    }
  }
  return { positions: [...positions].sort((a, b) => a - b), keyIds };
}

export interface ErasureFollower {
  start(): void;
  stop(): Promise<void>;
}

/**
 * In each process that projects: for each `SubjectErased` the log records after it started (or after
 * the erasures some process did before it), this process forgets the subject's keys and tombstones it
 * (the process that erased may have stopped before, and a key handed to it may still be kept as a
 * spare), then folds again every document that held the subject's personal data, up to the head of
 * the log after it forgot them, and purges the read store's files; then moves the shared checkpoint,
 * which the erasure's answer waits for. Writes sealed under a key this process still remembered are
 * in the log before that head: their documents are among those folded again (the fold runs after the
 * catch-up under way, in turn with it), and what is projected after it reads the keys as gone. It
 * looks for erasures at most every FOLLOWING_INTERVAL_MS, and holds FOLLOWING_LEASE while it runs.
 */
export function erasureFollower(services: {
  storedEvents: EventStore;
  readStore: ReadStore;
  runtime: ProjectionRuntime;
  subjectKeys: SubjectKeyStore;
  logger: Logger;
  holder?: string;
}): ErasureFollower {
  const { storedEvents, readStore, runtime, subjectKeys, logger } = services;
  const holder = services.holder ?? `erasure-follower-${process.pid}-${randomUUID()}`;
  const lease = (until: number) => readStore.lease(FOLLOWING_LEASE, holder, Date.now(), until);

  /** Moves the shared checkpoint to `position`, unless another process moved it there already. */
  async function markDone(position: number): Promise<number> {
    for (;;) {
      const done = (await readStore.checkpoints()).get(REFOLDED) ?? 0;
      if (done >= position) return position;
      try {
        await readStore.commit([], new Map([[REFOLDED, { from: done, to: position }]]));
        return position;
      } catch (error) {
        if (!(error instanceof CheckpointConflict)) throw error;
      }
    }
  }

  /** The erasures found at once are done together: one scan of the log, one fold, one purge. */
  async function erase(erasures: StoredEvent[]): Promise<void> {
    const subjects = new Set(erasures.map((erasure) => (erasure.data as { subject: string }).subject));
    for (const subject of subjects) await subjectKeys.erase(subject);
    const until = await storedEvents.headPosition();
    const { positions, keyIds } = await sealedForSubjects(storedEvents, subjects, until);
    for (const [subject, ids] of keyIds) await subjectKeys.erase(subject, ids);
    await runtime.refold(positions);
    await readStore.purge();
    logger.info(
      { subjects: [...subjects], position: (erasures.at(-1) as StoredEvent).position },
      'subjects erased: their documents folded again',
    );
  }

  // How far this process looked and found no erasure: the next look starts there, not at the last
  // erasure done, so that it reads what is new instead of the whole log since then.
  let lookedUntil = 0;
  async function erasuresAfter(after: number, limit: number): Promise<StoredEvent[]> {
    const until = await storedEvents.headPosition();
    const found = await storedEvents.queryLog({
      module: 'privacy',
      type: 'SubjectErased',
      after: Math.max(after, lookedUntil),
      until,
      limit,
    });
    if (found.length === 0) lookedUntil = until;
    return found;
  }

  return followLogInBatches({
    log: storedEvents,
    wakeEveryMs: FOLLOWING_INTERVAL_MS,
    checkpoint: {
      load: async () => (await readStore.checkpoints()).get(REFOLDED) ?? 0,
      save: markDone,
    },
    read: erasuresAfter,
    batchSize: ERASURES_AT_ONCE,
    handle: erase,
    heartbeat: {
      take: () => lease(Date.now() + LEASE_MS),
      release: () =>
        lease(0).then(
          () => undefined,
          () => undefined,
        ),
      everyMs: RENEW_MS,
    },
    onError: (error) => logger.error({ err: error }, 'an erasure failed'),
  });
}

/**
 * Whether a process follows erasures now (it holds FOLLOWING_LEASE, renewed while it runs): asked by
 * taking the lease for a moment, and letting it go at once when it was free.
 */
export async function followedElsewhere(readStore: ReadStore): Promise<boolean> {
  const probe = `erasure-probe-${process.pid}-${randomUUID()}`;
  const now = Date.now();
  if (!(await readStore.lease(FOLLOWING_LEASE, probe, now, now + LEASE_MS))) return true;
  await readStore.lease(FOLLOWING_LEASE, probe, now, now);
  return false;
}

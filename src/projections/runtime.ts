import type { EventStore } from '../events/event-store';
import { followLog } from '../events/log-follower';
import type { StoredEvent } from '../events/envelope';
import { batchFolder, changesOf, documentKey, type Documents, type FoldedBatch } from './batch-fold';
import { PARKED_EVENTS, listParkedEvents, type ParkedEvent } from './parked-events';
import type { Projector } from './projection';
import { CheckpointConflict, UnstorableDocument, type CheckpointMove, type ReadStore } from './read-store';
import { changedDefinitions, recordDefinitions } from './read-model-definitions';
import { refoldDocumentsOf, retryParkedEvents, type RetryOutcome } from './retry-parked';
import { continuingTraces, inSpan } from '../telemetry/tracing';

/** How far the read models are: what writers and readers wait on. */
export interface ProjectionProgress {
  /** The position every projector has passed. */
  position(): number;
  /**
   * Resolves once every projector has passed `position`; after `timeoutMs`, rejects with
   * ProjectionTimeout, and once the runtime is stopped, with ProjectionStopped.
   */
  waitFor(position: number, timeoutMs?: number): Promise<void>;
  /** `degraded` while events are parked or the last catch-up failed; `ok` otherwise. */
  status(): 'ok' | 'degraded';
  /** How many events are parked (as of the last commit, or the last look at the store). */
  parkedCount(): number;
}

export class ProjectionTimeout extends Error {
  constructor(readonly position: number) {
    super(`The read models did not reach position ${position} in time`);
    this.name = 'ProjectionTimeout';
  }
}

export class ProjectionStopped extends Error {
  constructor(readonly position: number) {
    super(`The read models stopped before reaching position ${position}`);
    this.name = 'ProjectionStopped';
  }
}

export interface ProjectionRuntime extends ProjectionProgress {
  /** Catches up from the checkpoints, then follows the log live. */
  start(): Promise<void>;
  /**
   * Follows the checkpoints another process (the projector role) writes, without projecting:
   * `waitFor` then tells when that process has passed a position.
   */
  follow(pollMs: number): Promise<void>;
  /**
   * Drops all read models and rebuilds them from the log, to its head or up to `until`: a runtime that
   * does not follow the log (`suite rebuild`'s, into a scratch store).
   */
  rebuild(onProgress?: (position: number, head: number) => void, until?: number): Promise<void>;
  /**
   * Applies the parked events again (only the one at `position`, when given), after a fix or an
   * upcaster: each document they touch is folded again from the log, and what still fails stays parked.
   */
  retryParked(position?: number): Promise<RetryOutcome>;
  /**
   * Folds again from the log every document the events at `positions` went into (an erased subject's:
   * the log reads its personal data as erased now). Runs between catch-ups, like a retry.
   */
  refold(positions: readonly number[]): Promise<void>;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  /** A catch-up that failed (a store out of reach); it runs again after a while. */
  onError(error: unknown): void;
  /** An event a projection could not apply: parked, and the projection went on. */
  onParked?(parked: ParkedEvent): void;
  /**
   * The event as projections read it (its type's current schema version), from the event as stored.
   * An event that cannot be upcast is parked. Default: the events are read as they come.
   */
  upcast?(event: StoredEvent): StoredEvent;
  /**
   * Each projector's fingerprint (`definitionFingerprints`). Given, `start` first rebuilds the read
   * models when a projector's differs from the one recorded with them, and records them.
   */
  definitions?: ReadonlyMap<string, string>;
  /** The projectors whose definition changed, as `start` begins rebuilding the read models. */
  onRebuilding?(projectors: readonly string[]): void;
}

/** Each projector's checkpoint from `starts` to `last`; one already past it (ahead of the others) stays. */
function checkpointMoves(starts: ReadonlyMap<string, number>, last: number): Map<string, CheckpointMove> {
  return new Map([...starts].map(([name, from]) => [name, { from, to: Math.max(from, last) }]));
}

interface RefoldRequest {
  positions: readonly number[];
  resolve(): void;
  reject(error: unknown): void;
}

interface RetryRequest {
  position?: number;
  resolve(outcome: RetryOutcome): void;
  reject(error: unknown): void;
}

interface Waiter {
  position: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * One pass over the global feed serves every projector: each event goes to the projectors whose
 * checkpoint it is past, and the changed documents are written with the new checkpoints in one commit.
 * A projection that cannot apply an event (it throws, or the event cannot be upcast, or the document
 * it makes cannot be stored) parks it, in the same commit, and goes on: no event stops the read models.
 */
export function createProjectionRuntime(
  eventStore: EventStore,
  readStore: ReadStore,
  projectors: readonly Projector[],
  options: RuntimeOptions,
): ProjectionRuntime {
  const { onError, onParked, definitions } = options;
  const upcast = options.upcast ?? ((event: StoredEvent) => event);
  const checkpoints = new Map<string, number>();
  /** Documents a commit failed on because the store could not store them (see `FoldContext`). */
  const suspects = new Set<string>();
  const foldBatch = batchFolder({
    eventStore,
    readStore,
    projectors,
    checkpoints,
    suspects,
    upcast,
    onParked,
  });
  let position = 0;
  let parked = 0;
  let failing = false;
  let waiters: Waiter[] = [];
  let followTimer: NodeJS.Timeout | null = null;
  let retries: RetryRequest[] = [];
  let refolds: RefoldRequest[] = [];

  async function loadCheckpoints(): Promise<void> {
    const stored = await readStore.checkpoints();
    for (const projector of projectors) checkpoints.set(projector.name, stored.get(projector.name) ?? 0);
    position = Math.min(...checkpoints.values());
    await countParked();
  }

  async function countParked(): Promise<void> {
    parked = (await listParkedEvents(readStore, { limit: 1, offset: 0 })).total;
  }

  /**
   * Commits a batch once the commit before it (`after`) is done, moving each projector's checkpoint as
   * `moves` says; the position then moves to the batch's last event.
   */
  async function commitBatch(
    batch: FoldedBatch,
    moves: ReadonlyMap<string, CheckpointMove>,
    after: Promise<void>,
  ): Promise<void> {
    await readStore.commit(changesOf(batch), moves, after);
    for (const [name, { to }] of moves) checkpoints.set(name, to);
    position = batch.last;
    if (batch.parked.length > 0) await countParked();
  }

  /**
   * Reads and folds each batch while the one before is being committed (a store that commits off the
   * event loop then works in parallel), and hands it over before that commit is done, so that the store
   * prepares it meanwhile: serializing a batch on the main thread had kept a rebuild's writer thread
   * idle (3.5 s of a 1M-event rebuild, 0.6 s since). Commits stay in order, the next batch is folded
   * once only the one just handed over is unwritten, and the position only moves once its commit is done.
   */
  async function catchUpBatches(onProgress?: (position: number) => void, until = Infinity): Promise<void> {
    let read = position;
    // Where each projector's checkpoint is once the commits handed over are done.
    let starts: ReadonlyMap<string, number> = new Map(checkpoints);
    let unwritten: Documents = new Map();
    let committing = Promise.resolve();
    for (;;) {
      const folded = await foldBatch(read, until, unwritten);
      if (folded.last === read) break;
      read = folded.last;
      const moves = checkpointMoves(starts, folded.last);
      starts = new Map([...moves].map(([name, { to }]) => [name, to]));
      const previous = committing;
      committing = continuingTraces(
        'projection.batch',
        [...folded.traceparents],
        {
          startTime: folded.startedAt,
          attributes: {
            'suite.events': folded.events,
            'suite.position': folded.last,
            'suite.parked_events': folded.parked.length,
          },
        },
        () => commitBatch(folded, moves, previous),
      ).then(() => {
        onProgress?.(position);
        releaseWaiters();
      });
      // Its failure, or the one before's, is thrown where the loop (or the end) waits for it.
      committing.catch(() => undefined);
      await previous;
      unwritten = folded.documents;
    }
    await committing;
  }

  /**
   * Catches up; a commit that failed on a document it could not store is folded again from the last
   * commit, this time asking about that document after each event, so that the event to blame is parked.
   * A commit whose checkpoints another process moved (it projected the same events) wrote nothing: the
   * catch-up goes on from where that process got to.
   */
  async function catchUp(onProgress?: (position: number) => void, until = Infinity): Promise<void> {
    for (;;) {
      try {
        await catchUpBatches(onProgress, until);
        failing = false;
        return;
      } catch (error) {
        if (error instanceof CheckpointConflict) {
          await loadCheckpoints();
          releaseWaiters();
          continue;
        }
        const key = error instanceof UnstorableDocument && documentKey(error.collection, error.id);
        if (!key || suspects.has(key)) {
          failing = true;
          throw error;
        }
        suspects.add(key);
      }
    }
  }

  function releaseWaiters(): void {
    const ready = waiters.filter((waiter) => waiter.position <= position);
    if (ready.length === 0) return;
    waiters = waiters.filter((waiter) => waiter.position > position);
    for (const waiter of ready) waiter.resolve();
  }

  /**
   * Retries and refolds asked for, then a catch-up: one at a time, so that they never write the same
   * documents at once. A failure fails the writers waiting: a projector that cannot apply an event
   * must not leave them waiting forever.
   */
  async function work(): Promise<void> {
    try {
      await refoldsRetriesAndCatchUp();
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
      waiters = [];
      throw error;
    }
  }

  async function refoldsRetriesAndCatchUp(): Promise<void> {
    const refolding = refolds;
    refolds = [];
    for (const { positions, resolve, reject } of refolding) {
      try {
        await refoldDocumentsOf({ eventStore, readStore, projectors, checkpoints, upcast }, positions);
        resolve();
      } catch (error) {
        reject(error);
      }
    }
    const asked = retries;
    retries = [];
    for (const { position: at, resolve, reject } of asked) {
      try {
        const outcome = await retryParkedEvents(
          { eventStore, readStore, projectors, checkpoints, upcast },
          at,
        );
        await countParked();
        resolve(outcome);
      } catch (error) {
        reject(error);
      }
    }
    await catchUp();
  }

  /** Runs `work` on each commit and after a failure; a catch-up asked for during another runs once more after it. */
  const following = followLog({ log: eventStore, catchUp: work, onError });

  function waitingFor(target: number, timeoutMs?: number): Promise<void> {
    if (target <= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { position: target, resolve, reject };
      waiters.push(waiter);
      if (timeoutMs === undefined) return;
      const timer = setTimeout(() => {
        waiters = waiters.filter((other) => other !== waiter);
        reject(new ProjectionTimeout(target));
      }, timeoutMs);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      waiter.reject = (error) => {
        clearTimeout(timer);
        reject(error);
      };
    });
  }

  async function rebuild(onProgress?: (position: number, head: number) => void, until?: number) {
    await readStore.reset(projectors.map((projector) => projector.name));
    if (definitions) await recordDefinitions(readStore, definitions);
    await readStore.defineCollections([PARKED_EVENTS]);
    await loadCheckpoints();
    const head = Math.min(await eventStore.headPosition(), until ?? Infinity);
    await catchUp((at) => onProgress?.(at, head), head);
  }

  /** Rebuilds the read models if a projector's definition changed since they were built; records them. */
  async function keepDefinitions(fingerprints: ReadonlyMap<string, string>) {
    const changed = await changedDefinitions(readStore, fingerprints);
    if (changed.length === 0) return recordDefinitions(readStore, fingerprints);
    options.onRebuilding?.(changed);
    await rebuild();
  }

  return {
    async start() {
      await readStore.defineCollections([PARKED_EVENTS]);
      if (definitions) await keepDefinitions(definitions);
      await loadCheckpoints();
      await following.catchUp();
      // From where the catch-up ended: what another process commits before the subscription is up counts.
      following.start(position);
    },
    async follow(pollMs) {
      await readStore.defineCollections([PARKED_EVENTS]);
      const poll = async () => {
        await loadCheckpoints();
        releaseWaiters();
      };
      await poll();
      followTimer = setInterval(() => void poll().catch(onError), pollMs);
    },
    waitFor(target, timeoutMs) {
      return inSpan('projection.wait', { attributes: { 'suite.position': target } }, () =>
        waitingFor(target, timeoutMs),
      );
    },
    rebuild,
    retryParked(at) {
      return new Promise<RetryOutcome>((resolve, reject) => {
        retries.push({ position: at, resolve, reject });
        following.catchUp().catch(reject);
      });
    },
    refold(positions) {
      return new Promise<void>((resolve, reject) => {
        refolds.push({ positions, resolve, reject });
        following.catchUp().catch(reject);
      });
    },
    position: () => position,
    status: () => (parked > 0 || failing ? 'degraded' : 'ok'),
    parkedCount: () => parked,
    async stop() {
      if (followTimer) clearInterval(followTimer);
      await following.stop();
      // Nothing moves the position any more: what still waits (a job waiting for another process's
      // projector) fails now rather than holding the stop up.
      for (const waiter of waiters) waiter.reject(new ProjectionStopped(waiter.position));
      waiters = [];
    },
  };
}

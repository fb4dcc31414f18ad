import { coalescing, retryingAfterFailure, throttled } from '../coalescing';
import type { StoredEvent } from './envelope';
import type { EventStore } from './event-store';

/*
 * Every follower of the log goes through here: the projection runtime and the log tree (catch-ups of
 * their own, `followLog`), the erasure follower, the job triggers and the Kafka relay (batches from a
 * checkpoint, `followLogInBatches`). A new one names its checkpoint, how it reads and handles a batch.
 */

/** The longest a follower waits for a commit it was not told of: notifications can be missed. */
export const FALLBACK_POLL_MS = 1_000;

/** A lease shared by the followers of several processes (the read store's, for instance). */
export interface FollowerLease {
  /** Takes the lease, or renews it, for its term; false while another holder has it. */
  take(): Promise<boolean>;
  /** Lets it go, so that another process need not wait for its term to end. */
  release(): Promise<void>;
}

export interface FollowOptions {
  /** The log whose commits wake the follower up. */
  log: Pick<EventStore, 'onAppended'>;
  /** A commit wakes the follower at most this often (for a catch-up that costs a look at a store); default: at each. */
  wakeEveryMs?: number;
  /** It also catches up this often, whatever it is told: a notification can be missed. */
  pollMs?: number;
  /** The first wait before a failed catch-up runs again; it doubles with each failure in a row. */
  retryDelayMs?: number;
  /**
   * Of the followers of several processes, only the one holding this lease follows, taking it at each
   * catch-up (the poll must come within its term to keep it); the others wait to take over. A follower
   * that finds it held elsewhere forgets its position, and reads it again once the lease is its own.
   */
  exclusive?: FollowerLease;
  /** A lease held while the follower runs, renewed every `everyMs` and let go on stop: others can tell it runs. */
  heartbeat?: FollowerLease & { everyMs: number };
  /** A catch-up that failed; it runs again in `retryInMs` (none: a retry already waits). */
  onError(error: unknown, retryInMs?: number): void;
}

export interface LogFollower {
  /**
   * Follows the log: catches up after each commit, every poll and after a failure, and now; or, given
   * `after` (where a catch-up just ended), on the first commit past it instead of now. A catch-up runs
   * at a time: asked for meanwhile, one more runs after it.
   */
  start(after?: number): void;
  /** Catches up now (or, while one runs, once more after it); resolves once done, rejects if it failed. */
  catchUp(): Promise<void>;
  /** Asks for a catch-up as a commit does. */
  wake(): void;
  /** Stops following; resolves once the catch-up under way, told of the stop by its signal, is over. */
  stop(): Promise<void>;
}

/** Where a follower keeps how far it handled the log. */
export interface FollowerCheckpoint {
  /** The position of the last event handled; 0 when none. */
  load(): Promise<number>;
  /** Remembers `position`; answers the position to go on from (another process may have moved it). */
  save(position: number): Promise<number>;
}

export interface BatchOptions {
  checkpoint: FollowerCheckpoint;
  /** The events to handle after `after`, in log order, at most `limit`: `readAll`, or a query of some. */
  read(after: number, limit: number): Promise<StoredEvent[]>;
  batchSize: number;
  /**
   * Handles a batch; the next is read once it is done, and the checkpoint saved after it. A failure
   * leaves the position where it was: the batch is handled again on the retry. `signal` aborts on
   * stop, for work that may be abandoned (a publish: its batch is handled again after a restart).
   */
  handle(events: StoredEvent[], signal: AbortSignal): Promise<void>;
}

/**
 * A follower whose catch-up is its own (several checkpoints, a pipeline of commits): woken up on each
 * commit, by a poll and after a failure, one catch-up at a time, stopped once the one under way ends.
 */
export function followLog(
  options: FollowOptions & { catchUp(signal: AbortSignal): Promise<void> },
): LogFollower {
  return follow(options, options.catchUp, () => undefined);
}

/**
 * A follower that reads the log batch after batch from its checkpoint, up to the end, handles each
 * batch (one at a time: the next is read once it is handled) and saves the checkpoint after it.
 * The position is read from the checkpoint at the first catch-up and kept in memory after.
 */
export function followLogInBatches(options: FollowOptions & BatchOptions): LogFollower {
  const { checkpoint, read, batchSize, handle } = options;
  let position: number | undefined;
  return follow(
    options,
    async (signal) => {
      position ??= await checkpoint.load();
      for (;;) {
        const events = await read(position, batchSize);
        const last = events.at(-1);
        if (!last || signal.aborted) return;
        await handle(events, signal);
        position = await checkpoint.save(last.position);
      }
    },
    () => (position = undefined),
  );
}

function follow(
  options: FollowOptions,
  catchUp: (signal: AbortSignal) => Promise<void>,
  forgetPosition: () => void,
): LogFollower {
  const { log, exclusive, heartbeat } = options;
  const stopping = new AbortController();
  const work = coalescing(async () => {
    if (exclusive && !(await exclusive.take())) return forgetPosition();
    await catchUp(stopping.signal);
  });
  const retrying = retryingAfterFailure(
    work,
    (error, retryInMs) => {
      if (!stopping.signal.aborted) options.onError(error, retryInMs);
    },
    options.retryDelayMs,
  );
  const wakeUps = options.wakeEveryMs === undefined ? null : throttled(options.wakeEveryMs, retrying.run);
  const wake = wakeUps ? wakeUps.request : retrying.run;
  const timers: NodeJS.Timeout[] = [];
  let unsubscribe: (() => void) | null = null;
  const beat = () => void heartbeat?.take().catch(() => false);

  return {
    start(after) {
      if (unsubscribe) return;
      unsubscribe = log.onAppended(wake, after);
      // While a retry waits, it stands for the poll.
      const poll = () => retrying.waiting() || wake();
      timers.push(setInterval(poll, options.pollMs ?? FALLBACK_POLL_MS).unref());
      if (heartbeat) {
        beat();
        timers.push(setInterval(beat, heartbeat.everyMs).unref());
      }
      if (after === undefined) retrying.run();
    },
    catchUp: () => work(),
    wake,
    async stop() {
      stopping.abort();
      unsubscribe?.();
      wakeUps?.cancel();
      for (const timer of timers) clearInterval(timer);
      retrying.stop();
      await work.settled();
      if (unsubscribe) await Promise.all([exclusive?.release(), heartbeat?.release()]);
    },
  };
}

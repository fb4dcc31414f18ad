import { coalescing, retryingAfterFailure, type Retrying } from '../coalescing';
import { readAllUntil, type EventStore } from '../events/event-store';
import { streamModule, type StoredEvent } from '../events/envelope';
import type { DocumentProjection, Projector } from './projection';
import type { Document, DocumentChange, DocumentId, ReadStore } from './read-store';

/** How far the read models are: what writers and readers wait on. */
export interface ProjectionProgress {
  /** The position every projector has passed. */
  position(): number;
  /**
   * Resolves once every projector has passed `position`; after `timeoutMs`, rejects with
   * ProjectionTimeout, and once the runtime is stopped, with ProjectionStopped.
   */
  waitFor(position: number, timeoutMs?: number): Promise<void>;
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
  /** Drops all read models and rebuilds them from the log, to its head or up to `until`. */
  rebuild(onProgress?: (position: number, head: number) => void, until?: number): Promise<void>;
  stop(): Promise<void>;
}

interface Waiter {
  position: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Events applied per read-store commit when catching up. Large: the FTS index costs less per
 * document in fewer, bigger commits (a rebuild spends most of its time committing). Rebuilding 1M
 * events in batches of 20,000 took 13.6 s; of 50,000, 12.1 s, with the peak RSS 443 MB -> 521 MB.
 */
export const BATCH_SIZE = 50_000;
/**
 * Events read and folded at a time within a batch. Small, so that a page's events die young: read
 * 20,000 at a time, they outlived V8's young generation and were copied twice on their way to the old
 * one (folding a 1M-event log took 9.4 s, 6.3 s in pages of 2,000).
 */
const PAGE_SIZE = 2_000;

/**
 * One pass over the global feed serves every projector: each event goes to the projectors whose
 * checkpoint it is past, and the changed documents are written with the new checkpoints in one commit.
 */
export function createProjectionRuntime(
  eventStore: EventStore,
  readStore: ReadStore,
  projectors: readonly Projector[],
  onError: (error: unknown) => void,
): ProjectionRuntime {
  const checkpoints = new Map<string, number>();
  const handlersByModule = handlersOf(projectors);
  let position = 0;
  let unsubscribe: (() => void) | null = null;
  let following: Retrying | null = null;
  let waiters: Waiter[] = [];
  let followTimer: NodeJS.Timeout | null = null;

  async function loadCheckpoints(): Promise<void> {
    const stored = await readStore.checkpoints();
    for (const projector of projectors) checkpoints.set(projector.name, stored.get(projector.name) ?? 0);
    position = Math.min(...checkpoints.values());
  }

  /**
   * Reads and folds up to a batch of events after `after` into the last state of each document they
   * touch. `unwritten` holds the documents of the batch before, whose commit may still be under way:
   * their state there wins over the store's.
   */
  async function foldBatch(after: number, until: number, unwritten: Documents): Promise<FoldedBatch> {
    const batch: FoldedBatch = { last: after, documents: new Map(), touched: new Map() };
    for (let read = 0; read < BATCH_SIZE;) {
      const asked = Math.min(PAGE_SIZE, BATCH_SIZE - read);
      const events = await readAllUntil(eventStore, batch.last, asked, until);
      if (events.length === 0) break;
      await foldPage(events, batch, unwritten);
      read += events.length;
      batch.last = (events[events.length - 1] as StoredEvent).position;
      // A short page is the head (or `until`): a live write's batch ends without another read.
      if (events.length < asked) break;
    }
    return batch;
  }

  async function foldPage(events: StoredEvent[], batch: FoldedBatch, unwritten: Documents): Promise<void> {
    // First which documents the page touches, to load those the batch does not hold yet with one call
    // per collection; then the events are folded in order without waiting on the store.
    const steps: { projection: DocumentProjection; event: StoredEvent; id: DocumentId }[] = [];
    const wanted = new Map<string, Set<DocumentId>>();
    for (const event of events) {
      const module = streamModule(event.stream);
      const handlers = handlersByModule.get(module)?.get(event.type);
      if (!handlers || event.position <= (checkpoints.get(module) ?? 0)) continue;
      for (const projection of handlers) {
        const id = projection.documentId(event);
        steps.push({ projection, event, id });
        if (batch.documents.get(projection.collection)?.has(id)) continue;
        let ids = wanted.get(projection.collection);
        if (!ids) wanted.set(projection.collection, (ids = new Set()));
        ids.add(id);
      }
    }
    for (const [collection, ids] of wanted) {
      let docs = batch.documents.get(collection);
      if (!docs) batch.documents.set(collection, (docs = new Map()));
      const pending = unwritten.get(collection);
      const stored = await readStore.load(
        collection,
        [...ids].filter((id) => !pending?.has(id)),
      );
      for (const id of ids)
        docs.set(id, pending?.has(id) ? (pending.get(id) ?? null) : (stored.get(id) ?? null));
    }

    for (const { projection, event, id } of steps) {
      const { collection } = projection;
      const docs = batch.documents.get(collection) as Map<DocumentId, Document | null>;
      docs.set(id, projection.evolve(docs.get(id) ?? null, event));
      let touched = batch.touched.get(collection);
      if (!touched) batch.touched.set(collection, (touched = new Set()));
      touched.add(id);
    }
  }

  /** Commits a batch once the commit before it (`after`) is done; the position then moves to `last`. */
  async function commitBatch(changes: DocumentChange[], last: number, after: Promise<void>): Promise<void> {
    // A projector already past the batch (its checkpoint was ahead of the others') keeps its checkpoint.
    const advanced = new Map(
      projectors.map(({ name }) => [name, Math.max(checkpoints.get(name) ?? 0, last)] as const),
    );
    await readStore.commit(changes, advanced, after);
    for (const [name, at] of advanced) checkpoints.set(name, at);
    position = last;
  }

  /**
   * Reads and folds each batch while the one before is being committed (a store that commits off the
   * event loop then works in parallel), and hands it over before that commit is done, so that the store
   * prepares it meanwhile: serializing a batch on the main thread had kept a rebuild's writer thread
   * idle (3.5 s of a 1M-event rebuild, 0.6 s since). Commits stay in order, the next batch is folded
   * once only the one just handed over is unwritten, and the position only moves once its commit is done.
   */
  async function catchUp(onProgress?: (position: number) => void, until = Infinity): Promise<void> {
    let read = position;
    let unwritten: Documents = new Map();
    let committing = Promise.resolve();
    for (;;) {
      const folded = await foldBatch(read, until, unwritten);
      if (folded.last === read) break;
      read = folded.last;
      const previous = committing;
      committing = commitBatch(changesOf(folded), read, previous).then(() => {
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

  function releaseWaiters(): void {
    const ready = waiters.filter((waiter) => waiter.position <= position);
    if (ready.length === 0) return;
    waiters = waiters.filter((waiter) => waiter.position > position);
    for (const waiter of ready) waiter.resolve();
  }

  const catchUpOnce = coalescing(() => catchUp());

  /** Catches up; a notification during a catch-up makes it run once more. */
  function trigger(): Promise<void> {
    return catchUpOnce().catch((error: unknown) => {
      // A projector that cannot apply an event must not leave writers waiting forever.
      for (const waiter of waiters) waiter.reject(error);
      waiters = [];
      throw error;
    });
  }

  return {
    async start() {
      await loadCheckpoints();
      await trigger();
      following = retryingAfterFailure(trigger, onError);
      unsubscribe = eventStore.onAppended(following.run);
    },
    async follow(pollMs) {
      const poll = async () => {
        await loadCheckpoints();
        releaseWaiters();
      };
      await poll();
      followTimer = setInterval(() => void poll().catch(onError), pollMs);
    },
    waitFor(target, timeoutMs) {
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
    },
    async rebuild(onProgress, until) {
      await catchUpOnce.settled();
      await readStore.reset(projectors.map((projector) => projector.name));
      await loadCheckpoints();
      const head = Math.min(await eventStore.headPosition(), until ?? Infinity);
      await catchUp((at) => onProgress?.(at, head), head);
    },
    position: () => position,
    async stop() {
      unsubscribe?.();
      following?.stop();
      if (followTimer) clearInterval(followTimer);
      await catchUpOnce.settled();
      // Nothing moves the position any more: what still waits (a job waiting for another process's
      // projector) fails now rather than holding the stop up.
      for (const waiter of waiters) waiter.reject(new ProjectionStopped(waiter.position));
      waiters = [];
    },
  };
}

type Documents = Map<string, Map<DocumentId, Document | null>>;

/** By projector name (its module's, which an event's stream names): its projections by event type. */
function handlersOf(projectors: readonly Projector[]): Map<string, Map<string, DocumentProjection[]>> {
  return new Map(
    projectors.map((projector) => {
      const byType = new Map<string, DocumentProjection[]>();
      for (const projection of projector.projections) {
        for (const type of projection.handles) byType.set(type, [...(byType.get(type) ?? []), projection]);
      }
      return [projector.name, byType];
    }),
  );
}

interface FoldedBatch {
  /** The position of the last event folded. */
  last: number;
  /** The last state of every document the batch loaded or touched. */
  documents: Documents;
  /** The ids of the documents the batch changed, by collection. */
  touched: Map<string, Set<DocumentId>>;
}

/** Only the last state of each document is written. */
function changesOf({ touched, documents }: FoldedBatch): DocumentChange[] {
  return [...touched].flatMap(([collection, ids]) =>
    [...ids].map((id) => ({ collection, id, doc: documents.get(collection)?.get(id) ?? null })),
  );
}

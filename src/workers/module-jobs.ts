import { randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Logger } from 'pino';
import type { ModuleJob, ModuleServices, SuiteModule } from '../modules/module';
import type { CommandContext } from '../commands/context';
import { streamModule, type StoredEvent } from '../events/envelope';
import { hashUuid } from '../events/event-ids';
import type { EventStore } from '../events/event-store';
import { followLogInBatches, type FollowerCheckpoint } from '../events/log-follower';
import { CheckpointConflict, type ReadStore } from '../projections/read-store';
import { continuingTraces } from '../telemetry/tracing';

/** The event a job run answers to: its events are caused by it and carry its time. */
export interface JobCause {
  event_id: string;
  position: number;
  occurred_at: string;
  correlation_id: string;
  /** The trace the event was appended in, which the job's run continues (when the process traces). */
  traceparent?: string;
}

/** What travels through the queue: the job's payload and the event that made it due. */
export interface QueuedJob {
  payload: unknown;
  cause: JobCause;
}

const WORKER_ACTOR = 'worker';

/** The triggers' checkpoint and lease live with the read models, under this name. */
const CHECKPOINT = 'jobs';
/**
 * How long the process that queues the jobs holds the triggers' lease without renewing it; it renews it
 * at every catch-up and every third of this. Another worker takes over this long after it stopped.
 */
const LEASE_MS = 15_000;
/** Events read without queueing a job before the checkpoint is saved anyway. */
const SAVE_EVERY = 10_000;
const BATCH_SIZE = 2000;

/**
 * The command context of one job run: the worker as actor, the cause's time and correlation, and
 * event ids derived from the job and its cause, so reruns and other workers produce the same events.
 */
export function jobContext(job: ModuleJob, queued: QueuedJob, services: ModuleServices): CommandContext {
  const runKey = `${job.name}:${canonicalize(queued.payload)}:${queued.cause.event_id}`;
  let eventNumber = 0;
  return {
    eventStore: services.eventStore,
    ids: services.ids,
    clock: { now: () => new Date(queued.cause.occurred_at) },
    eventId: () => hashUuid(`${runKey}:${++eventNumber}`),
    metadata: () => ({
      actor: `${WORKER_ACTOR}:${job.name}`,
      request_id: `job:${hashUuid(runKey)}`,
      correlation_id: queued.cause.correlation_id,
      causation_id: queued.cause.event_id,
      occurred_at: queued.cause.occurred_at,
    }),
  };
}

export const causeOf = (event: StoredEvent): JobCause => ({
  event_id: event.event_id,
  position: event.position,
  occurred_at: event.metadata.occurred_at,
  correlation_id: event.metadata.correlation_id,
  ...(event.metadata.traceparent !== undefined && { traceparent: event.metadata.traceparent }),
});

/** Makes this process a worker for every module job. */
export function processModuleJobs(modules: readonly SuiteModule[], services: ModuleServices): void {
  for (const job of modules.flatMap((module) => module.jobs ?? [])) {
    services.jobs.process(job.name, async (data) => {
      const queued = data as QueuedJob;
      const { cause } = queued;
      const attributes = { 'suite.job': job.name, 'suite.cause.event_id': cause.event_id };
      await continuingTraces(
        `job ${job.name}`,
        [cause.traceparent],
        { kind: 'consumer', attributes },
        async () => {
          const payload = job.payload.parse(queued.payload);
          // The job reads the read models as of its cause at the earliest.
          await services.runtime.waitFor(cause.position);
          await job.run(payload, services, jobContext(job, queued, services));
        },
      );
    });
  }
}

/** The log as stored, and how its events read at their type's current version (which may fail). */
export interface StoredLog {
  events: EventStore;
  upcast(event: StoredEvent): StoredEvent;
}

export interface JobTriggers {
  /**
   * Queues the jobs due for the events up to the head of the log, when this process holds the triggers'
   * lease (or takes it now); then goes on following the log.
   */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface TriggerOptions {
  /** Who holds the lease (default: an id of this process's own). */
  holder?: string;
  /** The lease's clock, in milliseconds since the epoch (default: the system's). */
  now?(): number;
}

/**
 * Follows the log from a checkpoint and queues each module job whose trigger events appeared: one
 * job per distinct payload per batch of events, caused by the last of them. The checkpoint is saved
 * after jobs are queued (and every so many events otherwise), so a crash queues them again at worst:
 * jobs may run again, and give the same result.
 *
 * Of several workers, only the one holding the read store's lease on the triggers queues jobs: batches
 * end wherever a worker's reads happen to, so two of them would queue the same events' jobs under
 * different ids, and each run them. The checkpoint moves by compare-and-set, so a worker whose lease
 * lapsed (paused past it) cannot move it back: its commit fails, and it reads the checkpoint again.
 */
export function followJobTriggers(
  modules: readonly SuiteModule[],
  services: ModuleServices & { readStore: ReadStore; log: StoredLog },
  logger: Logger,
  { holder = `worker-${randomUUID()}`, now = Date.now }: TriggerOptions = {},
): JobTriggers {
  const triggered = modules.filter((module) => module.jobs?.some((job) => job.trigger));
  if (triggered.length === 0) return { catchUp: async () => undefined, stop: async () => undefined };
  /** Where the checkpoint was last saved: what its compare-and-set expects. */
  let saved = 0;
  /** Events read since the checkpoint was last saved (positions are no counts: see ReadAllOptions). */
  let unsaved = 0;
  /** Whether jobs were queued since the checkpoint was last saved. */
  let queued = false;
  let started = false;

  /** Queues the jobs the events make due. */
  async function queueDue(events: readonly StoredEvent[]): Promise<void> {
    const due = new Map<string, { job: ModuleJob; payload: unknown; cause: StoredEvent }>();
    for (const module of triggered) {
      for (const stored of events) {
        if (streamModule(stored.stream) !== module.id) continue;
        for (const job of module.jobs ?? []) {
          if (!job.trigger?.on.includes(stored.type)) continue;
          let payload: unknown;
          try {
            payload = job.trigger.payload(services.log.upcast(stored));
          } catch (error) {
            // An event no job can read (a parked one) queues nothing; the others still do.
            const { position, stream, type } = stored;
            logger.error(
              { err: error, job: job.name, position, stream, type },
              'job trigger skipped an event',
            );
            continue;
          }
          due.set(`${job.name}:${canonicalize(payload)}`, { job, payload, cause: stored });
        }
      }
    }
    for (const [key, { job, payload, cause }] of due) {
      const queuedJob: QueuedJob = { payload, cause: causeOf(cause) };
      await services.jobs.enqueue(job.name, queuedJob, { jobId: `${key}@${cause.position}` });
    }
    unsaved += events.length;
    queued ||= due.size > 0;
  }

  const storedCheckpoint = async () => (await services.readStore.checkpoints()).get(CHECKPOINT) ?? 0;

  const checkpoint: FollowerCheckpoint = {
    async load() {
      unsaved = 0;
      return (saved = await storedCheckpoint());
    },
    async save(to) {
      if (!queued && unsaved < SAVE_EVERY) return to;
      try {
        await services.readStore.commit([], new Map([[CHECKPOINT, { from: saved, to }]]));
        queued = false;
        unsaved = 0;
        return (saved = to);
      } catch (error) {
        if (!(error instanceof CheckpointConflict)) throw error;
        logger.warn({ position: to }, "another worker moved the job triggers' checkpoint: going on from it");
        return (saved = await storedCheckpoint());
      }
    },
  };

  const lease = (until: () => number) => services.readStore.lease(CHECKPOINT, holder, now(), until());
  const triggers = followLogInBatches({
    log: services.eventStore,
    read: (after, limit) => services.log.events.readAll({ after, limit }),
    batchSize: BATCH_SIZE,
    checkpoint,
    handle: queueDue,
    // Another worker queues the jobs while it holds the lease; should it stop, this one takes over.
    exclusive: {
      take: () => lease(() => now() + LEASE_MS),
      release: () =>
        lease(now).then(
          () => undefined,
          (error: unknown) => logger.warn({ err: error }, "the job triggers' lease was not let go"),
        ),
    },
    // The lease is renewed while no event comes, and taken over when its holder has stopped.
    pollMs: LEASE_MS / 3,
    onError: (error) => logger.error({ err: error }, 'job triggers failed'),
  });

  return {
    async catchUp() {
      if (!started) triggers.start();
      started = true;
      await triggers.catchUp();
    },
    stop: () => triggers.stop(),
  };
}

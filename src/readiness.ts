import type { EventStore } from './events/event-store';
import type { ProjectionProgress } from './projections/runtime';
import type { ReadStore } from './projections/read-store';
import type { JobQueue } from './workers/job-queue';

/** Events the read models may lag behind the log while a process answers ready (`SUITE_READY_MAX_LAG`). */
export const DEFAULT_READY_MAX_LAG = 1000;

/** How long one check may take before it counts as failing: a store that does not answer is not reachable. */
export const READY_CHECK_TIMEOUT_MS = 2000;

/** What a process needs to serve; each role names what it has. */
export interface ReadinessSources {
  /** The log as stored: reachable, and what the read models' lag is counted against. */
  eventStore: EventStore;
  readStore?: ReadStore;
  /** The read models this process serves or writes: within `maxLag` events of the log. */
  projections?: ProjectionProgress;
  /** The job queue this process runs jobs from (Redis in the distributed profile). */
  jobs?: JobQueue;
  maxLag: number;
}

/** One check: `ok`, `failing` (with the error), or `lagging` (the read models more than the limit behind). */
export interface CheckReport {
  status: 'ok' | 'failing' | 'lagging';
  [detail: string]: unknown;
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, CheckReport>;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${READY_CHECK_TIMEOUT_MS} ms`)),
      READY_CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function checked(check: () => Promise<CheckReport>): Promise<CheckReport> {
  try {
    return await withinTimeout(check());
  } catch (error) {
    return { status: 'failing', error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Whether this process can serve: its stores answer, and its read models are at most `maxLag` events
 * behind the log (counted by reading at most `maxLag + 1` events past their position). Checks that
 * overlap in time share one run.
 */
export function createReadiness(sources: ReadinessSources): Readiness {
  const { eventStore, readStore, projections, jobs, maxLag } = sources;
  const checks: Record<string, () => Promise<CheckReport>> = {
    event_store: async () => ({ status: 'ok', head_position: await eventStore.headPosition() }),
  };
  if (readStore) {
    checks.read_store = async () => {
      await readStore.checkpoints();
      return { status: 'ok' };
    };
  }
  if (projections) {
    checks.read_models = async () => {
      const behind = await eventStore.readAll({ after: projections.position(), limit: maxLag + 1 });
      return behind.length > maxLag
        ? { status: 'lagging', max_lag_events: maxLag }
        : { status: 'ok', lag_events: behind.length, max_lag_events: maxLag };
    };
  }
  if (jobs) {
    checks.job_queue = async () => {
      await jobs.counts();
      return { status: 'ok' };
    };
  }

  async function run(): Promise<ReadinessReport> {
    const names = Object.keys(checks);
    const reports = await Promise.all(Object.values(checks).map(checked));
    return {
      status: reports.every((report) => report.status === 'ok') ? 'ready' : 'not_ready',
      checks: Object.fromEntries(names.map((name, index) => [name, reports[index] as CheckReport])),
    };
  }

  let running: Promise<ReadinessReport> | null = null;
  return {
    check() {
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
  };
}

import { collectDefaultMetrics, Counter, Gauge, type Registry } from 'prom-client';
import type { EventStore } from './events/event-store';
import type { ProjectionProgress } from './projections/runtime';
import type { JobQueue } from './workers/job-queue';

/** Lags are counted by reading the events past a position, up to this many (reported as this many). */
export const LAG_COUNT_LIMIT = 10_000;

/** What this process can report on; each role passes what it has. */
export interface MetricSources {
  /** The log as stored: lags are counts of its events (read without opening or upcasting them). */
  eventStore: EventStore;
  projections?: ProjectionProgress;
  jobs?: JobQueue;
  /** The position the relay has published up to. */
  relayPosition?: () => number;
  /** Events the relay dead-lettered since it started (the broker could not take them). */
  relayDeadLettered?: () => number;
}

/**
 * Fills the Prometheus registry of one process (where its ports also count their requests): Node's
 * default metrics, the log head, and the lags that tell whether a role keeps up (projector lag, relay
 * lag in events; queue depth by job state).
 */
export function createMetrics(registry: Registry, sources: MetricSources): Registry {
  collectDefaultMetrics({ register: registry });
  const head = () => sources.eventStore.headPosition();
  // Positions need not be dense (EventStoreDB's are log offsets): events are counted, not positions.
  const eventsAfter = async (position: number) =>
    (await sources.eventStore.readAll({ after: position, limit: LAG_COUNT_LIMIT })).length;

  new Gauge({
    name: 'suite_event_log_head_position',
    help: 'Global position of the newest event in the log',
    registers: [registry],
    async collect() {
      this.set(await head());
    },
  });
  const { projections, jobs, relayPosition, relayDeadLettered } = sources;
  if (projections) {
    new Gauge({
      name: 'suite_projector_lag_events',
      help: `Events in the log that the read models do not show yet (counted up to ${LAG_COUNT_LIMIT})`,
      registers: [registry],
      async collect() {
        this.set(await eventsAfter(projections.position()));
      },
    });
    new Gauge({
      name: 'suite_projection_parked_events',
      help: 'Events a projection could not apply, parked (listed by the audit API at /api/v1/projections/parked)',
      registers: [registry],
      collect() {
        this.set(projections.parkedCount());
      },
    });
  }
  if (relayPosition) {
    new Gauge({
      name: 'suite_relay_lag_events',
      help: `Events in the log not yet acknowledged by the broker (counted up to ${LAG_COUNT_LIMIT})`,
      registers: [registry],
      async collect() {
        this.set(await eventsAfter(relayPosition()));
      },
    });
  }
  if (relayDeadLettered) {
    new Counter({
      name: 'suite_relay_dead_lettered_events_total',
      help: 'Events the broker could not take, written to the dead-letter topic instead (docs/KAFKA-TOPICS.md)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(relayDeadLettered());
      },
    });
  }
  if (jobs) {
    new Gauge({
      name: 'suite_job_queue_depth',
      help: 'Jobs by state (waiting, active, delayed, failed)',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        const counts = await jobs.counts();
        for (const state of ['waiting', 'active', 'delayed', 'failed'] as const) {
          this.set({ state }, counts[state]);
        }
      },
    });
  }
  return registry;
}

import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ChangeFeed } from '../changes/change';
import type { Clock } from '../clock';
import type { CommandContext } from '../commands/context';
import type { IdAllocator } from '../commands/ids';
import type { SuiteCatalog } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import type { ReadStore } from '../projections/read-store';
import type { ProjectionProgress } from '../projections/runtime';
import type { Expiring } from '../workers/expiry-sweep';
import type { JobQueue } from '../workers/job-queue';
import type { ModuleId } from './ids';

/** What a module's route handlers and jobs may use; never an adapter. */
export interface ModuleServices {
  eventStore: EventStore;
  /**
   * The log as stored, its personal data sealed: which subjects' data an event holds (a record's
   * activity shows their erasures). Read the events themselves from `eventStore`.
   */
  storedEvents: EventStore;
  readStore: ReadStore;
  runtime: ProjectionProgress;
  jobs: JobQueue;
  ids: IdAllocator;
  clock: Clock;
  logger: Logger;
  /** Every event type's definition: to fold a record's events as its projection does (reads as of a time). */
  catalog: SuiteCatalog;
  /** Each module's change feed, by module id. */
  changes: ReadonlyMap<string, ChangeFeed>;
}

/**
 * Work a worker runs off the request path (market coverage, financial plans). A job appends its
 * result as events; it must give the same result whichever worker runs it, and may run again.
 */
export interface ModuleJob<Payload = unknown> {
  /** Unique across the suite: `<module>.<job>`. */
  name: string;
  payload: z.ZodType<Payload>;
  run(payload: Payload, services: ModuleServices, context: CommandContext): Promise<void>;
  /**
   * The module's events after which the job is due again, and the payload it is due with. Jobs with
   * the same payload that are already waiting are not queued twice.
   */
  trigger?: { on: readonly string[]; payload(event: StoredEvent): Payload };
}

/** A write or another endpoint as its module declares it. */
export interface DeclaredRoute {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Express path, e.g. `/api/v1/leave/:id`. */
  path: string;
  /** `false`: a write that can never wait for an approval. */
  proposable?: false;
}

/**
 * A module as the layers beneath the HTTP API know it: its id, its writes (which an approval policy
 * may hold back) and its jobs. The HTTP API's `ModuleDefinition` is one, with its handlers.
 */
export interface SuiteModule {
  id: ModuleId;
  /** Its audited writes. */
  writes: readonly DeclaredRoute[];
  /** Its other endpoints. */
  routes?: readonly DeclaredRoute[];
  jobs?: readonly ModuleJob[];
  /** What falls due by the clock, not by an event (a request's SLA): the worker's sweep records it. */
  sweeps?: readonly Expiring[];
}

/** A route as its module's description and approval policies name it: `PATCH /api/v1/leave/{id}`. */
export const routeName = (route: Pick<DeclaredRoute, 'method' | 'path'>): string =>
  `${route.method.toUpperCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`;

/** The writes of a module that an approval policy may hold back: its audited writes, and its other writes but those that may never wait. */
export function proposableRoutes(module: SuiteModule): string[] {
  const routes = (module.routes ?? []).filter(
    (route) => route.method !== 'get' && route.proposable !== false,
  );
  return [...module.writes, ...routes].map(routeName);
}

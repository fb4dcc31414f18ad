import path from 'node:path';
import { openSqliteKeyStore } from './privacy/sqlite-key-store';
import type { RandomBytes, SubjectKeyStore } from './privacy/subject-keys';
import type { Config } from './config';
import type { EventStore } from './events/event-store';
import { withHeadPolling } from './events/head-polling';
import { openSqliteEventStore } from './events/sqlite-event-store';
import type { ReadStore } from './projections/read-store';
import { openSqliteReadStore } from './projections/sqlite-read-store';
import { createInProcessJobQueue } from './workers/in-process-job-queue';
import type { JobQueue } from './workers/job-queue';

/* The distributed profile's drivers (EventStoreDB's, MongoDB's, BullMQ's) are loaded only when the
 * configuration names their server: loaded for nothing, they would hold about 30 MB of every process. */
/* eslint-disable @typescript-eslint/no-require-imports */
const esdbEventStore = () =>
  require('./events/esdb-event-store') as typeof import('./events/esdb-event-store');
const mongoReadStore = () =>
  require('./projections/mongo-read-store') as typeof import('./projections/mongo-read-store');
const mongoKeyStore = () =>
  require('./privacy/mongo-key-store') as typeof import('./privacy/mongo-key-store');
const bullMqJobQueue = () =>
  require('./workers/bullmq-job-queue') as typeof import('./workers/bullmq-job-queue');
/* eslint-enable @typescript-eslint/no-require-imports */

/** How often a process polls for what another process wrote to the embedded stores. */
export const POLL_MS = 50;

/**
 * The log named by SUITE_EVENT_STORE. Whoever follows a SQLite log polls its head, since other
 * processes may append to it (the roles of the distributed profile, `suite market import` while
 * `suite start` serves) and no notification crosses the process boundary.
 */
export async function openEventStore(config: Config): Promise<EventStore> {
  // EventStoreDB notifies every process through its `$all` subscription.
  if (config.eventStore !== 'sqlite') return esdbEventStore().openEsdbEventStore(config.eventStore);
  return withHeadPolling(openSqliteEventStore(path.join(config.dataDir, 'events.db')), POLL_MS);
}

/** The read models named by SUITE_READ_STORE; `shared` when other processes write them too. */
export async function openReadStore(config: Config, { shared }: { shared: boolean }): Promise<ReadStore> {
  if (config.readStore !== 'sqlite') return mongoReadStore().openMongoReadStore(config.readStore);
  return openSqliteReadStore(path.join(config.dataDir, 'read-models.db'), {
    shared,
    cacheBytes: config.cacheBytes,
  });
}

/**
 * The data subjects' keys: `keys.db` in the data directory, or, with the read models in MongoDB, the
 * `subject_keys` collection there, which every role of a deployment shares.
 */
export async function openKeyStore(config: Config, randomBytes: RandomBytes): Promise<SubjectKeyStore> {
  if (config.readStore !== 'sqlite') return mongoKeyStore().openMongoKeyStore(config.readStore, randomBytes);
  return openSqliteKeyStore(path.join(config.dataDir, 'keys.db'), randomBytes);
}

/** BullMQ on SUITE_REDIS_URL when set; otherwise jobs run in the process that queues them. */
export function openJobQueue(config: Config, queue?: string): JobQueue {
  return config.redisUrl
    ? bullMqJobQueue().createBullMqJobQueue({ url: config.redisUrl, prefix: config.redisPrefix, queue })
    : createInProcessJobQueue();
}

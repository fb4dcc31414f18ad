import path from 'node:path';
import { openMongoKeyStore } from './privacy/mongo-key-store';
import { openSqliteKeyStore } from './privacy/sqlite-key-store';
import type { RandomBytes, SubjectKeyStore } from './privacy/subject-keys';
import type { Config } from './config';
import type { EventStore } from './events/event-store';
import { openEsdbEventStore } from './events/esdb-event-store';
import { withHeadPolling } from './events/head-polling';
import { openSqliteEventStore } from './events/sqlite-event-store';
import type { ReadStore } from './projections/read-store';
import { openMongoReadStore } from './projections/mongo-read-store';
import { openSqliteReadStore } from './projections/sqlite-read-store';
import { createBullMqJobQueue } from './workers/bullmq-job-queue';
import { createInProcessJobQueue } from './workers/in-process-job-queue';
import type { JobQueue } from './workers/job-queue';

/** How often a process polls for what another process wrote to the embedded stores. */
export const POLL_MS = 50;

/**
 * The log named by SUITE_EVENT_STORE. Whoever follows a SQLite log polls its head, since other
 * processes may append to it (the roles of the distributed profile, `suite market import` while
 * `suite start` serves) and no notification crosses the process boundary.
 */
export async function openEventStore(config: Config): Promise<EventStore> {
  // EventStoreDB notifies every process through its `$all` subscription.
  if (config.eventStore !== 'sqlite') return openEsdbEventStore(config.eventStore);
  return withHeadPolling(openSqliteEventStore(path.join(config.dataDir, 'events.db')), POLL_MS);
}

/** The read models named by SUITE_READ_STORE; `shared` when other processes write them too. */
export async function openReadStore(config: Config, { shared }: { shared: boolean }): Promise<ReadStore> {
  if (config.readStore !== 'sqlite') return openMongoReadStore(config.readStore);
  return openSqliteReadStore(path.join(config.dataDir, 'read-models.db'), {
    shared,
    cacheBytes: config.cacheBytes,
  });
}

/**
 * The data subjects' keys: `keys.db` in the data directory, or, with the read models in MongoDB, the
 * `subject_keys` collection there, which every role of a deployment shares. `seeded`: new keys come
 * from a seeded generator (the demo data), and are written in turn.
 */
export function openKeyStore(
  config: Config,
  randomBytes: RandomBytes,
  { seeded }: { seeded: boolean },
): Promise<SubjectKeyStore> {
  if (config.readStore !== 'sqlite') return openMongoKeyStore(config.readStore, randomBytes);
  const file = path.join(config.dataDir, 'keys.db');
  return Promise.resolve(openSqliteKeyStore(file, randomBytes, { inTurn: seeded }));
}

/** BullMQ on SUITE_REDIS_URL when set; otherwise jobs run in the process that queues them. */
export function openJobQueue(config: Config): JobQueue {
  return config.redisUrl
    ? createBullMqJobQueue({ url: config.redisUrl, prefix: config.redisPrefix })
    : createInProcessJobQueue();
}

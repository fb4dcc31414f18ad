import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { openEventStore, openJobQueue, openKeyStore, openReadStore } from './adapters';
import { withPersonalData } from './privacy/sealing-event-store';
import { erasureFollower, REFOLDED, type ErasureFollower } from './privacy/erase';
import { changeFeed, type FeedSources } from './changes/feed';
import { moduleFeed } from './api/kit/change-feed';
import { privacyCapability } from './privacy/erasures';
import type { RandomBytes, SubjectKeyStore } from './privacy/subject-keys';
import { ensurePrivateDir, warnIfExposed } from './private-files';
import { upgradeDataFiles } from './data-files';
import { resolveSessionSecret } from './api/kit/session-secret';
import { finishingApproved } from './api/kit/proposal-apply';
import { moduleCollections, namedCollections, type ModuleDefinition } from './api/kit/module';
import type { CollectionDefinition } from './projections/read-store';
import { PARKED_EVENTS } from './projections/parked-events';
import { MODULES } from './api/modules';
import { systemClock, type Clock } from './clock';
import { createIdAllocator, type IdAllocator } from './commands/ids';
import type { Config } from './config';
import { suiteCatalog, upcast, type SuiteCatalog } from './events/catalog';
import type { StoredEvent } from './events/envelope';
import type { EventStore } from './events/event-store';
import { withUpcasting } from './events/upcasting';
import { approvalsCapability, proposalExpiry, proposalWithdrawal } from './approvals';
import { approvedProposals, type ApprovedProposals } from './workers/approved-proposals';
import { expirySweep, type ExpirySweep } from './workers/expiry-sweep';
import { iamCapability, keyExpiry } from './iam';
import type { ChangeFeed } from './changes/change';
import {
  DELIVER_JOB,
  WEBHOOK_QUEUE,
  webhookDeliverer,
  webhookDispatch,
  webhooksCapability,
  type WebhookDispatch,
} from './webhooks';
import type { Projector } from './projections/projection';
import type { ReadStore } from './projections/read-store';
import { createProjectionRuntime, type ProjectionRuntime } from './projections/runtime';
import { definitionFingerprints } from './projections/read-model-definitions';
import { Registry } from 'prom-client';
import { createReadiness, type Readiness } from './readiness';
import { createSeedContext } from './seed/context';
import { copyInBusinessTimeOrder } from './seed/chronological';
import { openSqliteEventStore } from './events/sqlite-event-store';
import type { JobQueue } from './workers/job-queue';
import { followJobTriggers, processModuleJobs, type JobTriggers } from './workers/module-jobs';

/**
 * The suite as a process composes it: its stores, the projection runtime and the services its roles
 * start. What a process serves of it is src/serving's.
 */
export interface Suite {
  config: Config;
  modules: readonly ModuleDefinition[];
  /** Every module's event types. */
  catalog: SuiteCatalog;
  /** The log as deciders and projectors read it: events upcast to their current schema version. */
  eventStore: EventStore;
  /** The log exactly as stored (personal data sealed), for verifying it and its proofs. */
  storedEvents: EventStore;
  /** The log as stored, its personal data opened (or read as erased): what auditors are shown. */
  auditEvents: EventStore;
  /** The data subjects' keys. */
  subjectKeys: SubjectKeyStore;
  /** Each module's change feed, by module id. */
  changes: ReadonlyMap<string, ChangeFeed>;
  readStore: ReadStore;
  runtime: ProjectionRuntime;
  jobs: JobQueue;
  /** Queues the module jobs that events make due (the worker role runs them). */
  triggers: JobTriggers;
  /** Records the expiry of API keys and proposals; the process that runs jobs starts it (`startWorker`). */
  expiries: ExpirySweep;
  /** Finishes approved proposals nobody finished (a crash between approval and write); the process that runs jobs starts it. */
  approved: ApprovedProposals;
  /** The webhooks' delivery jobs, in a queue of their own: a slow receiver holds up no module job. */
  webhookJobs: JobQueue;
  /** Queues the webhooks' delivery jobs; the process that runs jobs starts it (`startWebhookDelivery`). */
  webhooks: WebhookDispatch;
  /** Folds again what erased subjects' documents held; the process that projects starts it (`startProjecting`). */
  erasures: ErasureFollower;
  ids: IdAllocator;
  clock: Clock;
  logger: Logger;
  /** The process's Prometheus registry: its ports count their requests there; a role adds its own metrics. */
  metrics: Registry;
  /** Whether the stores answer and the read models keep up with the log (`/readyz`). */
  readiness: Readiness;
  close(): Promise<void>;
}

export interface OpenOptions {
  logger: Logger;
  clock?: Clock;
  modules?: readonly ModuleDefinition[];
  /** Other processes (the roles of the distributed profile) write the same read models. */
  shared?: boolean;
  /** Where new subject keys and IVs come from (default the system's; seeded for the demo data). */
  randomBytes?: RandomBytes;
  /** The log, opened by the caller (a test's model of a server); by default the one the configuration names. */
  storedEvents?: EventStore;
}

/** What the suite keeps in the log besides the modules: API keys, approvals, erasures, webhooks (their stream families by id). */
export const CAPABILITIES = [
  iamCapability,
  approvalsCapability,
  privacyCapability,
  webhooksCapability,
] as const;

/**
 * Every read model of the modules and of the capabilities, the events their projections parked, and
 * the collections the modules' reads join names from where another module (not served here) keeps them.
 */
export function suiteCollections(modules: readonly ModuleDefinition[]): CollectionDefinition[] {
  const own = [
    ...modules.flatMap(moduleCollections),
    ...CAPABILITIES.flatMap((capability) => capability.collections),
    PARKED_EVENTS,
  ];
  const joined = modules
    .flatMap(namedCollections)
    .filter((collection, index, all) => all.findIndex((other) => other.name === collection.name) === index)
    .filter((collection) => !own.some((other) => other.name === collection.name));
  return [...own, ...joined];
}

/** The projectors of the modules and of the capabilities. */
export function suiteProjectors(modules: readonly ModuleDefinition[]): Projector[] {
  return [
    ...modules.map((module) => module.projector),
    ...CAPABILITIES.map((capability) => capability.projector),
  ];
}

/** Each module's change feed over the log, which shows an erasure once its documents are folded again. */
function changeFeeds(
  modules: readonly ModuleDefinition[],
  sources: Omit<FeedSources, 'erasuresDone'> & { readStore: ReadStore },
): Map<string, ChangeFeed> {
  const erasuresDone = async () => (await sources.readStore.checkpoints()).get(REFOLDED) ?? 0;
  return new Map(
    modules.map((module) => [module.id, changeFeed({ ...sources, erasuresDone }, moduleFeed(module))]),
  );
}

/** Opens the stores the configuration names (SQLite files in the data directory by default) and the projection runtime. */
export async function openSuite(config: Config, options: OpenOptions): Promise<Suite> {
  warnIfExposed(config.dataDir, options.logger);
  ensurePrivateDir(config.dataDir);
  upgradeDataFiles(config.dataDir, options.logger);
  const modules = options.modules ?? MODULES;
  const catalog = suiteCatalog([...modules, ...CAPABILITIES]);
  const random = options.randomBytes ?? randomBytes;
  const subjectKeys = await openKeyStore(config, random);
  const storedEvents = options.storedEvents ?? (await openEventStore(config));
  const auditEvents = withPersonalData(storedEvents, catalog, subjectKeys);
  const eventStore = withUpcasting(auditEvents, catalog);
  const readStore = await openReadStore(config, { shared: options.shared === true });
  const collections = suiteCollections(modules);
  await readStore.defineCollections(collections);
  const log = { events: auditEvents, upcast: (event: StoredEvent) => upcast(catalog, event) };
  const projectors = suiteProjectors(modules);
  const runtime = createProjectionRuntime(auditEvents, readStore, projectors, {
    onError: (error) => options.logger.error({ err: error }, 'projection failed'),
    onParked: (parked) => options.logger.error({ parked }, 'event parked: a projection could not apply it'),
    upcast: log.upcast,
    definitions: definitionFingerprints(projectors, collections),
    onRebuilding: (changed) =>
      options.logger.info(
        { projectors: changed },
        `read models ${changed.join(', ')} changed definition: rebuilding`,
      ),
  });
  const jobs = openJobQueue(config);
  const clock = options.clock ?? systemClock;
  const services = {
    eventStore,
    storedEvents,
    readStore,
    runtime,
    jobs,
    ids: createIdAllocator(eventStore),
    clock,
    logger: options.logger,
    catalog,
    changes: changeFeeds(modules, { events: eventStore, storedEvents, catalog, readStore, clock }),
  };
  const triggers = followJobTriggers(modules, { ...services, log }, options.logger);
  const expiries = expirySweep(services, [
    keyExpiry,
    proposalExpiry,
    proposalWithdrawal,
    ...modules.flatMap((module) => module.sweeps ?? []),
  ]);
  const approved = approvedProposals(
    services,
    finishingApproved(modules, () => ({
      apiToken: config.apiToken,
      sessionSecret: resolveSessionSecret(config),
      proposalTtlSeconds: config.proposalTtlSeconds,
    })),
  );
  const webhookJobs = openJobQueue(config, WEBHOOK_QUEUE);
  const webhooks = webhookDispatch({ ...services, jobs: webhookJobs });
  const erasures = erasureFollower({ storedEvents, readStore, runtime, subjectKeys, logger: options.logger });
  const readiness = createReadiness({
    eventStore: storedEvents,
    readStore,
    projections: runtime,
    maxLag: config.readyMaxLag,
  });
  return {
    ...services,
    metrics: new Registry(),
    readiness,
    expiries,
    approved,
    webhookJobs,
    webhooks,
    erasures,
    config,
    modules,
    catalog,
    storedEvents,
    auditEvents,
    subjectKeys,
    triggers,
    async close() {
      await erasures.stop();
      await expiries.stop();
      await approved.stop();
      await webhooks.stop();
      await triggers.stop();
      // Before the jobs: a job still waiting for the read models (a worker role's, for the projector
      // role) then fails and is queued again, where it would have held the queue's close up.
      await runtime.stop();
      await jobs.close();
      await webhookJobs.close();
      await eventStore.close();
      await readStore.close();
      await subjectKeys.close();
    },
  };
}

/** Makes this process the one that projects: the read models catch up and follow the log, erasures included. */
export async function startProjecting(suite: Suite): Promise<void> {
  await suite.runtime.start();
  suite.erasures.start();
}

/** Runs the jobs the log makes due: queues them as their trigger events show, and works the queue. */
export async function startJobs(suite: Suite): Promise<void> {
  processModuleJobs(suite.modules, suite);
  await suite.triggers.catchUp();
}

/**
 * Makes this process the suite's worker: the jobs events make due, the sweeps of what the clock makes
 * due (expiries, the service desk's SLA), the follower of approved proposals, and the webhooks' delivery.
 */
export async function startWorker(suite: Suite): Promise<void> {
  await startJobs(suite);
  await suite.expiries.start();
  await suite.approved.start();
  await startWebhookDelivery(suite);
}

/**
 * Makes this process deliver the webhooks (with its jobs: in-process, or BullMQ's on the worker role),
 * from each module's change feed (or the ones given).
 */
export async function startWebhookDelivery(
  suite: Suite,
  feeds: ReadonlyMap<string, ChangeFeed> = suite.changes,
): Promise<void> {
  const deliverer = webhookDeliverer({
    ...suite,
    feeds,
    serverSecret: resolveSessionSecret(suite.config),
    allowPrivate: suite.config.webhookAllowPrivate,
  });
  suite.webhookJobs.process(DELIVER_JOB, (data) => deliverer.deliver((data as { webhook: string }).webhook));
  await suite.webhooks.start();
}

/** Resolves once the read models show every event, and the jobs those events made due have run. */
export async function settle(suite: Suite): Promise<void> {
  for (;;) {
    const head = await suite.eventStore.headPosition();
    await suite.triggers.catchUp();
    await suite.jobs.idle();
    await suite.runtime.waitFor(head);
    if ((await suite.eventStore.headPosition()) === head) return;
  }
}

/** The modules in the order their demo data is written: each after those whose records its own names. */
function inSeedOrder(modules: readonly ModuleDefinition[]): ModuleDefinition[] {
  const ordered: ModuleDefinition[] = [];
  const place = (module: ModuleDefinition) => {
    if (ordered.includes(module)) return;
    for (const id of module.seedAfter ?? []) {
      const before = modules.find((other) => other.id === id);
      if (before) place(before);
    }
    ordered.push(module);
  };
  modules.forEach(place);
  return ordered;
}

/**
 * Writes every module's demo data into an empty store. Each module's seed tells its own story over the
 * same months, so they are written one after another into a scratch log (sealed with the suite's keys),
 * then copied into the suite's log in business-time order, each event recorded at its time: the demo
 * reads as a suite that recorded things as they happened. Returns false when the store held events.
 */
export async function seedDemoData(suite: Suite, seed: string): Promise<boolean> {
  if ((await suite.eventStore.headPosition()) > 0) return false;
  const scratchDir = mkdtempSync(path.join(tmpdir(), 'suite-demo-'));
  const scratch = openSqliteEventStore(path.join(scratchDir, 'events.db'));
  try {
    const written = withUpcasting(withPersonalData(scratch, suite.catalog, suite.subjectKeys), suite.catalog);
    const ids = createIdAllocator(written);
    for (const module of inSeedOrder(suite.modules)) {
      await module.seed?.(createSeedContext(written, ids, `${seed}:${module.id}`));
    }
    await copyInBusinessTimeOrder(scratch, suite.storedEvents);
  } finally {
    await scratch.close();
    rmSync(scratchDir, { recursive: true, force: true });
  }
  return true;
}

import { randomBytes } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Logger } from 'pino';
import { openEventStore, openJobQueue, openKeyStore, openReadStore } from './adapters';
import { withPersonalData } from './privacy/sealing-event-store';
import { erasureFollower, type ErasureFollower } from './privacy/erase';
import { privacyCapability } from './privacy/erasures';
import type { RandomBytes, SubjectKeyStore } from './privacy/subject-keys';
import { createAuditApp } from './api/audit';
import { ensurePrivateDir, warnIfExposed } from './private-files';
import { upgradeDataFiles } from './data-files';
import { createModuleApp } from './api/kit/app';
import { consoleBuilt, createConsoleApp } from './api/console';
import { allowingOrigins } from './api/kit/cors';
import { guardedPort, portSecurity } from './api/kit/port-guard';
import type { PageKind } from './api/kit/security-headers';
import { loggingObserver, served } from './api/kit/observation';
import { createAuthThrottle } from './api/kit/auth-throttle';
import { createIdentity, type Identity } from './api/kit/identity';
import { resolveSessionSecret } from './api/kit/session-secret';
import { finishingApproved } from './api/kit/proposal-apply';
import { moduleCollections, type ModuleDefinition, type ModuleSettings } from './api/kit/module';
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
import { iamCapability, keyAuthenticator, keyExpiry } from './iam';
import { createOidcAuthenticator } from './iam/oidc';
import { connectionAccepted } from './projections/one-per-turn';
import type { Projector } from './projections/projection';
import type { ReadStore } from './projections/read-store';
import { createProjectionRuntime, type ProjectionRuntime } from './projections/runtime';
import { definitionFingerprints } from './projections/read-model-definitions';
import { Registry } from 'prom-client';
import { createMetrics } from './metrics';
import { serveMetrics } from './api/kit/metrics-port';
import { createReadiness, type Readiness } from './readiness';
import { logTree, type LogTree } from './log-proofs/log-tree';
import { resolveLogSigner } from './log-proofs/signing-key';
import { openSqliteTreeStore, treeStoreFile } from './log-proofs/tree-store';
import { createSeedContext } from './seed/context';
import { seedInChildProcess } from './seed/in-child-process';
import type { JobQueue } from './workers/job-queue';
import { followJobTriggers, processModuleJobs, type JobTriggers } from './workers/module-jobs';

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
  readStore: ReadStore;
  runtime: ProjectionRuntime;
  jobs: JobQueue;
  /** Queues the module jobs that events make due (the worker role runs them). */
  triggers: JobTriggers;
  /** Records the expiry of API keys and proposals; the process that runs jobs starts it (`startWorker`). */
  expiries: ExpirySweep;
  /** Finishes approved proposals nobody finished (a crash between approval and write); the process that runs jobs starts it. */
  approved: ApprovedProposals;
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

/** What the suite keeps in the log besides the modules: API keys, approvals, erasures (their stream families by id). */
export const CAPABILITIES = [iamCapability, approvalsCapability, privacyCapability] as const;

/** Every read model of the modules and of the capabilities, and the events their projections parked. */
export function suiteCollections(modules: readonly ModuleDefinition[]): CollectionDefinition[] {
  return [
    ...modules.flatMap(moduleCollections),
    ...CAPABILITIES.flatMap((capability) => capability.collections),
    PARKED_EVENTS,
  ];
}

/** The projectors of the modules and of the capabilities. */
export function suiteProjectors(modules: readonly ModuleDefinition[]): Projector[] {
  return [
    ...modules.map((module) => module.projector),
    ...CAPABILITIES.map((capability) => capability.projector),
  ];
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
  const services = {
    eventStore,
    readStore,
    runtime,
    jobs,
    ids: createIdAllocator(eventStore),
    clock: options.clock ?? systemClock,
    logger: options.logger,
  };
  const triggers = followJobTriggers(modules, { ...services, log }, options.logger);
  const expiries = expirySweep(services, [keyExpiry, proposalExpiry, proposalWithdrawal]);
  const approved = approvedProposals(
    services,
    finishingApproved(modules, () => ({
      apiToken: config.apiToken,
      sessionSecret: resolveSessionSecret(config),
      proposalTtlSeconds: config.proposalTtlSeconds,
    })),
  );
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
      await triggers.stop();
      // Before the jobs: a job still waiting for the read models (a worker role's, for the projector
      // role) then fails and is queued again, where it would have held the queue's close up.
      await runtime.stop();
      await jobs.close();
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

/** Makes this process the suite's worker: it queues the jobs events make due and runs them. */
export async function startWorker(suite: Suite): Promise<void> {
  processModuleJobs(suite.modules, suite);
  await suite.triggers.catchUp();
  await suite.expiries.start();
  await suite.approved.start();
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

/** Writes every module's demo data into an empty store. Returns false when the store held events. */
export async function seedDemoData(suite: Suite, seed: string): Promise<boolean> {
  if ((await suite.eventStore.headPosition()) > 0) return false;
  for (const module of suite.modules) {
    await module.seed?.(createSeedContext(suite.eventStore, suite.ids, `${seed}:${module.id}`));
  }
  return true;
}

export interface RunningSuite {
  suite: Suite;
  servers: Server[];
  stop(): Promise<void>;
}

export function listen(handler: RequestListener, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.on('connection', connectionAccepted);
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * Serves one of the suite's ports (a module's, the audit API's, the console's) on the configured
 * host, behind its guard: hosts the suite does not answer for are refused, and every answer carries
 * the security headers of what the port serves.
 */
export function servePort(
  handler: RequestListener,
  port: number,
  config: Config,
  kind: PageKind = 'api',
): Promise<Server> {
  return listen(guardedPort(handler, portSecurity(config, kind)), port, config.host);
}

/**
 * Who the process's bearer credentials name: the bootstrap tokens, the API keys of the read model
 * (`suite keys create`), and the identity provider's tokens when one is configured.
 */
export function processIdentity(config: Config, suite: Suite): Identity {
  const keys = keyAuthenticator(suite.readStore, resolveSessionSecret(config), suite.clock);
  const oidc = config.oidc ? [createOidcAuthenticator(config.oidc)] : [];
  return createIdentity({
    apiToken: config.apiToken,
    auditToken: config.auditToken,
    authenticators: [keys, ...oidc],
    federated: config.oidc !== undefined,
  });
}

/**
 * What every module's app takes from the configuration: its secrets, the identity, the rate limits
 * and the access options. Its failed-authentication throttle is the one every port of the process
 * shares. Read-only, no credential is taken: writes (and whatever needs a credential) answer 503.
 */
export function moduleSettings(
  config: Config,
  identity: Identity,
  { readOnly = false } = {},
): ModuleSettings {
  return {
    apiToken: readOnly ? undefined : config.apiToken,
    identity: readOnly ? createIdentity({}) : identity,
    sessionSecret: resolveSessionSecret(config),
    writeRateLimit: config.writeRateLimit,
    authThrottle: createAuthThrottle(config.authFailureLimit),
    reads: config.reads,
    secureCookies: config.cookieSecure,
    proposalTtlSeconds: config.proposalTtlSeconds,
  };
}

/** How long a start waits for the tree's start-up check before serving (a large log is checked meanwhile). */
const TREE_CHECK_WAIT_MS = 1_000;

/**
 * The Merkle tree over the log and its signed checkpoints, kept in the data directory by the one
 * process that follows the log for it (`suite start`, or the auditor role). Resolves once the tree
 * has checked the log against its latest checkpoint, or after TREE_CHECK_WAIT_MS: the check reads the
 * whole log, and a start is not held up by the size of the log.
 */
export async function startLogTree(suite: Suite): Promise<LogTree> {
  const { config } = suite;
  const tree = logTree({
    eventStore: suite.storedEvents,
    store: openSqliteTreeStore(treeStoreFile(config.dataDir)),
    signer: resolveLogSigner(config),
    origin: config.logOrigin,
    clock: suite.clock,
    logger: suite.logger,
  });
  tree.start();
  let waiting: NodeJS.Timeout | undefined;
  await Promise.race([
    tree.checked(),
    new Promise((resolve) => (waiting = setTimeout(resolve, TREE_CHECK_WAIT_MS))),
  ]);
  clearTimeout(waiting);
  return tree;
}

export interface StartOptions extends OpenOptions {
  /** Serve the read models as they are (a point-in-time copy from `suite replay`): no seed, no projection, no writes. */
  readOnly?: boolean;
}

/** Stops accepting connections; resolves once open requests are done (or, interrupting, ended). */
export function closeServer(
  server: Server,
  { interruptActive }: { interruptActive: boolean },
): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    if (interruptActive) server.closeAllConnections();
    else server.closeIdleConnections();
  });
}

/**
 * `suite start`: seed an empty store (unless SUITE_SEED=none), catch up the read models, serve every
 * module and the audit API.
 */
export async function startSuite(config: Config, options: StartOptions): Promise<RunningSuite> {
  const suite = await openSuite(config, options);
  const { logger } = suite;
  const readOnly = options.readOnly === true;
  if (!readOnly) {
    if (config.seed !== 'none' && (await suite.eventStore.headPosition()) === 0) {
      await seedInChildProcess(config.dataDir, config.seed);
      logger.info({ seed: config.seed }, 'demo data written');
    }
    await startProjecting(suite);
    await startWorker(suite);
    await settle(suite);
  }
  // Read-only serves a copy of the read models: no tree is kept, and the proof routes answer 503.
  const tree = readOnly ? undefined : await startLogTree(suite);
  const identity = processIdentity(config, suite);
  const settings = moduleSettings(config, identity, { readOnly });
  const apiToken = settings.apiToken;
  createMetrics(suite.metrics, {
    eventStore: suite.storedEvents,
    projections: suite.runtime,
    jobs: suite.jobs,
  });
  const metricsPort = {
    port: config.metricsPort,
    host: config.host,
    role: 'suite',
    security: portSecurity(config, 'api'),
  };
  const servers: Server[] = [await serveMetrics(suite.metrics, suite.readiness, metricsPort)];
  for (const module of suite.modules) {
    const port = config.ports[module.id];
    const app = allowingOrigins(config.consoleOrigins, createModuleApp(module, suite, settings));
    servers.push(await servePort(app, port, config));
    logger.info(
      { module: module.id, url: `http://${config.host}:${port}/api/` },
      `${module.title} listening`,
    );
  }
  const audit = await servePort(
    allowingOrigins(
      config.consoleOrigins,
      createAuditApp({ ...suite, logTree: tree }, config.auditToken, settings.authThrottle, identity),
    ),
    config.auditPort,
    config,
  );
  logger.info({ url: `http://${config.host}:${config.auditPort}/api/` }, 'Audit API listening');
  if (consoleBuilt()) {
    const targets = { modules: suite.modules, ports: config.ports, auditPort: config.auditPort };
    servers.push(
      await servePort(
        served(createConsoleApp(targets, logger), {
          readiness: suite.readiness,
          observer: loggingObserver(logger),
        }),
        config.consolePort,
        config,
        'console',
      ),
    );
    logger.info({ url: `http://${config.host}:${config.consolePort}/` }, 'Console listening');
  } else {
    logger.warn('the console is not built (npm run build): it is not served');
  }
  if (readOnly) logger.warn('read-only: serving the read models as they are; writes answer 503');
  else if (!apiToken) logger.warn('SUITE_API_TOKEN is not set: writes answer 503');
  if (!config.auditToken) logger.warn('SUITE_AUDIT_TOKEN is not set: the audit API answers 503');
  return {
    suite,
    servers: [...servers, audit],
    async stop() {
      // Writes in flight finish; the audit API's live tails are ended.
      await Promise.all([
        ...servers.map((server) => closeServer(server, { interruptActive: false })),
        closeServer(audit, { interruptActive: true }),
      ]);
      await tree?.stop();
      await suite.close();
    },
  };
}

import type { Server } from 'node:http';
import { POLL_MS } from '../adapters';
import { createAuditApp } from '../api/audit';
import { createModuleApp } from '../api/kit/app';
import { createConsoleApp, servingFiles } from '../api/console';
import { allowingOrigins } from '../api/kit/cors';
import { portSecurity } from '../api/kit/port-guard';
import { loggingObserver, served } from '../api/kit/observation';
import type { ModuleDefinition } from '../api/kit/module';
import path from 'node:path';
import { ConfigError, type Config } from '../config';
import { openSuite, startProjecting, startWorker, type OpenOptions, type Suite } from '../main';
import { startLogTree } from './log-tree';
import { moduleSettings, processIdentity } from './port-settings';
import { closeServer, servePort } from './ports';
import { createMetrics } from '../metrics';
import { serveMetrics } from '../api/kit/metrics-port';
import { createReadiness } from '../readiness';
import { runRelay } from '../workers/relay';
import { fileRelayCheckpoint } from '../workers/relay-checkpoint-file';
import type { Logger } from 'pino';

/** The relay's position, kept apart from the read models (a rebuild must not republish the log). */
const RELAY_CHECKPOINT_FILE = 'relay-checkpoint.json';

/** A role of the distributed profile, running in this process until stopped. */
export interface RunningRole {
  suite: Suite;
  servers: Server[];
  stop(): Promise<void>;
}

/** Where a role serves its metrics and probes. */
const metricsPort = (config: Config, role: string) => ({
  port: config.metricsPort,
  host: config.host,
  role,
  security: portSecurity(config, 'api'),
});

/** `live`: servers whose open requests (the audit API's live tails) are ended on stop, not awaited. */
function running(
  suite: Suite,
  servers: Server[],
  stopRole?: () => Promise<void>,
  live: Server[] = [],
): RunningRole {
  return {
    suite,
    servers: [...servers, ...live],
    async stop() {
      await Promise.all([
        ...servers.map((server) => closeServer(server, { interruptActive: false })),
        ...live.map((server) => closeServer(server, { interruptActive: true })),
      ]);
      await stopRole?.();
      await suite.close();
    },
  };
}

/**
 * `suite api --module <id>`: serves the modules' APIs. Reads come from read models another process
 * (the projector) writes; a write answers at once with `X-Event-Position`, and a read that sends it
 * back as `X-Min-Position` waits until the projector has passed it.
 */
export async function startApiRole(
  config: Config,
  modules: readonly ModuleDefinition[],
  options: OpenOptions,
): Promise<RunningRole> {
  const suite = await openSuite(config, { ...options, modules, shared: true });
  await suite.runtime.follow(POLL_MS);
  createMetrics(suite.metrics, {
    eventStore: suite.storedEvents,
    projections: suite.runtime,
    jobs: suite.jobs,
  });
  const services = { ...suite, readYourWrites: false };
  const settings = moduleSettings(config, processIdentity(config, suite));
  const servers: Server[] = [await serveMetrics(suite.metrics, suite.readiness, metricsPort(config, 'api'))];
  for (const module of modules) {
    const app = allowingOrigins(config.consoleOrigins, createModuleApp(module, services, settings));
    servers.push(await servePort(app, config.ports[module.id], config));
    suite.logger.info({ module: module.id, port: config.ports[module.id] }, `api role: ${module.title}`);
  }
  return running(suite, servers);
}

/**
 * `suite auditor`: serves the audit API, and keeps the Merkle tree over the log and its signed
 * checkpoints in its data directory (one instance: it is the log's only signer).
 */
export async function startAuditorRole(config: Config, options: OpenOptions): Promise<RunningRole> {
  const suite = await openSuite(config, { ...options, shared: true });
  await suite.runtime.follow(POLL_MS);
  const tree = await startLogTree(suite);
  const identity = processIdentity(config, suite);
  const { authThrottle } = moduleSettings(config, identity);
  createMetrics(suite.metrics, { eventStore: suite.storedEvents, projections: suite.runtime });
  const server = await serveMetrics(suite.metrics, suite.readiness, metricsPort(config, 'auditor'));
  const audit = await servePort(
    allowingOrigins(
      config.consoleOrigins,
      createAuditApp({ ...suite, logTree: tree }, config.auditToken, authThrottle, identity),
    ),
    config.auditPort,
    config,
  );
  suite.logger.info({ port: config.auditPort, origin: config.logOrigin }, 'auditor role');
  return running(suite, [server], () => tree.stop(), [audit]);
}

/**
 * `suite console`: serves the console, which talks to the module ports and the audit API from the
 * browser (they allow its origin, SUITE_CONSOLE_ORIGINS). It opens no store: it serves files.
 */
export async function startConsoleRole(
  config: Config,
  modules: readonly ModuleDefinition[],
  logger: Logger,
): Promise<{ servers: Server[]; stop(): Promise<void> }> {
  const targets = { modules, ports: config.ports, auditPort: config.auditPort };
  const app = served(createConsoleApp(targets, logger), {
    readiness: servingFiles,
    observer: loggingObserver(logger),
  });
  const server = await servePort(app, config.consolePort, config, 'console');
  logger.info({ url: `http://${config.host}:${config.consolePort}/` }, 'console role');
  return { servers: [server], stop: () => closeServer(server, { interruptActive: false }) };
}

/** `suite projector`: keeps every read model up to date with the log. */
export async function startProjectorRole(config: Config, options: OpenOptions): Promise<RunningRole> {
  const suite = await openSuite(config, { ...options, shared: true });
  await startProjecting(suite);
  createMetrics(suite.metrics, { eventStore: suite.storedEvents, projections: suite.runtime });
  const server = await serveMetrics(suite.metrics, suite.readiness, metricsPort(config, 'projector'));
  suite.logger.info(
    { position: suite.runtime.position(), metricsPort: config.metricsPort },
    'projector role',
  );
  return running(suite, [server]);
}

/**
 * `suite worker`: queues the jobs the log makes due and runs them (with SUITE_REDIS_URL, any number
 * of workers share the BullMQ queue). Jobs read the read models the projector writes.
 */
export async function startWorkerRole(config: Config, options: OpenOptions): Promise<RunningRole> {
  const suite = await openSuite(config, { ...options, shared: true });
  await suite.runtime.follow(POLL_MS);
  await startWorker(suite);
  createMetrics(suite.metrics, {
    eventStore: suite.storedEvents,
    projections: suite.runtime,
    jobs: suite.jobs,
  });
  // A worker also needs its queue: Redis, in the distributed profile.
  const readiness = createReadiness({
    eventStore: suite.storedEvents,
    readStore: suite.readStore,
    projections: suite.runtime,
    jobs: suite.jobs,
    maxLag: config.readyMaxLag,
  });
  const server = await serveMetrics(suite.metrics, readiness, metricsPort(config, 'worker'));
  suite.logger.info(
    { metricsPort: config.metricsPort, queue: config.redisUrl ? 'bullmq' : 'in-process' },
    'worker role',
  );
  return running(suite, [server]);
}

/**
 * `suite relay`: publishes every committed event to Kafka (topic per module, key = stream), saving
 * its position in the data directory only after the broker acknowledged (at-least-once).
 */
export async function startRelayRole(config: Config, options: OpenOptions): Promise<RunningRole> {
  if (!config.kafkaBrokers)
    throw new ConfigError('suite relay needs SUITE_KAFKA_BROKERS (host:port[,host:port...])');
  const suite = await openSuite(config, { ...options, shared: true });
  // Loaded only here: kafkajs is needed by no other role.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const kafka = require('../workers/kafka-publisher') as typeof import('../workers/kafka-publisher');
  const publisher = await kafka.openKafkaPublisher({ brokers: config.kafkaBrokers, logger: suite.logger });
  const checkpoint = fileRelayCheckpoint(path.join(config.dataDir, RELAY_CHECKPOINT_FILE));
  let published = await checkpoint.load();
  let deadLettered = 0;
  createMetrics(suite.metrics, {
    eventStore: suite.storedEvents,
    relayPosition: () => published,
    relayDeadLettered: () => deadLettered,
  });
  // The relay reads the log alone: no read model of its own to keep up.
  const readiness = createReadiness({ eventStore: suite.storedEvents, maxLag: config.readyMaxLag });
  const server = await serveMetrics(suite.metrics, readiness, metricsPort(config, 'relay'));
  const stopping = new AbortController();
  const relay = runRelay({
    eventStore: suite.auditEvents,
    publisher,
    checkpoint,
    logger: suite.logger,
    signal: stopping.signal,
    onPublished: (position) => {
      published = position;
    },
    onDeadLettered: (events) => {
      deadLettered += events.length;
    },
  });
  suite.logger.info({ brokers: config.kafkaBrokers, from: published }, 'relay role');
  return running(suite, [server], async () => {
    stopping.abort();
    await relay;
    await publisher.close();
  });
}

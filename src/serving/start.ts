import type { Server } from 'node:http';
import { createAuditApp } from '../api/audit';
import { createModuleApp } from '../api/kit/app';
import { consoleBuilt, createConsoleApp } from '../api/console';
import { allowingOrigins } from '../api/kit/cors';
import { portSecurity } from '../api/kit/port-guard';
import { loggingObserver, served } from '../api/kit/observation';
import type { Config } from '../config';
import { openSuite, settle, startProjecting, startWorker, type OpenOptions, type Suite } from '../main';
import { createMetrics } from '../metrics';
import { serveMetrics } from '../api/kit/metrics-port';
import { seedInChildProcess } from '../seed/in-child-process';
import { startLogTree } from './log-tree';
import { moduleSettings, processIdentity } from './port-settings';
import { closeServer, servePort } from './ports';

export interface RunningSuite {
  suite: Suite;
  servers: Server[];
  stop(): Promise<void>;
}

export interface StartOptions extends OpenOptions {
  /** Serve the read models as they are (a point-in-time copy from `suite replay`): no seed, no projection, no writes. */
  readOnly?: boolean;
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

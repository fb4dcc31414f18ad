import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuditApp } from '../../src/api/audit';
import { createModuleApp } from '../../src/api/kit/app';
import { createAuthThrottle } from '../../src/api/kit/auth-throttle';
import { createIdentity, type Identity } from '../../src/api/kit/identity';
import { createLogger } from '../../src/api/kit/logging';
import type { ModuleSettings } from '../../src/api/kit/module';
import { loadConfig } from '../../src/config';
import type { LogTree } from '../../src/log-proofs/log-tree';
import { openSuite, seedDemoData, settle, startProjecting, startWorker, type Suite } from '../../src/main';
import { startLogTree } from '../../src/serving/log-tree';
import { closeServer, listen } from '../../src/serving/ports';
import { tempDir } from './temp-dir';

export const API_TOKEN = 'contract-api-token-0001';
export const AUDIT_TOKEN = 'contract-audit-token-001';
/** A valid credential holding no role: what a 403 takes. */
export const ROLELESS_TOKEN = 'contract-roleless-key-01';
export const SESSION_SECRET = 'contract-session-secret-0000000001';

/**
 * The same suite served three ways: as configured (tokens set, no throttle), unconfigured (no token:
 * what needs a credential answers 503) and throttled (one failed authentication per address).
 */
export type Deployment = 'configured' | 'unconfigured' | 'throttled';

export interface ContractSuite {
  suite: Suite;
  /** Base URL of each API (the ten modules by id, and `audit`) in each deployment. */
  base: Record<Deployment, Record<string, string>>;
  stop(): Promise<void>;
}

const IDENTITY: Identity = createIdentity({
  apiToken: API_TOKEN,
  auditToken: AUDIT_TOKEN,
  authenticators: [
    async (token) =>
      token === ROLELESS_TOKEN ? { id: 'key:roleless', kind: 'key', roles: [], person: 'roleless' } : null,
  ],
});

function settingsOf(deployment: Deployment): ModuleSettings {
  const configured = { apiToken: API_TOKEN, identity: IDENTITY, sessionSecret: SESSION_SECRET };
  if (deployment === 'configured') return configured;
  if (deployment === 'unconfigured') return { sessionSecret: SESSION_SECRET, apiToken: undefined };
  return { ...configured, authThrottle: createAuthThrottle({ capacity: 1, refillPerSecond: 1e-6 }) };
}

/** Serves each module and the audit API of the suite, in one deployment, on ports the system picks. */
async function serve(suite: Suite, tree: LogTree, deployment: Deployment) {
  const settings = settingsOf(deployment);
  const apps: [string, RequestListener][] = suite.modules.map((module) => [
    module.id,
    createModuleApp(module, suite, settings),
  ]);
  const auditToken = deployment === 'unconfigured' ? undefined : AUDIT_TOKEN;
  const identity = deployment === 'unconfigured' ? createIdentity({}) : IDENTITY;
  apps.push([
    'audit',
    createAuditApp({ ...suite, logTree: tree }, auditToken, settings.authThrottle, identity),
  ]);
  const servers = await Promise.all(apps.map(([, app]) => listen(app, 0, '127.0.0.1')));
  // The client closes an idle connection first: a server closing it as a request goes out resets that
  // request, which a busy machine (timers late) makes likely.
  for (const server of servers) server.keepAliveTimeout = 60_000;
  const base = Object.fromEntries(
    apps.map(([id], index) => {
      const { port } = (servers[index] as Server).address() as AddressInfo;
      return [id, `http://127.0.0.1:${port}`];
    }),
  );
  return { base, servers };
}

/** The whole suite in this process on a temporary data directory with the demo data, projected and served. */
export async function startContractSuite(): Promise<ContractSuite> {
  const { dir, cleanup } = tempDir('suite-contract-');
  const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
  const suite = await openSuite(config, { logger: createLogger('silent') });
  await seedDemoData(suite, 'demo');
  await startProjecting(suite);
  await startWorker(suite);
  await settle(suite);
  const tree = await startLogTree(suite);
  const deployments = await Promise.all(
    (['configured', 'unconfigured', 'throttled'] as const).map(async (deployment) => [
      deployment,
      await serve(suite, tree, deployment),
    ]),
  );
  const served = Object.fromEntries(deployments) as Record<Deployment, Awaited<ReturnType<typeof serve>>>;
  return {
    suite,
    base: {
      configured: served.configured.base,
      unconfigured: served.unconfigured.base,
      throttled: served.throttled.base,
    },
    async stop() {
      const servers = Object.values(served).flatMap((deployment) => deployment.servers);
      await Promise.all(servers.map((server) => closeServer(server, { interruptActive: true })));
      await tree.stop();
      await suite.close();
      cleanup();
    },
  };
}

import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createAuditApp } from '../../src/api/audit';
import { clmModule } from '../../src/api/clm';
import { cmsModule } from '../../src/api/cms';
import { crmModule } from '../../src/api/crm';
import { esmModule } from '../../src/api/esm';
import { hrmModule } from '../../src/api/hrm';
import { createModuleApp } from '../../src/api/kit/app';
import { keyCredentials } from './key-credentials';
import type { ModuleDefinition } from '../../src/api/kit/module';
import { lmsModule } from '../../src/api/lms';
import { mailModule } from '../../src/api/mail';
import { loadConfig } from '../../src/config';
import { openSuite, startProjecting, type Suite } from '../../src/main';
import { SERVER_SECRET } from './esm-harness';

/**
 * The running suite of the erasure model (issue 49): every module that declares personal data, on the
 * embedded stores of one data directory, each served on a port of its own, with the audit API; every
 * line the suite logs (the request log included) is kept in `RequestLog`.
 */

export const TOKEN = 'erasure-model-token-0001';
export const AUDIT_TOKEN = 'erasure-model-audit-01';
export const WORKSPACE = 'ws-model';

const { identity, credential } = keyCredentials(TOKEN, AUDIT_TOKEN);
export const clerk = credential('model-clerk', ['hrm:writer']);
export const approver = credential('model-approver', ['hrm:approver', 'hrm:writer']);
export const admin = { Authorization: `Bearer ${TOKEN}` };
export const auditor = { Authorization: `Bearer ${AUDIT_TOKEN}` };
/** What a read of the contract module names besides a credential: its workspace. */
export const clmReader = { ...admin, 'X-Svc-Organisation': WORKSPACE };

/** The modules whose events declare personal data. */
export const PERSONAL_MODULES: readonly ModuleDefinition[] = [
  hrmModule,
  esmModule,
  crmModule,
  lmsModule,
  cmsModule,
  mailModule,
  clmModule,
];

/** The lines the suite logs, across restarts: the request log is among them. */
export interface RequestLog {
  stream: Writable;
  text(): string;
}

export function requestLog(): RequestLog {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

export interface Running {
  suite: Suite;
  log: RequestLog;
  /** One listening server per module, by module id, and `audit`. */
  servers: Record<string, Server>;
}

const listening = (server: Server) =>
  new Promise<Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));

export function configFor(dir: string) {
  return loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'info' });
}

export async function open(dir: string, log: RequestLog): Promise<Running> {
  const logger = pino({ level: 'info' }, log.stream);
  const suite = await openSuite(configFor(dir), { logger, modules: [...PERSONAL_MODULES] });
  await startProjecting(suite);
  const settings = { apiToken: TOKEN, sessionSecret: SERVER_SECRET, identity };
  const servers: Record<string, Server> = {};
  for (const module of PERSONAL_MODULES) {
    servers[module.id] = await listening(createServer(createModuleApp(module, suite, settings)));
  }
  const audit = createAuditApp({ ...suite, config: { apiToken: TOKEN } }, AUDIT_TOKEN, undefined, identity);
  servers.audit = await listening(createServer(audit));
  return { suite, log, servers };
}

export async function close(run: Running): Promise<void> {
  for (const server of Object.values(run.servers)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await run.suite.close();
}

/** How a module is read: the contract module's reads name their workspace. */
export const readerOf = (module: string) => (module === 'clm' ? clmReader : admin);

/** The server of a module (or `audit`). */
export function serverOf(run: Running, id: string): Server {
  const server = run.servers[id];
  if (!server) throw new Error(`No server for ${id}`);
  return server;
}

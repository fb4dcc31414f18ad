import type { RequestListener } from 'node:http';
import { z } from 'zod';
import { auditorCheck } from '../kit/auth';
import type { AuthThrottle } from '../kit/auth-throttle';
import { dispatching } from '../kit/app';
import { createRateLimiter } from '../kit/rate-limit';
import { createIdentity, type Identity } from '../kit/identity';
import type { ModuleSettings, RouteApi } from '../kit/module';
import { createRouteRouter } from '../kit/module-routes';
import { requestObserver, served } from '../kit/observation';
import { describeRoutes, openApiPath } from '../kit/openapi';
import { API_LINKS, createRouteTable } from '../kit/routes';
import { AUDITOR_ACCESS, identityRoutes } from './access';
import { erasureRoutes } from './erasures';
import { historyRoutes } from './history';
import { liveRoutes } from './live';
import { logRoutes } from './log';
import { parkedRoutes } from './parked';
import { proofRoutes } from './proofs';
import { recordEvidenceRoutes } from './record-evidence';
import { transparencyRoutes } from './transparency';
import type { AuditServices } from './services';

export type { AuditServices } from './services';

/**
 * The auditors' API, declared as the modules are: each route once, served and described by the kit.
 * Every read takes the auditor role but the log's public ones (checkpoints, tiles); erasures take
 * the admin role.
 */
const AUDIT_API: RouteApi<AuditServices> = {
  id: 'audit',
  readErrors: 'envelope',
  access: AUDITOR_ACCESS,
  readsWait: false,
  routes: [
    ...logRoutes,
    ...liveRoutes,
    ...historyRoutes,
    ...parkedRoutes,
    ...transparencyRoutes,
    ...proofRoutes,
    ...recordEvidenceRoutes,
    ...erasureRoutes,
    ...identityRoutes,
  ],
};

const VERSION = '1.0.0';

const AuditHealth = z
  .object({
    status: z.string(),
    product: z.string(),
    version: z.string(),
    audit_enabled: z.boolean().meta({ description: 'Whether an auditor token is configured' }),
    log: z.enum(['checking', 'ok', 'inconsistent', 'none']).meta({
      description:
        'The Merkle tree over the log: `checking` it against its latest checkpoint, `ok`, `inconsistent`; `none` when this process keeps none (read-only)',
    }),
    witnesses: z
      .array(
        z.object({
          url: z.string(),
          key: z.string().meta({ description: 'Its verifier key' }),
          status: z.enum(['pending', 'ok', 'down', 'refused']).meta({
            description:
              '`pending`: not asked yet; `ok`: it cosigned the checkpoint it was last sent; `down`: it did not answer (asked again every 10 s); `refused`: it answered without a valid cosignature',
          }),
          cosigned_size: z.number().int().nullable().meta({
            description: 'The size of the latest checkpoint it cosigned, as far as the suite knows',
          }),
          error: z.string().optional().meta({ description: 'What went wrong, when it is down or refused' }),
        }),
      )
      .meta({ description: 'The witnesses of SUITE_WITNESSES (none: empty)' }),
  })
  .meta({ id: 'AuditHealth' });

/** The audit API's description, as `/api/openapi.json` serves it. */
export function describeAudit() {
  return describeRoutes(
    AUDIT_API,
    {
      title: 'Audit API',
      version: VERSION,
      description:
        'Access for auditors: the event log, the history of any record, verification of the hash chains, ' +
        'proofs against the signed checkpoints, and a live tail, each with the auditor role; the signed ' +
        'checkpoints and the tree as C2SP tlog-tiles for anyone, without a credential. Erasures of ' +
        'data subjects take the admin role.',
    },
    AuditHealth,
  );
}

/**
 * The auditors' API (its own port, read-only): the log with its full envelopes, the history of one
 * record folded event by event, verification with a digest, and a live tail over server-sent events.
 * Its routes are served from `node:http` by the kit, as a module's are; the index, health,
 * descriptions and every error route (404, 405) by express.
 */
export function createAuditApp(
  services: AuditServices,
  auditToken: string | undefined,
  /** The failed-authentication throttle the module ports share; unset: none. */
  authThrottle?: AuthThrottle,
  /** Who a bearer token names; default: the bootstrap auditor's token alone. */
  identity: Identity = createIdentity({ auditToken }),
): RequestListener {
  const routes = AUDIT_API.routes ?? [];
  const observer = requestObserver(services.logger, 'audit', services.metrics);
  const table = createRouteTable(observer, {
    index: {
      product: 'Audit',
      version: VERSION,
      links: API_LINKS,
      endpoints: [...new Set(routes.map((route) => openApiPath(route.path)))],
    },
    health: () => ({
      status: 'ok',
      product: 'Audit',
      version: VERSION,
      audit_enabled: auditToken !== undefined,
      // `none`: this process keeps no tree over the log (a read-only copy).
      log: services.logTree?.status() ?? 'none',
      witnesses: services.logTree?.witnesses() ?? [],
    }),
    descriptions: describeAudit,
  });
  for (const route of routes) {
    table.reserve(route.path, route.method === 'get' ? ['GET', 'HEAD'] : [route.method.toUpperCase()]);
  }
  const app = table.finish();

  const { apiToken, logReadRateLimit } = services.config;
  // Erasures take a bearer credential of the admin role, as the modules' writes do.
  const settings: ModuleSettings = {
    apiToken,
    identity,
    authThrottle,
    sessionSecret: '',
    publicReads: logReadRateLimit && createRateLimiter(logReadRateLimit),
  };
  const router = createRouteRouter(AUDIT_API, {
    services,
    authorize: auditorCheck(identity, { auditToken, apiToken }, authThrottle),
    observer,
    settings,
  });
  return served(dispatching([router], app, observer), { readiness: services.readiness, observer });
}

import type { AccessDescription } from '../kit/module';
import { TOO_MANY_FAILURES } from '../kit/openapi';
import { principalBody, PrincipalSchema } from '../kit/principal-route';
import type { AuditRoute } from './services';

/** How the audit API's check (`auditorCheck`) is described: a bearer token holding the auditor role. */
export const AUDITOR_ACCESS: AccessDescription = {
  securitySchemes: { auditorAuth: { type: 'http', scheme: 'bearer' } },
  headers: [],
  errors: {
    401: 'Missing or wrong auditor token',
    403: 'A credential without the auditor role',
    503: 'No auditor token is configured',
  },
};

const getMe: AuditRoute = {
  method: 'get',
  path: '/api/v1/me',
  operation: 'getMe',
  summary: 'The principal the bearer credential names, whatever its roles (how the console signs in)',
  role: null,
  cacheControl: 'no-store',
  responses: {
    200: { description: 'The principal', schema: PrincipalSchema },
    401: { description: 'A missing, unknown, revoked or expired credential' },
    429: { description: TOO_MANY_FAILURES.description },
    503: { description: 'No credential is configured' },
  },
  async handle({ caller }) {
    const principal = caller.principal;
    if (!principal) throw new Error('the audit API named a caller without a principal');
    return { status: 200, body: principalBody(principal) };
  },
};

/** Who the caller is, whatever their roles. */
export const identityRoutes = [getMe];

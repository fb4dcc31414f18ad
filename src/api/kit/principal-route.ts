import { z } from 'zod';
import { ROLES, type Principal } from '../../iam/principal';
import type { ModuleRoute } from './module';

export const PrincipalSchema = z
  .object({
    id: z.string().meta({ description: 'Recorded as `actor`: `key:<id>`, `oidc:<sub>`, `token:admin`...' }),
    kind: z.enum(['bootstrap', 'key', 'oidc']),
    name: z.string().nullable().meta({ description: 'Recorded as `actor_name`' }),
    roles: z.array(z.enum(ROLES as [string, ...string[]])),
    member: z.string().nullable().meta({ description: 'The contract workspace member a bound key acts as' }),
    workspace: z.string().nullable(),
    person: z.string().meta({ description: 'The person behind the credential; four eyes compare persons' }),
  })
  .meta({ id: 'Principal' });

/** A principal as `GET /api/v1/me` answers it, on a module's port or the audit API's. */
export function principalBody(principal: Principal): z.infer<typeof PrincipalSchema> {
  const { id, kind, name, roles, member, workspace, person } = principal;
  return {
    id,
    kind,
    name: name ?? null,
    roles: [...roles],
    member: member ?? null,
    workspace: workspace ?? null,
    person,
  };
}

/**
 * `GET /api/v1/me`, on every module: whom the request's bearer credential names, with its roles, so
 * that a client (the console) shows who is signed in and offers only what they may do.
 */
export const principalRoute: ModuleRoute = {
  method: 'get',
  path: '/api/v1/me',
  operation: 'getMe',
  summary: 'The principal the bearer credential names: its id, name and roles',
  tags: ['identity'],
  auth: 'bearer',
  role: null,
  cacheControl: 'no-store',
  responses: { 200: { description: 'The principal', schema: PrincipalSchema } },
  async handle({ caller }) {
    const principal = caller.principal;
    if (!principal) throw new Error('a bearer route was called without a principal');
    return { status: 200, body: principalBody(principal) };
  },
};

import type { RequestListener } from 'node:http';
import request from 'supertest';
import { servedModule } from '../../src/api/kit/access';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity } from '../../src/api/kit/identity';
import type { ModuleDefinition } from '../../src/api/kit/module';
import { describeModule } from '../../src/api/kit/openapi';
import { MODULES } from '../../src/api/modules';
import type { Principal, Role } from '../../src/iam/principal';
import { openModule, SERVER_SECRET, TOKEN, type ModuleHarness } from '../support/module-harness';

const AUDIT_TOKEN = 'role-matrix-audit-token-0123';

/** Credentials standing for principals, as an API key or an identity provider's token would. */
const principals: Record<string, Principal> = {};
const credentialFor = (name: string, roles: Role[]): string => {
  const token = `matrix-${name}`;
  principals[token] = { id: `key:${name}`, kind: 'key', name, roles, person: name };
  return token;
};
const authenticator = async (token: string) => principals[token] ?? null;

interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  role: Role;
}

/** Every operation a module's description says needs a bearer credential, with the role it names. */
function operationsOf(module: ModuleDefinition): Operation[] {
  const { paths } = describeModule(module).runtime as {
    paths: Record<string, Record<string, { 'x-required-role'?: Role }>>;
  };
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) =>
      operation['x-required-role']
        ? [
            {
              method: method as Operation['method'],
              path: path.replace(/\{\w+\}/g, '1'),
              role: operation['x-required-role'],
            },
          ]
        : [],
    ),
  );
}

/** Is the answer the refusal of a credential without the role? */
const refusedForRole = (res: request.Response, role: Role) =>
  res.status === 403 &&
  res.body.error?.code === 'forbidden' &&
  res.body.error?.details?.required_role === role;

describe.each(
  MODULES.flatMap(
    (module) =>
      [
        [module.id, module, 'public'],
        [module.id, module, 'token'],
      ] as const,
  ),
)('%s with SUITE_READS=%s: the role of every operation', (_id, module, reads) => {
  let harness: ModuleHarness<undefined>;
  let app: RequestListener;
  const ownModule = (duty: 'writer' | 'reader' | 'approver') => `${module.id}:${duty}` as Role;
  const other = MODULES.find((candidate) => candidate.id !== module.id)?.id as string;

  beforeAll(async () => {
    harness = await openModule(module);
    const identity = createIdentity({
      apiToken: TOKEN,
      auditToken: AUDIT_TOKEN,
      authenticators: [authenticator],
    });
    app = createModuleApp(module, harness.suite, {
      apiToken: TOKEN,
      sessionSecret: SERVER_SECRET,
      identity,
      reads,
    });
  });
  afterAll(() => harness.close());

  const operations = () =>
    operationsOf(servedModule(module, { apiToken: TOKEN, sessionSecret: SERVER_SECRET, reads }));
  const send = (operation: Operation, token?: string) => {
    let call = request(app)[operation.method](operation.path).set('X-Svc-Organisation', 'ws-none');
    if (token) call = call.set('Authorization', `Bearer ${token}`);
    return operation.method === 'get' ? call : call.send({});
  };

  it('names a role for every operation that takes a bearer credential, and only roles that exist', () => {
    // Financial planning has no write: with public reads, nothing of it takes a credential.
    if (reads === 'token' || module.id !== 'fpa') expect(operations().length).toBeGreaterThan(0);
    // The kit's webhook routes are the administrator's on every module.
    for (const operation of operations())
      expect(operation.role).toMatch(new RegExp(`^(${module.id}:(writer|reader)|admin)$`));
  });

  it.each([
    ['a credential of another module', () => credentialFor(`${other}-writer`, [`${other}:writer` as Role])],
    ['the auditor token', () => AUDIT_TOKEN],
  ])('refuses %s on each with 403 forbidden naming the role', async (_label, credential) => {
    for (const operation of operations()) {
      const res = await send(operation, credential());
      if (!refusedForRole(res, operation.role))
        throw new Error(`${operation.method} ${operation.path}: ${res.status} ${res.text}`);
    }
  });

  it('refuses a reader on writes, naming the writer role', async () => {
    const reader = credentialFor(`${module.id}-reader`, [ownModule('reader')]);
    for (const operation of operations().filter(({ role }) => role.endsWith(':writer'))) {
      expect(refusedForRole(await send(operation, reader), operation.role)).toBe(true);
    }
  });

  it.each([
    ['the role itself', (role: Role) => credentialFor(`holder-${role}`, [role])],
    ['admin (an API key)', () => credentialFor('admin', ['admin'])],
    ['the bootstrap token (admin)', () => TOKEN],
    ['the module writer, for reads too', () => credentialFor(`${module.id}-writer`, [ownModule('writer')])],
  ])('lets %s through to the operation itself', async (label, credential) => {
    const writerPasses = ({ role }: Operation) => role !== 'admin' || !label.startsWith('the module writer');
    for (const operation of operations().filter(writerPasses)) {
      const res = await send(operation, credential(operation.role));
      if (res.status === 401 || refusedForRole(res, operation.role))
        throw new Error(`${operation.method} ${operation.path}: ${res.status} ${res.text}`);
    }
  });

  it('answers 401 without a credential, appending nothing', async () => {
    const head = await harness.suite.eventStore.headPosition();
    for (const operation of operations()) expect((await send(operation)).status).toBe(401);
    expect(await harness.suite.eventStore.headPosition()).toBe(head);
  });
});

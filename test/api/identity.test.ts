import type { RequestListener } from 'node:http';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { clmModule } from '../../src/api/clm';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity, type Identity } from '../../src/api/kit/identity';
import { holds } from '../../src/iam/holds';
import type { Principal, Role } from '../../src/iam/principal';
import { ACME, GLOBEX, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';
import {
  acceptingTokensOf,
  createIdentityProvider,
  type IdentityProvider,
} from '../support/identity-provider';
import { openModule, SERVER_SECRET, TOKEN, type ModuleHarness } from '../support/module-harness';
import { tempDir } from '../support/temp-dir';

const AUDIT_TOKEN = 'identity-test-audit-token-01';
const principal = (roles: Role[], binding: Partial<Principal> = {}): Principal => ({
  id: 'key:key_test',
  kind: 'key',
  name: 'Test key',
  roles,
  person: 'key:key_test',
  ...binding,
});

describe('roles', () => {
  it.each<[Role[], Role, boolean]>([
    [['esm:writer'], 'esm:writer', true],
    [['esm:writer'], 'esm:reader', true],
    [['esm:approver'], 'esm:reader', true],
    [['esm:reader'], 'esm:writer', false],
    [['esm:writer'], 'hrm:writer', false],
    [['admin'], 'hrm:writer', true],
    [['admin'], 'fpa:reader', true],
    [['admin'], 'auditor', false],
    [['auditor'], 'esm:reader', false],
    [['auditor'], 'auditor', true],
  ])('a principal holding %j holds %s: %s', (roles, role, expected) => {
    expect(holds(principal(roles), role)).toBe(expected);
  });
});

describe('a token of the identity provider (OIDC)', () => {
  let idp: IdentityProvider;
  let harness: ModuleHarness<undefined>;
  let app: RequestListener;
  const { dir, cleanup } = tempDir();

  beforeAll(async () => {
    idp = await createIdentityProvider();
    harness = await openModule(esmModule);
    app = createModuleApp(esmModule, harness.suite, {
      apiToken: undefined,
      sessionSecret: SERVER_SECRET,
      identity: acceptingTokensOf(idp, dir),
    });
  });
  afterAll(async () => {
    await harness.close();
    cleanup();
  });

  const submit = (token: string) =>
    request(app)
      .post('/api/v1/requests')
      .set('Authorization', `Bearer ${token}`)
      .send({ title: 'Signed in through the identity provider', status: 'Open', priority: 'Low' });

  it('writes as its sub, named by its name claim, when it carries the role', async () => {
    const token = await idp.token(
      { sub: 'u-olga', name: 'Olga Berg', roles: ['esm:writer'] },
      { alg: 'ES256' },
    );
    const res = await submit(token).expect(201);
    const [event] = await harness.suite.eventStore.readStream(`esm.request-${res.body.id}`);
    expect(event?.metadata).toMatchObject({ actor: 'oidc:u-olga', actor_name: 'Olga Berg' });
  });

  it('is refused with 403 naming the role when it carries no roles claim, with 401 when it expired', async () => {
    const res = await submit(await idp.token({ sub: 'u-olga' })).expect(403);
    expect(res.body.error).toMatchObject({ code: 'forbidden', details: { required_role: 'esm:writer' } });
    const expired = await idp.token({
      sub: 'u-olga',
      roles: ['esm:writer'],
      exp: Math.floor(Date.now() / 1000) - 600,
    });
    expect((await submit(expired)).status).toBe(401);
  });
});

describe('contracts: who a credential acts as', () => {
  let harness: ModuleHarness<ClmFixtures>;
  const bound = 'bound-token';
  const unbound = 'integration-token';
  const identity: Identity = createIdentity({
    apiToken: TOKEN,
    authenticators: [
      async (token) =>
        token === bound
          ? principal(['clm:writer'], { id: 'key:bound', member: 'm-acme-owner', workspace: ACME })
          : token === unbound
            ? principal(['clm:writer'], { id: 'key:integration' })
            : null,
    ],
  });
  let app: RequestListener;

  beforeAll(async () => {
    harness = await openModule(clmModule, { fixtures: clmFixtures });
    app = createModuleApp(clmModule, harness.suite, {
      apiToken: TOKEN,
      sessionSecret: SERVER_SECRET,
      identity,
    });
  });
  afterAll(() => harness.close());

  const obligation = (token: string, workspace: string, member: string, contract: string) =>
    request(app)
      .post('/api/v1/obligations')
      .set({ Authorization: `Bearer ${token}`, 'X-Svc-Organisation': workspace, 'X-Svc-Actor': member })
      .send({ contract_id: contract, title: 'Quarterly report', due_date: '2027-03-31' });

  it('a key bound to a member writes as that member, and the event names both', async () => {
    const res = await obligation(bound, ACME, 'm-acme-owner', harness.fixtures.active).expect(201);
    expect(res.body.created_by).toBe('m-acme-owner');
    const [event] = await harness.suite.eventStore.readStream(`clm.obligation-${res.body.id}`);
    expect(event?.metadata).toMatchObject({ actor: 'key:bound', member: 'm-acme-owner', organisation: ACME });
  });

  it('a key bound to a member is refused as another member, or in another workspace', async () => {
    const asEditor = await obligation(bound, ACME, 'm-acme-editor', harness.fixtures.active);
    expect(asEditor.status).toBe(403);
    const inGlobex = await obligation(bound, GLOBEX, 'm-globex-owner', harness.fixtures.globexContract);
    expect(inGlobex.status).toBe(403);
    const read = await request(app)
      .get('/api/v1/contracts')
      .set({ Authorization: `Bearer ${bound}`, 'X-Svc-Organisation': GLOBEX });
    expect(read.status).toBe(403);
  });

  it('an unbound key acts for any member of any workspace, as an integration account', async () => {
    const editor = await obligation(unbound, ACME, 'm-acme-editor', harness.fixtures.active).expect(201);
    const globex = await obligation(
      unbound,
      GLOBEX,
      'm-globex-owner',
      harness.fixtures.globexContract,
    ).expect(201);
    expect([editor.body.created_by, globex.body.created_by]).toEqual(['m-acme-editor', 'm-globex-owner']);
    const [event] = await harness.suite.eventStore.readStream(`clm.obligation-${globex.body.id}`);
    expect(event?.metadata).toMatchObject({ actor: 'key:integration', member: 'm-globex-owner' });
  });
});

describe('the audit API takes the auditor role', () => {
  let harness: ModuleHarness<undefined>;
  let audit: RequestListener;

  beforeAll(async () => {
    harness = await openModule(esmModule);
    const identity = createIdentity({
      apiToken: TOKEN,
      auditToken: AUDIT_TOKEN,
      authenticators: [
        async (token) =>
          token === 'auditor-key'
            ? principal(['auditor'])
            : token === 'writer-key'
              ? principal(['esm:writer'])
              : null,
      ],
    });
    audit = createAuditApp(harness.suite, AUDIT_TOKEN, undefined, identity);
  });
  afterAll(() => harness.close());

  it.each([
    ['the auditor token', AUDIT_TOKEN, 200],
    ['an auditor key', 'auditor-key', 200],
    ['the administrator token: auditing is a separate duty', TOKEN, 403],
    ['a module writer key', 'writer-key', 403],
    ['an unknown token', 'unknown-token', 401],
  ])('%s: %s', async (_label, token, status) => {
    const res = await request(audit).get('/api/v1/events?limit=1').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(status);
    if (status === 403) expect(res.body.error.details).toEqual({ required_role: 'auditor' });
  });
});

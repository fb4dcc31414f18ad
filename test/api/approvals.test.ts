import type { RequestListener } from 'node:http';
import request from 'supertest';
import { requireApproval } from '../../src/approvals/policies';
import { clmModule } from '../../src/api/clm';
import { esmModule } from '../../src/api/esm';
import { hrmModule } from '../../src/api/hrm';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity } from '../../src/api/kit/identity';
import type { ModuleDefinition } from '../../src/api/kit/module';
import { proposableRoutes } from '../../src/modules/module';
import { describeModule } from '../../src/api/kit/openapi';
import { createAuditApp } from '../../src/api/audit';
import { MODULES } from '../../src/api/modules';
import type { Principal, Role } from '../../src/iam/principal';
import type { Suite } from '../../src/main';
import { createSeedContext } from '../../src/seed/context';
import { ACME, GLOBEX, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';
import { openHrm, type HrmHarness } from '../support/hrm-harness';
import { openModule, SERVER_SECRET, TOKEN, type ModuleHarness } from '../support/module-harness';

const AUDIT_TOKEN = 'approvals-test-audit-token-01';

/** Credentials standing for principals, as API keys would. */
const principals: Record<string, Principal> = {};
const credential = (name: string, roles: Role[], person = `key:${name}`) => {
  principals[name] = { id: `key:${name}`, kind: 'key', name, roles, person };
  return { Authorization: `Bearer ${name}` };
};
const identity = createIdentity({
  apiToken: TOKEN,
  auditToken: AUDIT_TOKEN,
  authenticators: [async (token) => principals[token] ?? null],
});

function appOf(module: ModuleDefinition, suite: Suite, proposalTtlSeconds?: number): RequestListener {
  return createModuleApp(module, suite, {
    apiToken: TOKEN,
    sessionSecret: SERVER_SECRET,
    identity,
    proposalTtlSeconds,
  });
}

async function requirePolicy(suite: Suite, module: ModuleDefinition, route: string, role?: Role) {
  const { commands } = createSeedContext(suite.eventStore, suite.ids, 'policy');
  const { outcome } = await requireApproval(
    commands,
    module,
    route,
    role ?? (`${module.id}:approver` as Role),
  );
  await suite.runtime.waitFor(outcome.events[outcome.events.length - 1]?.position ?? 0);
}

describe.each(MODULES.filter((module) => proposableRoutes(module).length > 0).map((m) => [m.id, m] as const))(
  '%s: every write under a policy is checked as it would run',
  (_id, module) => {
    let harness: ModuleHarness<undefined>;
    let app: RequestListener;
    beforeAll(async () => {
      harness = await openModule(module);
      app = appOf(module, harness.suite);
    });
    afterAll(() => harness.close());

    it.each(proposableRoutes(module))(
      '%s: the same refusal with and without a policy, and no proposal',
      async (route) => {
        const [method, path] = route.split(' ') as [string, string];
        const send = () =>
          request(app)
            [method.toLowerCase() as 'post' | 'patch'](path.replace(/\{\w+\}/g, '999999'))
            .set({
              Authorization: `Bearer ${TOKEN}`,
              'X-Svc-Organisation': 'ws-none',
              'X-Svc-Actor': 'm-none',
            })
            .send({ unknown_field: true });
        const without = await send();
        await requirePolicy(harness.suite, module, route);
        const head = await harness.suite.eventStore.headPosition();
        const under = await send();
        expect([under.status, under.body.error?.code]).toEqual([without.status, without.body.error?.code]);
        expect(under.status).toBeGreaterThanOrEqual(400);
        expect(await harness.suite.eventStore.headPosition()).toBe(head);
      },
    );

    it('describes the 202 of a held-back write on each route that can be held back', () => {
      const { paths } = describeModule(module).runtime as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      };
      for (const route of proposableRoutes(module)) {
        const [method, path] = route.split(' ') as [string, string];
        expect(paths[path]?.[method.toLowerCase()]?.responses).toHaveProperty('202');
      }
    });
  },
);

describe('four eyes on a leave decision', () => {
  let h: HrmHarness;
  let app: RequestListener;
  const writer = credential('hr-writer', ['hrm:writer']);
  const approver = credential('hr-approver', ['hrm:approver']);
  const secondApprover = credential('hr-approver-2', ['hrm:approver']);

  beforeEach(async () => {
    h = await openHrm();
    app = appOf(hrmModule, h.suite);
    await requirePolicy(h.suite, hrmModule, 'PATCH /api/v1/leave/{id}');
  });
  afterEach(() => h.close());

  /** Grace's week of leave, open. */
  async function openLeave(): Promise<number> {
    const res = await request(app)
      .post('/api/v1/leave')
      .set(writer)
      .send({
        employee_id: h.fixtures.grace,
        leave_type: 'Annual Leave',
        from_date: '2026-11-23',
        to_date: '2026-11-27',
        description: 'Family visit',
      })
      .expect(201);
    return res.body.id;
  }
  const decide = (id: number, status: string) =>
    request(app).patch(`/api/v1/leave/${id}`).set(writer).send({ status });
  const leave = async (id: number) => (await request(app).get(`/api/v1/leave/${id}`).expect(200)).body;

  it('holds the change back (202, the leave still Open), refuses the proposer, applies on another approver', async () => {
    const id = await openLeave();
    const proposed = await decide(id, 'Approved').expect(202);
    expect(proposed.headers.location).toBe(`/api/v1/proposals/${proposed.body.id}`);
    expect(proposed.body).toEqual({
      id: expect.stringMatching(/^prp_/),
      module: 'hrm',
      route: 'PATCH /api/v1/leave/{id}',
      path: `/api/v1/leave/${id}`,
      payload: { status: 'Approved' },
      proposed_by: 'key:hr-writer',
      proposer_person: 'key:hr-writer',
      approver_person: null,
      status: 'pending',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      expires_at: expect.any(String),
      decided_by: null,
      reason: null,
      result: null,
      error: null,
    });
    expect((await leave(id)).status).toBe('Open');

    const self = await request(app).post(`/api/v1/proposals/${proposed.body.id}/approve`).set(writer);
    expect([self.status, self.body.error.code]).toEqual([403, 'self_approval']);
    const noRole = await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set(credential('hr-writer-2', ['hrm:writer']));
    expect([noRole.status, noRole.body.error.code]).toEqual([403, 'forbidden']);

    const approved = await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set(approver)
      .expect(200);
    expect(approved.body).toMatchObject({
      status: 'applied',
      decided_by: 'key:hr-approver',
      result: { id, status: 'Approved' },
    });
    expect(approved.headers['x-event-position']).toMatch(/^\d+$/);
    expect((await leave(id)).status).toBe('Approved');
    const events = await h.suite.eventStore.readStream(`hrm.leave-${id}`);
    expect(events[events.length - 1]?.metadata).toMatchObject({
      actor: 'key:hr-writer',
      proposal_id: proposed.body.id,
      proposed_by: 'key:hr-writer',
      approved_by: 'key:hr-approver',
    });

    const audit = createAuditApp(h.suite, AUDIT_TOKEN, undefined, identity);
    const history = await request(audit)
      .get(`/api/v1/history/hrm/leave/${id}`)
      .set({ Authorization: `Bearer ${AUDIT_TOKEN}` })
      .expect(200);
    const story = history.body.data.events.map(
      ({ event }: { event: { type: string; metadata: { actor: string } } }) => [
        event.type,
        event.metadata.actor,
      ],
    );
    expect(story).toEqual(
      expect.arrayContaining([
        ['ChangeProposed', 'key:hr-writer'],
        ['ChangeApproved', 'key:hr-approver'],
        ['ChangeApplied', 'key:hr-approver'],
      ]),
    );
  });

  it('lets one of two approvers at once take the decision: the other gets 409', async () => {
    const proposed = await decide(await openLeave(), 'Approved').expect(202);
    const answers = await Promise.all(
      [approver, secondApprover].map((who) =>
        request(app).post(`/api/v1/proposals/${proposed.body.id}/approve`).set(who),
      ),
    );
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 409]);
  });

  it('fails a proposal whose change the state no longer allows, keeping the error, and answers 409', async () => {
    const id = await openLeave();
    const approve = await decide(id, 'Approved').expect(202);
    const reject = await decide(id, 'Rejected').expect(202);
    await request(app).post(`/api/v1/proposals/${approve.body.id}/approve`).set(approver).expect(200);
    const failed = await request(app).post(`/api/v1/proposals/${reject.body.id}/approve`).set(approver);
    expect([failed.status, failed.body.error.code]).toEqual([409, 'proposal_failed']);
    const kept = await request(app).get(`/api/v1/proposals/${reject.body.id}`).set(writer).expect(200);
    expect(kept.body).toMatchObject({ status: 'failed', error: { code: 'illegal_transition' } });
    expect((await leave(id)).status).toBe('Approved');
  });

  it('rejects with a reason; a decided proposal answers 409', async () => {
    const proposed = await decide(await openLeave(), 'Approved').expect(202);
    const rejected = await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/reject`)
      .set(approver)
      .send({ reason: 'Peak season' })
      .expect(200);
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      reason: 'Peak season',
      decided_by: 'key:hr-approver',
    });
    const again = await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set(secondApprover);
    expect([again.status, again.body.error.code]).toEqual([409, 'proposal_not_pending']);
  });

  it('answers the same 202 to the same Idempotency-Key, and lists proposals by status to writers and approvers', async () => {
    const id = await openLeave();
    const send = () => decide(id, 'Approved').set('Idempotency-Key', 'leave-approval-1');
    const first = await send().expect(202);
    const again = await send().expect(202);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const listed = await request(app).get('/api/v1/proposals?status=pending').set(approver).expect(200);
    expect(listed.body).toMatchObject({ data: [{ id: first.body.id }], meta: { total: 1 } });
    const reader = await request(app)
      .get('/api/v1/proposals')
      .set(credential('hr-reader', ['hrm:reader']));
    expect(reader.status).toBe(403);
  });

  it('expires a proposal after SUITE_PROPOSAL_TTL: approving it then answers 409', async () => {
    const shortLived = appOf(hrmModule, h.suite, 60);
    const id = await openLeave();
    const proposed = await request(shortLived)
      .patch(`/api/v1/leave/${id}`)
      .set(writer)
      .send({ status: 'Approved' })
      .expect(202);
    const later = { ...h.suite, clock: { now: () => new Date(Date.now() + 3_600_000) } };
    const afterAnHour = appOf(hrmModule, later);
    const expired = await request(afterAnHour)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set(approver);
    expect([expired.status, expired.body.error.code]).toEqual([409, 'proposal_expired']);
    await h.settle();
    const kept = await request(app).get(`/api/v1/proposals/${proposed.body.id}`).set(writer).expect(200);
    expect(kept.body.status).toBe('expired');
    expect((await leave(id)).status).toBe('Open');
  });
});

describe('a numbered creation held back', () => {
  let harness: ModuleHarness<undefined>;
  let app: RequestListener;
  beforeAll(async () => {
    harness = await openModule(esmModule);
    app = appOf(esmModule, harness.suite);
    await requirePolicy(harness.suite, esmModule, 'POST /api/v1/requests');
  });
  afterAll(() => harness.close());

  it('takes its number when applied, and the check before takes none', async () => {
    const writer = credential('desk-writer', ['esm:writer']);
    const approver = credential('desk-approver', ['esm:approver']);
    const body = { title: 'New monitor', status: 'Open', priority: 'Low' };
    const first = await request(app).post('/api/v1/requests').set(writer).send(body).expect(202);
    const second = await request(app).post('/api/v1/requests').set(writer).send(body).expect(202);
    const applied = await Promise.all(
      [second, first].map((proposal) =>
        request(app).post(`/api/v1/proposals/${proposal.body.id}/approve`).set(approver).expect(200),
      ),
    );
    expect(applied.map(({ body }) => body.result.id).sort()).toEqual([1, 2]);
  });
});

describe('a contract write held back: proposals belong to their workspace', () => {
  let harness: ModuleHarness<ClmFixtures>;
  let app: RequestListener;
  beforeAll(async () => {
    harness = await openModule(clmModule, { fixtures: clmFixtures });
    app = appOf(clmModule, harness.suite);
    await requirePolicy(harness.suite, clmModule, 'POST /api/v1/obligations');
  });
  afterAll(() => harness.close());

  const as = (name: string, roles: Role[], workspace: string, member: string) => ({
    ...credential(name, roles),
    'X-Svc-Organisation': workspace,
    'X-Svc-Actor': member,
  });

  it('is proposed in its workspace, unseen in another, and applied as the member who proposed it', async () => {
    const writer = as('acme-writer', ['clm:writer'], ACME, 'm-acme-editor');
    const proposed = await request(app)
      .post('/api/v1/obligations')
      .set(writer)
      .send({ contract_id: harness.fixtures.active, title: 'Audit report', due_date: '2027-06-30' })
      .expect(202);
    const globexApprover = as('globex-approver', ['clm:approver'], GLOBEX, 'm-globex-owner');
    await request(app).get(`/api/v1/proposals/${proposed.body.id}`).set(globexApprover).expect(404);
    await request(app).post(`/api/v1/proposals/${proposed.body.id}/approve`).set(globexApprover).expect(404);
    const listed = await request(app).get('/api/v1/proposals').set(globexApprover).expect(200);
    expect(listed.body.meta.total).toBe(0);

    const approver = as('acme-approver', ['clm:approver'], ACME, 'm-acme-owner');
    const applied = await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set(approver)
      .expect(200);
    expect(applied.body.result).toMatchObject({
      title: 'Audit report',
      created_by: 'm-acme-editor',
      workspace_id: ACME,
    });
    const [event] = await harness.suite.eventStore.readStream(`clm.obligation-${applied.body.result.id}`);
    expect(event?.metadata).toMatchObject({
      actor: 'key:acme-writer',
      member: 'm-acme-editor',
      proposed_by: 'key:acme-writer',
      approved_by: 'key:acme-approver',
    });
  });
});

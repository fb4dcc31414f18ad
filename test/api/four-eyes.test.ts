import type { RequestListener } from 'node:http';
import request from 'supertest';
import { decideProposal, proposalWithdrawal, type ProposalRecord } from '../../src/approvals';
import { requireApproval } from '../../src/approvals/policies';
import { createAuditApp } from '../../src/api/audit';
import { clmModule } from '../../src/api/clm';
import { esmModule } from '../../src/api/esm';
import { hrmModule } from '../../src/api/hrm';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity } from '../../src/api/kit/identity';
import type { ModuleDefinition } from '../../src/api/kit/module';
import type { CommandContext } from '../../src/commands/context';
import { issueKey, keyAuthenticator, revokeKey, type KeyRequest } from '../../src/iam';
import type { Principal, Role } from '../../src/iam/principal';
import type { Suite } from '../../src/main';
import { createSeedContext } from '../../src/seed/context';
import { finishApproved, finishingApproved } from '../../src/api/kit/proposal-apply';
import { approvedProposals, APPROVAL_GRACE_MS } from '../../src/workers/approved-proposals';
import { ACME, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';
import { openHrm, type HrmHarness } from '../support/hrm-harness';
import { openModule, SERVER_SECRET, TOKEN, type ModuleHarness } from '../support/module-harness';

const AUDIT_TOKEN = 'four-eyes-test-audit-token-01';

/** Tokens of an identity provider's users, as its authenticator would name them. */
const federated: Record<string, Principal> = {};

function appOf(module: ModuleDefinition, suite: Suite): RequestListener {
  const identity = createIdentity({
    apiToken: TOKEN,
    auditToken: AUDIT_TOKEN,
    authenticators: [
      keyAuthenticator(suite.readStore, SERVER_SECRET, suite.clock),
      async (token) => federated[token] ?? null,
    ],
  });
  return createModuleApp(module, suite, { apiToken: TOKEN, sessionSecret: SERVER_SECRET, identity });
}

const operator = (suite: Suite): CommandContext => ({
  ...createSeedContext(suite.eventStore, suite.ids, `operator-${Math.random()}`).commands,
  clock: suite.clock,
});

async function settled(suite: Suite) {
  await suite.runtime.waitFor(await suite.eventStore.headPosition());
}

async function policy(suite: Suite, module: ModuleDefinition, route: string, role: Role) {
  await requireApproval(operator(suite), module, route, role);
  await settled(suite);
}

/** A key as `suite keys create` issues it; answers its bearer header and id. */
async function key(
  suite: Suite,
  request: Partial<KeyRequest> & Pick<KeyRequest, 'roles'>,
): Promise<{ Authorization: string; id: string }> {
  const issued = await issueKey(
    operator(suite),
    { name: 'key', member: null, workspace: null, expiresIn: null, ...request },
    SERVER_SECRET,
  );
  await settled(suite);
  return { Authorization: `Bearer ${issued.token}`, id: issued.id };
}

const bearer = ({ Authorization }: { Authorization: string }) => ({ Authorization });

describe('four eyes compare persons, not credentials', () => {
  let harness: ModuleHarness<ClmFixtures>;
  let app: RequestListener;
  beforeAll(async () => {
    harness = await openModule(clmModule, { fixtures: clmFixtures });
    app = appOf(clmModule, harness.suite);
    await policy(harness.suite, clmModule, 'POST /api/v1/obligations', 'clm:approver');
  });
  afterAll(() => harness.close());

  const asOwner = { 'X-Svc-Organisation': ACME, 'X-Svc-Actor': 'm-acme-owner' };
  const proposeObligation = (who: { Authorization: string }) =>
    request(app)
      .post('/api/v1/obligations')
      .set({ ...bearer(who), ...asOwner })
      .send({ contract_id: harness.fixtures.active, title: 'Audit report', due_date: '2027-06-30' })
      .expect(202);

  it('refuses a second key bound to the same member (its person by default): 403 self_approval', async () => {
    const bound = { member: 'm-acme-owner', workspace: ACME };
    const writer = await key(harness.suite, { ...bound, roles: ['clm:writer'] });
    const approver = await key(harness.suite, { ...bound, roles: ['clm:approver'] });
    const proposed = await proposeObligation(writer);
    expect(proposed.body.proposer_person).toBe('m-acme-owner');
    const res = await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set({ ...bearer(approver), ...asOwner });
    expect([res.status, res.body.error.code]).toEqual([403, 'self_approval']);
  });

  it('refuses an identity provider subject whose person holds the proposing key', async () => {
    const writer = await key(harness.suite, { roles: ['clm:writer'], person: 'olga@acme.example' });
    federated['olga-token'] = {
      id: 'oidc:u-olga',
      kind: 'oidc',
      roles: ['clm:approver'],
      person: 'olga@acme.example',
    };
    const proposed = await proposeObligation(writer);
    const res = await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set({ Authorization: 'Bearer olga-token', ...asOwner });
    expect([res.status, res.body.error.code]).toEqual([403, 'self_approval']);
  });

  it('names the person beside the actor on every event', async () => {
    const writer = await key(harness.suite, { roles: ['clm:writer'], person: 'pat' });
    const proposed = await proposeObligation(writer);
    const [event] = await harness.suite.eventStore.readStream(`approvals.proposal-${proposed.body.id}`);
    expect(event?.metadata).toMatchObject({ actor: `key:${writer.id}`, person: 'pat' });
  });
});

describe('decisions are taken on the rules of the moment of deciding', () => {
  let h: HrmHarness;
  let app: RequestListener;
  beforeEach(async () => {
    h = await openHrm();
    app = appOf(hrmModule, h.suite);
    await policy(h.suite, hrmModule, 'PATCH /api/v1/leave/{id}', 'hrm:approver');
  });
  afterEach(() => h.close());

  async function openLeave(writer: { Authorization: string }): Promise<number> {
    const res = await request(app)
      .post('/api/v1/leave')
      .set(bearer(writer))
      .send({
        employee_id: h.fixtures.grace,
        leave_type: 'Annual Leave',
        from_date: '2026-11-23',
        to_date: '2026-11-27',
      })
      .expect(201);
    return res.body.id;
  }
  const proposeApproval = async (writer: { Authorization: string }) => {
    const id = await openLeave(writer);
    const res = await request(app)
      .patch(`/api/v1/leave/${id}`)
      .set(bearer(writer))
      .send({ status: 'Approved' })
      .expect(202);
    return { leave: id, proposal: res.body.id as string };
  };
  const approve = (proposal: string, who: { Authorization: string }) =>
    request(app).post(`/api/v1/proposals/${proposal}/approve`).set(bearer(who));
  const proposalOf = async (proposal: string) =>
    (
      await request(app)
        .get(`/api/v1/proposals/${proposal}`)
        .set({ Authorization: `Bearer ${TOKEN}` })
    ).body;

  it('withdraws the proposals of a revoked proposer at the attempt to approve: 409, reason proposer_revoked', async () => {
    const writer = await key(h.suite, { roles: ['hrm:writer'] });
    const approver = await key(h.suite, { roles: ['hrm:approver'] });
    const { leave, proposal } = await proposeApproval(writer);
    await revokeKey(operator(h.suite), writer.id);
    await settled(h.suite);
    const res = await approve(proposal, approver);
    expect([res.status, res.body.error.code]).toEqual([409, 'proposal_withdrawn']);
    await settled(h.suite);
    expect(await proposalOf(proposal)).toMatchObject({ status: 'withdrawn', reason: 'proposer_revoked' });
    const record = await request(app).get(`/api/v1/leave/${leave}`).expect(200);
    expect(record.body.status).toBe('Open');
  });

  it('withdraws the pending proposals of an expired proposer in the sweep, reason expired', async () => {
    const writer = await key(h.suite, { roles: ['hrm:writer'], expiresIn: 60 });
    const { proposal } = await proposeApproval(writer);
    const later = new Date(h.suite.clock.now().getTime() + 3_600_000);
    expect(await proposalWithdrawal.due?.(h.suite.readStore, later)).toEqual([proposal]);
    const context = { ...operator(h.suite), clock: { now: () => later } };
    await proposalWithdrawal.expire(context, proposal, h.suite.readStore);
    await settled(h.suite);
    expect(await proposalOf(proposal)).toMatchObject({ status: 'withdrawn', reason: 'expired' });
  });

  it('binds pending proposals to a tightened policy: the old approver role no longer approves', async () => {
    const writer = await key(h.suite, { roles: ['hrm:writer'] });
    const approver = await key(h.suite, { roles: ['hrm:approver'] });
    const admin = await key(h.suite, { roles: ['admin'] });
    const { proposal } = await proposeApproval(writer);
    await policy(h.suite, hrmModule, 'PATCH /api/v1/leave/{id}', 'admin');
    const refused = await approve(proposal, approver);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);
    expect(refused.body.error.message).toMatch(/admin/);
    await approve(proposal, admin).expect(200);
  });

  it('refuses auditor as a policy approver role: auditing is a separate duty', async () => {
    await expect(
      requireApproval(operator(h.suite), hrmModule, 'PATCH /api/v1/leave/{id}', 'auditor'),
    ).rejects.toMatchObject({ code: 'validation_error', message: expect.stringMatching(/separate duty/) });
  });

  it('shows a rejected and a withdrawn proposal, with reason and people, in the record’s audit history', async () => {
    const writer = await key(h.suite, { roles: ['hrm:writer'], person: 'wendy' });
    const approver = await key(h.suite, { roles: ['hrm:approver'], person: 'arno' });
    const { leave, proposal } = await proposeApproval(writer);
    await request(app)
      .post(`/api/v1/proposals/${proposal}/reject`)
      .set(bearer(approver))
      .send({ reason: 'Peak season' })
      .expect(200);
    await settled(h.suite);
    const audit = createAuditApp(
      h.suite,
      AUDIT_TOKEN,
      undefined,
      createIdentity({ auditToken: AUDIT_TOKEN }),
    );
    const history = await request(audit)
      .get(`/api/v1/history/hrm/leave/${leave}`)
      .set({ Authorization: `Bearer ${AUDIT_TOKEN}` })
      .expect(200);
    const told = history.body.data.events.map(
      ({ event }: { event: { type: string; data: { reason?: string }; metadata: { person?: string } } }) => [
        event.type,
        event.metadata.person,
        event.data.reason ?? null,
      ],
    );
    expect(told).toEqual(
      expect.arrayContaining([
        ['ChangeProposed', 'wendy', null],
        ['ChangeRejected', 'arno', 'Peak season'],
      ]),
    );
  });

  describe('an approved proposal is applied exactly once', () => {
    async function approvedOnly(writer: { Authorization: string }) {
      const { leave, proposal } = await proposeApproval(writer);
      // The approving process crashed right after recording the approval.
      await decideProposal(operator(h.suite), {
        type: 'Approve',
        id: proposal,
        approvedBy: 'key:crashed',
        approverPerson: 'crashed',
        approverEmployee: null,
        at: h.suite.clock.now(),
      });
      await settled(h.suite);
      return { leave, proposal };
    }
    const afterGrace = () => ({ now: () => new Date(Date.now() + APPROVAL_GRACE_MS + 60_000) });
    const settings = () => ({ apiToken: TOKEN, sessionSecret: SERVER_SECRET });

    it('is finished by the follower after a crash between approval and write, once however often it runs', async () => {
      const writer = await key(h.suite, { roles: ['hrm:writer'] });
      const { leave, proposal } = await approvedOnly(writer);
      const follower = approvedProposals(
        { ...h.suite, clock: afterGrace() },
        finishingApproved([hrmModule], settings),
      );
      await follower.finishDue();
      await settled(h.suite);
      await follower.finishDue();
      await settled(h.suite);
      expect(await proposalOf(proposal)).toMatchObject({ status: 'applied' });
      const events = await h.suite.eventStore.readStream(`hrm.leave-${leave}`);
      expect(events.filter((event) => event.type === 'LeaveApplicationApproved')).toHaveLength(1);
      await follower.stop();
    });

    it('does not apply again a write applied before the crash (its idempotency key)', async () => {
      const writer = await key(h.suite, { roles: ['hrm:writer'] });
      const { leave, proposal } = await approvedOnly(writer);
      const early = approvedProposals(h.suite, finishingApproved([hrmModule], settings));
      const record = JSON.parse(
        (await h.suite.readStore.get('approvals.proposals', proposal)) as string,
      ) as ProposalRecord;
      // The write ran, then the process died before recording ChangeApplied.
      const faultyDecisions = {
        ...operator(h.suite),
        eventStore: {
          ...h.suite.eventStore,
          appendAll: async (...args: Parameters<Suite['eventStore']['appendAll']>) => {
            if (args[0].some((part) => part.stream.startsWith('approvals.'))) throw new Error('killed');
            return h.suite.eventStore.appendAll(...args);
          },
        },
      };
      await expect(
        finishApproved(hrmModule, record, h.suite, settings(), faultyDecisions, 'r-1'),
      ).rejects.toThrow('killed');
      await early.stop();
      const follower = approvedProposals(
        { ...h.suite, clock: afterGrace() },
        finishingApproved([hrmModule], settings),
      );
      await follower.finishDue();
      await settled(h.suite);
      expect(await proposalOf(proposal)).toMatchObject({ status: 'applied' });
      const events = await h.suite.eventStore.readStream(`hrm.leave-${leave}`);
      expect(events.filter((event) => event.type === 'LeaveApplicationApproved')).toHaveLength(1);
    });

    it('retries a write failing with an internal error, then ends failed with the error', async () => {
      const writer = await key(h.suite, { roles: ['hrm:writer'] });
      const { leave, proposal } = await approvedOnly(writer);
      let attempts = 0;
      const broken = {
        ...h.suite,
        clock: afterGrace(),
        eventStore: {
          ...h.suite.eventStore,
          appendAll: async (...args: Parameters<Suite['eventStore']['appendAll']>) => {
            if (args[0].some((part) => part.stream.startsWith('hrm.leave'))) {
              attempts += 1;
              throw new Error('disk on fire');
            }
            return h.suite.eventStore.appendAll(...args);
          },
        },
      };
      await approvedProposals(broken, finishingApproved([hrmModule], settings)).finishDue();
      await settled(h.suite);
      expect(attempts).toBe(4);
      expect(await proposalOf(proposal)).toMatchObject({
        status: 'failed',
        error: { code: 'internal_error', message: expect.stringContaining('disk on fire') },
      });
      expect((await request(app).get(`/api/v1/leave/${leave}`)).body.status).toBe('Open');
    });
  });

  it('checks the Idempotency-Key body of concurrent proposals: one 202, the other 422 as on a write', async () => {
    const writer = await key(h.suite, { roles: ['hrm:writer'] });
    const id = await openLeave(writer);
    const send = (status: string) =>
      request(app)
        .patch(`/api/v1/leave/${id}`)
        .set({ ...bearer(writer), 'Idempotency-Key': 'one-key' })
        .send({ status });
    const answers = await Promise.all([send('Approved'), send('Rejected')]);
    expect(answers.map((res) => res.status).sort()).toEqual([202, 422]);
    const refused = answers.find((res) => res.status === 422);
    expect(refused?.body.error.code).toBe('idempotency_key_reused');
  });
});

describe('the domain’s "approved by" is the person who approved', () => {
  let h: HrmHarness;
  let app: RequestListener;
  beforeEach(async () => {
    h = await openHrm();
    app = appOf(hrmModule, h.suite);
  });
  afterEach(() => h.close());

  const openLeave = async () =>
    (
      await request(app)
        .post('/api/v1/leave')
        .set({ Authorization: `Bearer ${TOKEN}` })
        .send({
          employee_id: h.fixtures.grace,
          leave_type: 'Annual Leave',
          from_date: '2026-11-23',
          to_date: '2026-11-27',
        })
        .expect(201)
    ).body.id as number;

  it('refuses a credential linked to no employee naming someone other than the designated approver: 422', async () => {
    const id = await openLeave();
    const res = await request(app)
      .patch(`/api/v1/leave/${id}`)
      .set({ Authorization: `Bearer ${TOKEN}` })
      .send({ status: 'Approved', approver_id: h.fixtures.alan });
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
  });

  it('records the linked employee, and refuses a body naming someone else: 403 not_the_approver', async () => {
    const id = await openLeave();
    const ada = await key(h.suite, { roles: ['hrm:writer'], person: `hrm.employee-${h.fixtures.ada}` });
    const other = await request(app)
      .patch(`/api/v1/leave/${id}`)
      .set(bearer(ada))
      .send({ status: 'Approved', approver_id: h.fixtures.alan });
    expect([other.status, other.body.error.code]).toEqual([403, 'not_the_approver']);
    const res = await request(app)
      .patch(`/api/v1/leave/${id}`)
      .set(bearer(ada))
      .send({ status: 'Approved' })
      .expect(200);
    expect(res.body.approved_by).toBe(h.fixtures.ada);
  });

  it('links an identity provider user by company e-mail', async () => {
    const id = await openLeave();
    federated['alan-token'] = {
      id: 'oidc:u-alan',
      kind: 'oidc',
      roles: ['hrm:writer'],
      person: 'u-alan',
      email: 'Alan@halcyon.example',
    };
    const res = await request(app)
      .patch(`/api/v1/leave/${id}`)
      .set({ Authorization: 'Bearer alan-token' })
      .send({ status: 'Rejected', approver_id: h.fixtures.ada });
    expect([res.status, res.body.error.code]).toEqual([403, 'not_the_approver']);
  });

  it('under a policy, records the approver’s employee, not whom the proposer named', async () => {
    await policy(h.suite, hrmModule, 'PATCH /api/v1/leave/{id}', 'hrm:approver');
    const id = await openLeave();
    const writer = await key(h.suite, { roles: ['hrm:writer'] });
    const proposed = await request(app)
      .patch(`/api/v1/leave/${id}`)
      .set(bearer(writer))
      .send({ status: 'Approved' })
      .expect(202);
    const ada = await key(h.suite, { roles: ['hrm:approver'], person: `hrm.employee-${h.fixtures.ada}` });
    const applied = await request(app)
      .post(`/api/v1/proposals/${proposed.body.id}/approve`)
      .set(bearer(ada))
      .expect(200);
    expect(applied.body.result.approved_by).toBe(h.fixtures.ada);
  });
});

describe('a service request names its linked approver', () => {
  let harness: ModuleHarness<undefined>;
  let app: RequestListener;
  beforeAll(async () => {
    harness = await openModule(esmModule);
    app = appOf(esmModule, harness.suite);
  });
  afterAll(() => harness.close());

  it('refuses a linked person naming another approver: 403 not_the_approver; records them otherwise', async () => {
    const creator = { Authorization: `Bearer ${TOKEN}` };
    const created = await request(app)
      .post('/api/v1/requests')
      .set(creator)
      .send({ title: 'New laptop', status: 'Pending Approval', priority: 'Low' })
      .expect(201);
    const linked = await key(harness.suite, { roles: ['esm:writer'], person: 'hrm.employee-7' });
    const path = `/api/v1/requests/${created.body.id}`;
    const other = await request(app).patch(path).set(bearer(linked)).send({ status: 'Open', approver_id: 5 });
    expect([other.status, other.body.error.code]).toEqual([403, 'not_the_approver']);
    const res = await request(app).patch(path).set(bearer(linked)).send({ status: 'Open' }).expect(200);
    expect(res.body.approver_id).toBe(7);
  });
});

import type { RequestListener } from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { PROPOSALS_COLLECTION, type ProposalRecord } from '../../src/approvals';
import { clearApprovalRequirement, requireApproval } from '../../src/approvals/policies';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { callerOf } from '../../src/api/kit/auth';
import { createIdentity } from '../../src/api/kit/identity';
import { finishingApproved } from '../../src/api/kit/proposal-apply';
import { proposalRoutes } from '../../src/api/kit/proposal-routes';
import type { ModuleServices } from '../../src/modules/module';
import type { CommandContext } from '../../src/commands/context';
import type { EventStore } from '../../src/events/event-store';
import { holds } from '../../src/iam/holds';
import { issueKey, keyAuthenticator, revokeKey } from '../../src/iam';
import type { Role } from '../../src/iam/principal';
import { createSeedContext } from '../../src/seed/context';
import { approvedProposals, APPROVAL_GRACE_MS } from '../../src/workers/approved-proposals';
import { openModule, SERVER_SECRET, TOKEN, type ModuleHarness } from '../support/module-harness';

const ROUTE = 'POST /api/v1/requests';
const PERSONS = ['ann', 'bob', 'cy'];
const KEY_ROLES: Role[][] = [['esm:writer'], ['esm:approver'], ['admin'], ['esm:writer', 'esm:approver']];

type Op =
  | { kind: 'issue'; person: number; roles: number }
  | { kind: 'revoke'; key: number }
  | { kind: 'policy'; role: 'esm:approver' | 'admin' | null }
  | { kind: 'propose'; key: number }
  | { kind: 'approve'; proposal: number; key: number }
  | { kind: 'reject'; proposal: number; key: number }
  | { kind: 'crash'; proposal: number; key: number; at: 'approval' | 'write' }
  | { kind: 'restart' };

const index = fc.nat({ max: 7 });
const issue = fc.record({
  kind: fc.constant('issue' as const),
  person: fc.nat({ max: PERSONS.length - 1 }),
  roles: fc.nat({ max: KEY_ROLES.length - 1 }),
});
const policyChange = fc.record({
  kind: fc.constant('policy' as const),
  role: fc.constantFrom('esm:approver' as const, 'admin' as const, null),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: issue, weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('revoke' as const), key: index }), weight: 1 },
  { arbitrary: policyChange, weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('propose' as const), key: index }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant('approve' as const), proposal: index, key: index }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('reject' as const), proposal: index, key: index }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('crash' as const),
      proposal: index,
      key: index,
      at: fc.constantFrom('approval' as const, 'write' as const),
    }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'restart' as const }), weight: 1 },
);
/** Keys and a policy first, then anything, in any order. */
const scenario: fc.Arbitrary<Op[]> = fc
  .tuple(
    fc.array(issue, { minLength: 3, maxLength: 5 }),
    fc.constantFrom('esm:approver' as const, 'admin' as const),
    fc.array(op, { minLength: 8, maxLength: 24 }),
  )
  .map(([keys, role, rest]) => [...keys, { kind: 'policy' as const, role }, ...rest]);

interface ModelKey {
  id: string;
  token: string;
  person: string;
  roles: Role[];
  active: boolean;
}

interface Proposed {
  id: string;
  proposer: ModelKey;
  /** The policy's role when it was proposed: what approves it once the policy is cleared. */
  role: Role;
}

/** What held when an approval was recorded: the rules of that moment. */
interface Moment {
  proposerPerson: string;
  proposerActive: boolean;
  approverPerson: string;
  approverRoles: Role[];
  approverActive: boolean;
  required: Role;
}

/**
 * A store that dies, as a killed process does: once the kill point is passed, no append ever
 * completes. `reached` resolves when it died.
 */
function dying(store: EventStore, at: 'approval' | 'write') {
  let dead = false;
  let died: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (died = resolve));
  const appendAll: EventStore['appendAll'] = async (appends) => {
    if (dead) return new Promise(() => undefined);
    const result = await store.appendAll(appends);
    const killed = appends.some((part) =>
      at === 'approval'
        ? part.events.some((event) => event.type === 'ChangeApproved')
        : part.stream.startsWith('esm.request-'),
    );
    if (killed) {
      dead = true;
      died();
    }
    return result;
  };
  return { store: { ...store, appendAll }, reached };
}

describe('four eyes, whatever happens in between (property)', () => {
  jest.setTimeout(60_000);

  it('applies nothing without two persons holding the roles of the moment, nothing twice, and leaves nothing approved', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (ops) => {
        const harness: ModuleHarness<undefined> = await openModule(esmModule);
        try {
          await run(harness, ops);
        } finally {
          await harness.close();
        }
      }),
      { numRuns: 40, interruptAfterTimeLimit: 45_000 },
    );
  });
});

async function run(harness: ModuleHarness<undefined>, ops: readonly Op[]) {
  const { suite } = harness;
  const identity = createIdentity({
    apiToken: TOKEN,
    authenticators: [keyAuthenticator(suite.readStore, SERVER_SECRET, suite.clock)],
  });
  const app: RequestListener = createModuleApp(esmModule, suite, {
    apiToken: TOKEN,
    sessionSecret: SERVER_SECRET,
    identity,
  });
  const operator = (): CommandContext => ({
    ...createSeedContext(suite.eventStore, suite.ids, `operator-${Math.random()}`).commands,
    clock: suite.clock,
  });
  const settled = async () => suite.runtime.waitFor(await suite.eventStore.headPosition());
  const keys: ModelKey[] = [];
  const proposals: Proposed[] = [];
  const moments = new Map<string, Moment>();
  let policy: Role | null = null;
  const settings = () => ({ apiToken: TOKEN, sessionSecret: SERVER_SECRET });
  const restart = async () => {
    const later = { now: () => new Date(suite.clock.now().getTime() + APPROVAL_GRACE_MS + 1_000) };
    await approvedProposals({ ...suite, clock: later }, finishingApproved([esmModule], settings)).finishDue();
    await settled();
  };
  const momentOf = (proposal: Proposed, approver: ModelKey): Moment => ({
    proposerPerson: proposal.proposer.person,
    proposerActive: proposal.proposer.active,
    approverPerson: approver.person,
    approverRoles: approver.roles,
    approverActive: approver.active,
    required: policy ?? proposal.role,
  });
  const recordIfApproved = async (proposal: Proposed, moment: Moment) => {
    const stored = await suite.readStore.get(PROPOSALS_COLLECTION, proposal.id);
    const record = JSON.parse(stored as string) as ProposalRecord;
    if (record.status !== 'pending' && record.approver_person !== null && !moments.has(proposal.id)) {
      moments.set(proposal.id, moment);
    }
  };

  for (const step of ops) {
    const key = 'key' in step ? keys[step.key % Math.max(keys.length, 1)] : undefined;
    const proposal =
      'proposal' in step ? proposals[step.proposal % Math.max(proposals.length, 1)] : undefined;
    switch (step.kind) {
      case 'issue': {
        const roles = KEY_ROLES[step.roles] as Role[];
        const person = PERSONS[step.person] as string;
        const issued = await issueKey(
          operator(),
          { name: person, roles, member: null, workspace: null, person, expiresIn: null },
          SERVER_SECRET,
        );
        keys.push({ id: issued.id, token: issued.token, person, roles, active: true });
        break;
      }
      case 'revoke':
        if (!key) break;
        await revokeKey(operator(), key.id);
        key.active = false;
        break;
      case 'policy':
        if (step.role === null) {
          if (policy !== null) await clearApprovalRequirement(operator(), esmModule, ROUTE);
        } else await requireApproval(operator(), esmModule, ROUTE, step.role);
        policy = step.role;
        break;
      case 'propose': {
        if (!key) break;
        const res = await request(app)
          .post('/api/v1/requests')
          .set({ Authorization: `Bearer ${key.token}` })
          .send({ title: `Laptop ${proposals.length}`, status: 'Open', priority: 'Low' });
        if (res.status === 202) proposals.push({ id: res.body.id, proposer: key, role: policy as Role });
        break;
      }
      case 'approve':
      case 'reject': {
        if (!key || !proposal) break;
        const moment = momentOf(proposal, key);
        const req = request(app)
          .post(`/api/v1/proposals/${proposal.id}/${step.kind}`)
          .set({ Authorization: `Bearer ${key.token}` });
        await (step.kind === 'reject' ? req.send({ reason: 'No' }) : req);
        await settled();
        if (step.kind === 'approve') await recordIfApproved(proposal, moment);
        break;
      }
      case 'crash': {
        if (!key || !proposal) break;
        const moment = momentOf(proposal, key);
        const principal = await keyAuthenticator(
          suite.readStore,
          SERVER_SECRET,
          suite.clock,
        )(key.token).catch(() => null);
        if (!principal) break;
        const { store, reached } = dying(suite.eventStore, step.at);
        const services: ModuleServices = { ...suite, eventStore: store };
        const approve = proposalRoutes(esmModule).find((route) => route.operation === 'approveProposal');
        const handling = approve?.handle(
          {
            query: undefined,
            params: { id: proposal.id },
            body: undefined,
            caller: callerOf(principal),
            requestId: `crash-${proposal.id}`,
            header: () => undefined,
            commands: operator(),
            settings: settings(),
          },
          services,
        );
        // The process dies at the kill point (the request never ends), or the request was refused.
        await Promise.race([reached, handling?.catch(() => undefined)]);
        await settled();
        await recordIfApproved(proposal, moment);
        break;
      }
      case 'restart':
        await restart();
        break;
    }
    await settled();
  }
  await restart();

  for (const { id } of proposals) {
    const record = JSON.parse(
      (await suite.readStore.get(PROPOSALS_COLLECTION, id)) as string,
    ) as ProposalRecord;
    expect(record.status).not.toBe('approved');
    const writes = (await suite.eventStore.queryLog({ after: 0, limit: 10_000 })).filter(
      (event) => event.stream.startsWith('esm.request-') && event.metadata.proposal_id === id,
    );
    const submitted = writes.filter((event) => event.type === 'RequestSubmitted');
    expect(submitted.length).toBe(record.status === 'applied' ? 1 : 0);
    if (submitted.length > 0) {
      const moment = moments.get(id) as Moment;
      expect(moment).toBeDefined();
      expect(moment.approverPerson).not.toBe(moment.proposerPerson);
      expect(moment.proposerActive && moment.approverActive).toBe(true);
      expect(holds({ roles: moment.approverRoles }, moment.required)).toBe(true);
    }
  }
}

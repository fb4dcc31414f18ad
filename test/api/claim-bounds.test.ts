import type { RequestListener } from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { requireApproval } from '../../src/approvals/policies';
import { createSeedContext } from '../../src/seed/context';
import {
  acceptingTokensOf,
  createIdentityProvider,
  type IdentityProvider,
} from '../support/identity-provider';
import { openModule, SERVER_SECRET, type ModuleHarness } from '../support/module-harness';
import { tempDir } from '../support/temp-dir';

const SEED = 51;
const REQUEST = { title: 'Filed through the identity provider', status: 'Open', priority: 'Low' };

describe('claims of any size, on writes held back for approval and on their approval', () => {
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
    const { commands } = createSeedContext(harness.suite.eventStore, harness.suite.ids, 'policy');
    const { outcome } = await requireApproval(commands, esmModule, 'POST /api/v1/requests', 'esm:approver');
    await harness.suite.runtime.waitFor(outcome.events.at(-1)?.position ?? 0);
  });
  afterAll(async () => {
    await harness.close();
    cleanup();
  });

  const as = async (claims: Record<string, unknown>, roles: string[]) => ({
    Authorization: `Bearer ${await idp.token({ ...claims, roles })}`,
  });
  const propose = async (claims: Record<string, unknown>) =>
    request(app)
      .post('/api/v1/requests')
      .set(await as(claims, ['esm:writer']))
      .send(REQUEST);
  const approve = async (id: string, claims: Record<string, unknown>) =>
    request(app)
      .post(`/api/v1/proposals/${id}/approve`)
      .set(await as(claims, ['esm:approver']));

  it('holds back and applies a write of a subject of 255 characters and names of 200', async () => {
    const writer = { sub: 'w'.repeat(255), name: 'n'.repeat(200) };
    const proposed = await propose(writer);
    expect(proposed.status).toBe(202);
    const approved = await approve(proposed.body.id, {
      sub: 'a'.repeat(255),
      email: `${'e'.repeat(193)}@x.test`,
    });
    expect([approved.status, approved.body.decided_by]).toEqual([200, `oidc:${'a'.repeat(255)}`]);
  });

  it('refuses a longer subject or name with 401 invalid_token, proposing or approving, and records nothing', async () => {
    const proposed = await propose({ sub: 'w-1' });
    const head = await harness.suite.eventStore.headPosition();
    for (const claims of [{ sub: 's'.repeat(296) }, { sub: 'u-2', name: 'n'.repeat(301) }]) {
      for (const answer of [await propose(claims), await approve(proposed.body.id, claims)]) {
        expect([answer.status, answer.body.error?.code]).toEqual([401, 'invalid_token']);
      }
    }
    expect(await harness.suite.eventStore.headPosition()).toBe(head);
  });

  it('answers every subject and name, however long or odd, with no 5xx', async () => {
    const text = (max: number) => fc.string({ unit: 'binary', minLength: 1, maxLength: max });
    await fc.assert(
      fc.asyncProperty(
        fc.record({ sub: text(400), name: text(400) }),
        fc.record({ sub: text(400), name: text(400) }),
        async (writer, approver) => {
          const proposed = await propose(writer);
          expect(proposed.status).toBeLessThan(500);
          const within = (claims: { sub: string; name: string }) =>
            claims.sub.length <= 255 && claims.name.length <= 200;
          expect(proposed.status).toBe(within(writer) ? 202 : 401);
          if (proposed.status !== 202) return;
          const approved = await approve(proposed.body.id, approver);
          expect(approved.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40, seed: SEED },
    );
  });
});

import request from 'supertest';
import { clmModule } from '../../src/api/clm';
import { allDocuments, openModule, TOKEN, type ModuleHarness } from '../support/module-harness';

type Doc = Record<string, unknown>;

const COLLECTIONS = ['workspaces', 'members', 'counterparties', 'contracts', 'obligations'];

let demo: ModuleHarness<undefined>;
beforeAll(async () => {
  demo = await openModule(clmModule, { demo: true });
}, 60_000);
afterAll(() => demo.close());

const all = async (collection: string) => (await allDocuments(demo, `clm.${collection}`)) as unknown as Doc[];

describe('contract demo data', () => {
  it('has the documented workspaces and members', async () => {
    expect((await all('workspaces')).map((doc) => doc.id).sort()).toEqual(['ws-acme', 'ws-globex']);
    const roles = Object.fromEntries(
      (await all('members')).map((doc) => [doc.id, `${doc.workspace_id}:${doc.role}`]),
    );
    expect(roles).toMatchObject({
      'm-acme-owner': 'ws-acme:owner',
      'm-acme-viewer': 'ws-acme:viewer',
      'm-acme-procurement': 'ws-acme:editor',
      'm-globex-owner': 'ws-globex:owner',
    });
  });

  it('holds a portfolio of 40 to 80 contracts per workspace in several statuses', async () => {
    const contracts = await all('contracts');
    for (const workspace of ['ws-acme', 'ws-globex']) {
      const own = contracts.filter((doc) => doc.workspace_id === workspace);
      expect(own.length).toBeGreaterThanOrEqual(40);
      expect(own.length).toBeLessThanOrEqual(80);
      expect(new Set(own.map((doc) => doc.status)).size).toBeGreaterThanOrEqual(4);
    }
  });

  it('keeps every reference inside its workspace', async () => {
    const byId = async (collection: string) => new Map((await all(collection)).map((doc) => [doc.id, doc]));
    const counterparties = await byId('counterparties');
    const members = await byId('members');
    const contracts = await byId('contracts');
    for (const contract of contracts.values()) {
      expect(counterparties.get(contract.counterparty_id)?.workspace_id).toBe(contract.workspace_id);
      expect(members.get(contract.owner_id)?.workspace_id).toBe(contract.workspace_id);
      const versions = contract.versions as { author_id: string }[];
      expect(versions.length).toBeGreaterThan(0);
      for (const version of versions)
        expect(members.get(version.author_id)?.workspace_id).toBe(contract.workspace_id);
    }
    for (const obligation of await all('obligations')) {
      expect(contracts.get(obligation.contract_id)?.workspace_id).toBe(obligation.workspace_id);
    }
    for (const counterparty of counterparties.values()) {
      const count = [...contracts.values()].filter(
        (contract) => contract.counterparty_id === counterparty.id,
      ).length;
      expect(counterparty.contract_count).toBe(count);
    }
  });

  it('has overdue, upcoming and completed obligations in each workspace on 2026-11-21', async () => {
    const headers = { Authorization: `Bearer ${TOKEN}` };
    for (const workspace of ['ws-acme', 'ws-globex']) {
      for (const status of ['overdue', 'open', 'completed']) {
        const res = await request(demo.app)
          .get('/api/v1/obligations')
          .set({ ...headers, 'X-Svc-Organisation': workspace })
          .query({ status })
          .expect(200);
        expect([workspace, status, res.body.meta.total > 0]).toEqual([workspace, status, true]);
      }
    }
  });

  it('is deterministic, and a rebuild from the log gives the same read models', async () => {
    const snapshot = async (harness: ModuleHarness<undefined>) =>
      Object.fromEntries(
        await Promise.all(
          COLLECTIONS.map(async (name) => [name, await allDocuments(harness, `clm.${name}`)] as const),
        ),
      );
    const live = await snapshot(demo);
    const again = await openModule(clmModule, { demo: true });
    try {
      const [head] = await demo.suite.eventStore.readAll({
        after: (await demo.suite.eventStore.headPosition()) - 1,
        limit: 1,
      });
      const [otherHead] = await again.suite.eventStore.readAll({
        after: (await again.suite.eventStore.headPosition()) - 1,
        limit: 1,
      });
      expect(otherHead?.hash).toBe(head?.hash);
      expect(await snapshot(again)).toEqual(live);
      await again.suite.runtime.rebuild();
      expect(await snapshot(again)).toEqual(live);
    } finally {
      await again.close();
    }
  }, 60_000);
});

import request from 'supertest';
import { clmModule } from '../../src/api/clm';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { ACME, GLOBEX, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';
import { expectEnvelope } from './spec';

let h: ModuleHarness<ClmFixtures>;
beforeAll(async () => {
  h = await openModule(clmModule, { fixtures: clmFixtures });
});
afterAll(() => h.close());

const as = (workspace: string, actor?: string) => ({
  Authorization: `Bearer ${TOKEN}`,
  'X-Svc-Organisation': workspace,
  ...(actor && { 'X-Svc-Actor': actor }),
});
const get = (workspace: string, path: string) => request(h.app).get(path).set(as(workspace));
/** A list, a page large enough for every fixture. */
const list = (workspace: string, path: string, query: Record<string, string | number> = {}) =>
  get(workspace, path).query({ limit: 200, ...query });
const ids = (res: request.Response) => (res.body.data as { id: string }[]).map((row) => row.id).sort();

describe('lists never show or count another workspace\u2019s records', () => {
  it.each([
    [
      '/api/v1/contracts',
      (f: ClmFixtures) => [f.approved, f.active, f.draft, f.inReview],
      (f: ClmFixtures) => [f.globexContract],
    ],
    [
      '/api/v1/obligations',
      (f: ClmFixtures) => [f.overdue, f.upcoming, f.later, f.completed],
      (f: ClmFixtures) => [f.globexObligation],
    ],
    ['/api/v1/counterparties', (f: ClmFixtures) => [f.nordwind, f.quiet], (f: ClmFixtures) => [f.polder]],
    ['/api/v1/members', () => ['m-acme-owner', 'm-acme-editor', 'm-acme-viewer'], () => ['m-globex-owner']],
    ['/api/v1/workspaces', () => [ACME], () => [GLOBEX]],
  ])('%s', async (path, acmeIds, globexIds) => {
    const acme = await list(ACME, path).expect(200);
    expect(ids(acme)).toEqual([...acmeIds(h.fixtures)].sort());
    expect(acme.body.meta.total).toBe(acmeIds(h.fixtures).length);
    const globex = await list(GLOBEX, path).expect(200);
    expect(ids(globex)).toEqual([...globexIds(h.fixtures)].sort());
    expect(globex.body.meta.total).toBe(globexIds(h.fixtures).length);
  });

  it('finds nothing when filtering by another workspace\u2019s ids', async () => {
    const f = h.fixtures;
    const none = { data: [], meta: { total: 0, limit: 200, offset: 0, next: null } };
    expect((await list(ACME, '/api/v1/contracts', { counterparty_id: f.polder }).expect(200)).body).toEqual(
      none,
    );
    expect(
      (await list(ACME, '/api/v1/obligations', { contract_id: f.globexContract }).expect(200)).body,
    ).toEqual(none);
    expect((await list(GLOBEX, '/api/v1/obligations', { contract_id: f.active }).expect(200)).body).toEqual(
      none,
    );
  });

  it('finds nothing when searching for another workspace\u2019s text', async () => {
    expect((await list(ACME, '/api/v1/contracts', { q: 'polder' }).expect(200)).body.meta.total).toBe(0);
    expect((await list(ACME, '/api/v1/counterparties', { q: 'Polder' }).expect(200)).body.meta.total).toBe(0);
    expect((await list(ACME, '/api/v1/obligations', { q: 'payroll' }).expect(200)).body.meta.total).toBe(0);
    expect((await list(GLOBEX, '/api/v1/contracts', { q: 'nordwind' }).expect(200)).body.meta.total).toBe(0);
  });

  it('counts contracts on counterparties within the workspace only', async () => {
    const res = await get(ACME, `/api/v1/counterparties/${h.fixtures.nordwind}`).expect(200);
    expect(res.body).toMatchObject({ contract_count: 3, active_contract_count: 1 });
  });
});

describe('another workspace\u2019s record is not found by id', () => {
  it.each([
    ['contracts', (f: ClmFixtures) => f.globexContract, (f: ClmFixtures) => f.active],
    ['obligations', (f: ClmFixtures) => f.globexObligation, (f: ClmFixtures) => f.overdue],
    ['counterparties', (f: ClmFixtures) => f.polder, (f: ClmFixtures) => f.nordwind],
    ['members', () => 'm-globex-owner', () => 'm-acme-viewer'],
    ['workspaces', () => GLOBEX, () => ACME],
  ])('GET /api/v1/%s/{id} is 404 across workspaces, 200 within', async (path, globexId, acmeId) => {
    const f = h.fixtures;
    expectEnvelope(await get(ACME, `/api/v1/${path}/${globexId(f)}`), 404, 'not_found');
    expectEnvelope(await get(GLOBEX, `/api/v1/${path}/${acmeId(f)}`), 404, 'not_found');
    await get(GLOBEX, `/api/v1/${path}/${globexId(f)}`).expect(200);
    await get(ACME, `/api/v1/${path}/${acmeId(f)}`).expect(200);
  });

  it('answers a missing id and another workspace\u2019s id alike', async () => {
    const other = await get(ACME, `/api/v1/contracts/${h.fixtures.globexContract}`);
    const missing = await get(ACME, '/api/v1/contracts/ctr_doesnotexist');
    expect([other.status, other.body.error.code]).toEqual([missing.status, missing.body.error.code]);
  });
});

describe('writes cannot reach another workspace\u2019s contracts', () => {
  it('POST /api/v1/obligations on another workspace\u2019s contract is 404 and appends nothing', async () => {
    const head = await h.suite.eventStore.headPosition();
    const res = await request(h.app)
      .post('/api/v1/obligations')
      .set(as(ACME, 'm-acme-owner'))
      .send({ contract_id: h.fixtures.globexContract, title: 'Sneaky', due_date: '2027-01-01' });
    expectEnvelope(res, 404, 'not_found');
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });

  it('POST /contracts/{id}/signatures on another workspace\u2019s contract is 404 and appends nothing', async () => {
    const head = await h.suite.eventStore.headPosition();
    for (const provider of ['docusign', 'dropbox_sign']) {
      const res = await request(h.app)
        .post(`/contracts/${h.fixtures.globexContract}/signatures`)
        .set(as(ACME, 'm-acme-owner'))
        .send({ provider });
      expectEnvelope(res, 404, 'not_found');
    }
    const back = await request(h.app)
      .post(`/contracts/${h.fixtures.approved}/signatures`)
      .set(as(GLOBEX, 'm-globex-owner'))
      .send({ provider: 'docusign' });
    expectEnvelope(back, 404, 'not_found');
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });

  it('a member of one workspace cannot act in the other, even naming its own contract', async () => {
    const res = await request(h.app)
      .post('/api/v1/obligations')
      .set(as(GLOBEX, 'm-acme-owner'))
      .send({ contract_id: h.fixtures.active, title: 'Cross', due_date: '2027-01-01' });
    expectEnvelope(res, 403, 'forbidden');
  });
});

describe('the change feed shows each workspace its own records only', () => {
  it.each([
    [ACME, GLOBEX],
    [GLOBEX, ACME],
  ])('%s', async (own, other) => {
    const res = await get(own, '/api/v1/changes?limit=1000').expect(200);
    const changes = res.body.data as { resource: string; id: string; record: Record<string, unknown> }[];
    expect(changes.length).toBeGreaterThan(0);
    for (const { resource, record } of changes) {
      expect(resource === 'workspaces' ? record.id : record.workspace_id).toBe(own);
    }
    expect(JSON.stringify(res.body)).not.toContain(other);
    // Every contract and obligation of the workspace, as its reads serve it.
    const contracts = await list(own, '/api/v1/contracts').expect(200);
    const fed = new Map(changes.filter((c) => c.resource === 'contracts').map((c) => [c.id, c.record]));
    for (const contract of contracts.body.data as { id: string }[])
      expect(fed.get(contract.id)).toEqual(contract);
  });
});

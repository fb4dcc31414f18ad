import request from 'supertest';
import { actOnArticle, addDepartment, draftArticle } from '../../src/commands/esm/handlers';
import { createSeedContext } from '../../src/seed/context';
import { openEsm, type EsmHarness } from '../support/esm-harness';
import {
  DEPARTMENT,
  KNOWLEDGE_ARTICLE,
  REQUEST,
  SERVICE,
  auth,
  expectDetail,
  expectEnvelope,
  expectShape,
  type SpecTable,
} from './spec';

type Row = Record<string, unknown> & { id: number };

let h: EsmHarness;

/** Adds to the fixture catalogue: three more departments, three articles (one published), four requests. */
async function seed(): Promise<void> {
  const context = createSeedContext(h.suite.eventStore, h.suite.ids, 'reads');
  context.at(new Date('2026-11-02T08:00:00Z'));
  for (const name of ['Facilities', 'HR', 'Finance'])
    await addDepartment(context.commands, { name, icon: null });
  const article = (title: string, content: string | null) =>
    draftArticle(context.commands, {
      title,
      category_id: null,
      department_id: h.fixtures.itDepartment,
      content,
      author: 'Ana',
    });
  const { id: vpn } = await article('VPN setup guide', 'Install the client, then sign in.');
  await article('Resetting your password', 'Use the self-service portal.');
  await article('Printer drivers', null);
  await actOnArticle(context.commands, vpn, { type: 'PublishArticle', at: '2026-11-03T08:00:00Z' });
  await h.suite.runtime.waitFor(await h.suite.eventStore.headPosition());

  const { laptopService, accessService } = h.fixtures;
  const bodies = [
    {
      title: 'Laptop for Ana',
      status: 'Open',
      priority: 'High',
      service_id: laptopService,
      form_data: JSON.stringify({ model: 'MacBook Air', cost_centre: 'CC-4120' }),
    },
    { title: 'Access to payroll', status: 'Open', priority: 'Medium', service_id: accessService },
    { title: 'Broken mouse', status: 'Open', priority: 'Low' },
    { title: 'Printer jam on floor 2', status: 'Open', priority: 'Urgent' },
  ];
  for (const body of bodies) await request(h.app).post('/api/v1/requests').set(auth).send(body).expect(201);
}

beforeAll(async () => {
  h = await openEsm();
  await seed();
});
afterAll(() => h.close());

const list = (path: string, query: Record<string, string | number> = {}) =>
  request(h.app).get(`/api/v1/${path}`).query(query);

interface Resource {
  path: string;
  table: SpecTable;
  total: number;
  /** A query in mixed case and the `field` value it must find, alone. */
  search: { q: string; field: string; value: string };
}

const RESOURCES: Resource[] = [
  {
    path: 'services',
    table: SERVICE,
    total: 3,
    search: { q: 'new LAPTOP', field: 'name', value: 'New laptop' },
  },
  {
    path: 'requests',
    table: REQUEST,
    total: 4,
    search: { q: 'PRINTER', field: 'title', value: 'Printer jam on floor 2' },
  },
  {
    path: 'knowledge',
    table: KNOWLEDGE_ARTICLE,
    total: 3,
    search: { q: 'vPn', field: 'title', value: 'VPN setup guide' },
  },
  {
    path: 'departments',
    table: DEPARTMENT,
    total: 4,
    search: { q: 'faciL', field: 'name', value: 'Facilities' },
  },
];

describe.each(RESOURCES)('GET /api/v1/$path', ({ path, table, total, search }) => {
  it('answers the collection envelope with default limit 50 and offset 0', async () => {
    const res = await list(path).expect(200);
    expect(res.type).toBe('application/json');
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    expect(res.body.meta).toEqual({ total, limit: 50, offset: 0, next: null });
  });

  it('counts every record exactly in meta.total', async () => {
    const res = await list(path).expect(200);
    expect(res.body.data).toHaveLength(total);
    expect(res.body.meta.total).toBe(total);
  });

  it('returns records with exactly the spec fields and types', async () => {
    const res = await list(path).expect(200);
    for (const record of res.body.data) expectShape(record, table);
  });

  it('orders records by id, the same way on every call', async () => {
    const first = (await list(path).expect(200)).body.data as Row[];
    const ids = first.map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await list(path).expect(200)).body.data).toEqual(first);
  });

  it('honours limit and offset and keeps the total', async () => {
    const all = (await list(path).expect(200)).body.data as Row[];
    const res = await list(path, { limit: 2, offset: 1 }).expect(200);
    expect(res.body.data).toEqual(all.slice(1, 3));
    expect(res.body.meta).toEqual({
      total,
      limit: 2,
      offset: 1,
      next: total > 3 ? expect.any(String) : null,
    });
  });

  it('answers an empty page past the end with the total intact', async () => {
    const res = await list(path, { offset: 100 }).expect(200);
    expect(res.body).toEqual({ data: [], meta: { total, limit: 50, offset: 100, next: null } });
  });

  it('accepts limit=200, the maximum', async () => {
    const res = await list(path, { limit: 200 }).expect(200);
    expect(res.body.meta).toEqual({ total, limit: 200, offset: 0, next: null });
  });

  it('searches case-insensitively with q and counts only the matches', async () => {
    const res = await list(path, { q: search.q }).expect(200);
    expect(res.body.data.map((row: Row) => row[search.field])).toEqual([search.value]);
    expect(res.body.meta.total).toBe(1);
  });

  it('finds nothing for a q that matches no record', async () => {
    const res = await list(path, { q: 'zzzz-no-such-text' }).expect(200);
    expect(res.body).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0, next: null } });
  });

  it('returns one record by id, equal to its list entry', async () => {
    const all = (await list(path).expect(200)).body.data as Row[];
    const wanted = all[all.length - 1] as Row;
    const res = await request(h.app).get(`/api/v1/${path}/${wanted.id}`).expect(200);
    expect(res.type).toBe('application/json');
    expectShape(res.body, table);
    expect(res.body).toEqual(wanted);
  });

  it('answers an unknown id with a 404 error envelope', async () => {
    expectEnvelope(await request(h.app).get(`/api/v1/${path}/999999`), 404, 'not_found');
  });

  it.each(['abc', '1.5', '1e2'])('rejects the non-integer id %s with a 422 path detail', async (id) => {
    expectDetail(await request(h.app).get(`/api/v1/${path}/${id}`), ['path', 'item_id']);
  });

  it.each([
    [{ limit: 0 }, ['query', 'limit']],
    [{ limit: 201 }, ['query', 'limit']],
    [{ limit: 'abc' }, ['query', 'limit']],
    [{ limit: '2.5' }, ['query', 'limit']],
    [{ offset: -1 }, ['query', 'offset']],
    [{ offset: 'x' }, ['query', 'offset']],
  ])('rejects %j with a 422 detail at its location', async (query, loc) => {
    expectDetail(await list(path, query), loc);
  });

  it('reports every invalid paging parameter at once', async () => {
    expectDetail(await list(path, { limit: 0, offset: -1 }), ['query', 'limit'], ['query', 'offset']);
  });
});

describe('request list filters', () => {
  const titles = async (query: Record<string, string>) => {
    const res = await list('requests', query).expect(200);
    expect(res.body.meta.total).toBe(res.body.data.length);
    return (res.body.data as Row[]).map((row) => row.title);
  };

  it('filters by status', async () => {
    expect(await titles({ status: 'Pending Approval' })).toEqual(['Access to payroll']);
    expect(await titles({ status: 'Open' })).toEqual([
      'Laptop for Ana',
      'Broken mouse',
      'Printer jam on floor 2',
    ]);
  });

  it('filters by status in any letter case', async () => {
    expect(await titles({ status: 'pending approval' })).toEqual(['Access to payroll']);
  });

  it('filters by priority', async () => {
    expect(await titles({ priority: 'Urgent' })).toEqual(['Printer jam on floor 2']);
    expect(await titles({ priority: 'low' })).toEqual(['Broken mouse']);
  });

  it('combines filters with q', async () => {
    expect(await titles({ status: 'Open', q: 'LAPTOP' })).toEqual(['Laptop for Ana']);
    expect(await titles({ status: 'Closed' })).toEqual([]);
  });

  it('finds a request by its ref in any letter case', async () => {
    expect(await titles({ q: 'req-000003' })).toEqual(['Broken mouse']);
  });

  it("searches the values of a request's form_data, not its keys or JSON punctuation", async () => {
    expect(await titles({ q: 'macbook air' })).toEqual(['Laptop for Ana']);
    expect(await titles({ q: 'cc-4120' })).toEqual(['Laptop for Ana']);
    expect(await titles({ q: 'cost_centre' })).toEqual([]);
    expect(await titles({ q: '":"' })).toEqual([]);
  });

  it('filters by service_id', async () => {
    expect(await titles({ service_id: String(h.fixtures.laptopService) })).toEqual(['Laptop for Ana']);
  });

  it('rejects an unknown status value with a 422 query detail', async () => {
    expectDetail(await list('requests', { status: 'Bogus' }), ['query', 'status']);
  });

  it('rejects an unknown priority value with a 422 query detail', async () => {
    expectDetail(await list('requests', { priority: 'Critical' }), ['query', 'priority']);
  });

  it('rejects a non-numeric service_id filter with a 422 query detail', async () => {
    expectDetail(await list('requests', { service_id: 'abc' }), ['query', 'service_id']);
  });

  it('describes a non-numeric filter value as a type error, not as a missing field', async () => {
    const res = await list('requests', { service_id: 'abc' });
    expect(res.body.detail[0]).not.toMatchObject({ type: 'missing' });
  });
});

describe('knowledge and service records', () => {
  it('shows a published article with its status and publication time', async () => {
    const res = await list('knowledge', { q: 'vpn' }).expect(200);
    expect(res.body.data[0]).toMatchObject({
      status: 'Published',
      published_on: '2026-11-03T08:00:00Z',
      views: 0,
    });
  });

  it('shows service flags as the integers 0 and 1', async () => {
    const res = await list('services').expect(200);
    const byId = new Map((res.body.data as Row[]).map((row) => [row.id, row]));
    expect(byId.get(h.fixtures.accessService)).toMatchObject({ requires_approval: 1, is_active: 1 });
    expect(byId.get(h.fixtures.retiredService)).toMatchObject({ requires_approval: 0, is_active: 0 });
  });
});

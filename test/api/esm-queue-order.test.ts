import request from 'supertest';
import { submitRequest } from '../../src/commands/esm/handlers';
import type { RequestPriority } from '../../src/events/esm';
import { createSeedContext } from '../../src/seed/context';
import { openEsm, type EsmHarness } from '../support/esm-harness';
import { auth, expectEnvelope } from './spec';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

/** Requests raised on the given days (in this order), each at its priority. */
async function raise(...requests: [string, RequestPriority][]): Promise<number[]> {
  const seed = createSeedContext(h.suite.eventStore, h.suite.ids, 'queue');
  const ids: number[] = [];
  for (const [day, priority] of requests) {
    seed.at(new Date(`${day}T10:00:00Z`));
    const { id } = await submitRequest(seed.commands, {
      title: `${priority} on ${day}`,
      status: 'Open',
      priority,
      service_id: h.fixtures.laptopService,
      department_id: null,
      requester_id: null,
      form_data: null,
    });
    ids.push(id);
  }
  await h.suite.runtime.waitFor(await h.suite.eventStore.headPosition());
  return ids;
}

const listed = async (query: string) =>
  (await request(h.app).get(`/api/v1/requests?${query}`).expect(200)).body.data.map(
    (item: { id: number }) => item.id,
  );

describe('sorting the request queue', () => {
  it('sorts by priority in its order of urgency, not alphabetically', async () => {
    const [low, urgent, medium, high] = await raise(
      ['2026-11-02', 'Low'],
      ['2026-11-03', 'Urgent'],
      ['2026-11-04', 'Medium'],
      ['2026-11-05', 'High'],
    );
    expect(await listed('sort=-priority')).toEqual([urgent, high, medium, low]);
    expect(await listed('sort=priority')).toEqual([low, medium, high, urgent]);
  });

  it('sorts by when a request was raised, newest first with -created', async () => {
    const [second, first, third] = await raise(
      ['2026-11-10', 'Low'],
      ['2026-11-03', 'Low'],
      ['2026-11-12', 'Low'],
    );
    expect(await listed('sort=-created')).toEqual([third, second, first]);
    expect(await listed('sort=created')).toEqual([first, second, third]);
  });

  it('sorts by due times, and pages through a sort by cursor without skipping or repeating', async () => {
    const ids = await raise(
      ['2026-11-10', 'Low'],
      ['2026-11-10', 'Urgent'],
      ['2026-11-03', 'Medium'],
      ['2026-11-12', 'High'],
    );
    const byResponse = await listed('sort=response_by');
    const dues = await Promise.all(
      byResponse.map(
        async (id: number) => (await request(h.app).get(`/api/v1/requests/${id}`)).body.response_by as string,
      ),
    );
    expect([...dues].sort()).toEqual(dues);
    expect(new Set(byResponse)).toEqual(new Set(ids));
    const first = (await request(h.app).get('/api/v1/requests?sort=-resolution_by&limit=2')).body;
    const rest = (await request(h.app).get(`/api/v1/requests?sort=-resolution_by&after=${first.meta.next}`))
      .body;
    expect([...first.data, ...rest.data].map((item: { id: number }) => item.id)).toEqual(
      await listed('sort=-resolution_by'),
    );
  });

  it('names the fields it sorts on when asked for another', async () => {
    const res = await request(h.app).get('/api/v1/requests?sort=title');
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('priority');
    expect(JSON.stringify(res.body)).toContain('resolution_by');
  });
});

describe('what a request shows staff', () => {
  it('offers the valid next statuses, and a refused move names them', async () => {
    const [id] = await raise(['2026-11-10', 'Low']);
    const record = (await request(h.app).get(`/api/v1/requests/${id}`)).body;
    expect(record.next_statuses).toEqual(['Replied', 'Resolved', 'Closed']);
    const refused = await request(h.app)
      .patch(`/api/v1/requests/${id}`)
      .set(auth)
      .send({ status: 'Pending Approval' });
    expectEnvelope(refused, 409, 'illegal_transition');
    expect(refused.body.error.details).toMatchObject({ allowed: ['Replied', 'Resolved', 'Closed'] });
    expect(refused.body.error.message).toContain('Replied, Resolved, Closed');
    const closed = await request(h.app).patch(`/api/v1/requests/${id}`).set(auth).send({ status: 'Closed' });
    expect(closed.body.next_statuses).toEqual([]);
  });

  it('names the assignee in the record, its list and the write\u2019s answer', async () => {
    const [id] = await raise(['2026-11-10', 'Low']);
    const assigned = await request(h.app)
      .patch(`/api/v1/requests/${id}`)
      .set(auth)
      .send({ assignee_id: h.fixtures.agent })
      .expect(200);
    expect(assigned.body).toMatchObject({ assignee_id: h.fixtures.agent, assignee_name: 'Priya Raman' });
    expect((await request(h.app).get(`/api/v1/requests/${id}`)).body.assignee_name).toBe('Priya Raman');
    const list = (await request(h.app).get('/api/v1/requests')).body.data;
    expect(list.map((item: { assignee_name: string | null }) => item.assignee_name)).toEqual(['Priya Raman']);
    const unassigned = await request(h.app)
      .patch(`/api/v1/requests/${id}`)
      .set(auth)
      .send({ assignee_id: null });
    expect(unassigned.body.assignee_name).toBeNull();
  });
});

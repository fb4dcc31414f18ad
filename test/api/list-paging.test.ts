import request from 'supertest';
import type { RequestListener } from 'node:http';
import { createModuleApp } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import { esmModule } from '../../src/api/esm';
import { loadConfig } from '../../src/config';
import { openSuite, startProjecting, type Suite } from '../../src/main';
import { SERVER_SECRET, TOKEN } from '../support/esm-harness';
import { tempDir } from '../support/temp-dir';
import { auth } from './spec';

type Row = { id: number; priority: string; priority_rank: number; created_at: string; updated_at: string };

let app: RequestListener;
let suite: Suite;
let cleanup: () => void;
/** The suite's clock: each write moves it on a minute, so every event is recorded at a time of its own. */
let now = Date.parse('2026-11-21T09:30:00Z');

const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'];

beforeAll(async () => {
  const dir = tempDir();
  cleanup = dir.cleanup;
  const config = loadConfig({ SUITE_DATA_DIR: dir.dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
  suite = await openSuite(config, {
    logger: createLogger('silent'),
    clock: { now: () => new Date((now += 60_000)) },
  });
  await startProjecting(suite);
  app = createModuleApp(esmModule, suite, { apiToken: TOKEN, sessionSecret: SERVER_SECRET });
  for (let n = 0; n < 20; n += 1) {
    const priority = PRIORITIES[n % PRIORITIES.length];
    await request(app)
      .post('/api/v1/requests')
      .set(auth)
      .send({ title: `Request ${n}`, status: 'Open', priority });
  }
});

afterAll(async () => {
  await suite.close();
  cleanup();
});

const list = (query: string) => request(app).get(`/api/v1/requests?${query}`);
const ids = (rows: Row[]) => rows.map((row) => row.id);
const move = (id: number, status: 'Open' | 'Replied') =>
  request(app).patch(`/api/v1/requests/${id}`).set(auth).send({ status }).expect(200);

describe('GET /api/v1/requests: sort and keyset paging', () => {
  it('walks status=Open by cursor without skipping or repeating a request that stayed Open, while others move to Replied and back', async () => {
    for (const sort of ['id', '-id', 'priority', '-priority,created_at']) {
      const openIds = async () => ids((await list('status=Open&limit=100').expect(200)).body.data);
      const stayedOpen = new Set(await openIds());
      const replied: number[] = [];
      const seen: number[] = [];
      let page = await list(`status=Open&sort=${sort}&limit=3`).expect(200);
      for (let turn = 0; ; turn += 1) {
        seen.push(...ids(page.body.data));
        // Between pages, two Open requests are replied to, and one replied to before is reopened.
        const open = await openIds();
        for (const id of new Set([open[(turn * 7) % open.length], open[(turn * 11 + 3) % open.length]])) {
          if (id === undefined) continue;
          await move(id, 'Replied');
          stayedOpen.delete(id);
          replied.push(id);
        }
        const back = replied.shift();
        if (back !== undefined) await move(back, 'Open');
        if (page.body.meta.next === null) break;
        page = await list(`status=Open&sort=${sort}&limit=3&after=${page.body.meta.next}`).expect(200);
      }
      expect(stayedOpen.size).toBeGreaterThan(0);
      for (const id of stayedOpen) expect(seen.filter((other) => other === id)).toEqual([id]);
      for (const id of replied) await move(id, 'Open');
    }
  });

  it('sorts ascending, descending and on several fields, the id last', async () => {
    const byId = ids((await list('limit=100').expect(200)).body.data);
    expect(ids((await list('sort=-id&limit=100').expect(200)).body.data)).toEqual([...byId].reverse());
    const rows: Row[] = (await list('sort=priority,-id&limit=100').expect(200)).body.data;
    // By urgency, Low to Urgent, not by the name's letters.
    const expected = [...rows].sort((a, b) => a.priority_rank - b.priority_rank || b.id - a.id);
    expect(ids(rows)).toEqual(ids(expected));
    expect(new Set(rows.map((row) => row.priority)).size).toBe(4);
  });

  it('answers meta.next on an offset page too, and null on the last', async () => {
    const first = await list('sort=-created_at&limit=5&offset=5').expect(200);
    const after = await list(`sort=-created_at&limit=5&after=${first.body.meta.next}`).expect(200);
    const deeper = await list('sort=-created_at&limit=5&offset=10').expect(200);
    expect(ids(after.body.data)).toEqual(ids(deeper.body.data));
    const last = await list('limit=100').expect(200);
    expect(last.body.meta).toMatchObject({ total: 20, limit: 100, offset: 0, next: null });
  });

  it('refuses an unknown sort field, naming those it sorts on', async () => {
    const res = await list('sort=title').expect(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['query', 'sort'], type: 'sort_field' });
    expect(res.body.detail[0].msg).toContain(
      'status, priority, service_id, department_id, assignee_id, sla_state, sla_changes_at, created, response_by, resolution_by, created_at, updated_at, id',
    );
  });

  it('refuses a malformed cursor, a cursor of another sort, and a cursor with offset', async () => {
    const next = (await list('sort=priority&limit=2').expect(200)).body.meta.next as string;
    const refused = async (query: string, msg: string) => {
      const res = await list(query).expect(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['query', 'after'], type: 'cursor' });
      expect(res.body.detail[0].msg).toContain(msg);
    };
    await refused('after=not-a-cursor', 'Not a cursor this list gave');
    await refused(
      `after=${Buffer.from('["id",[],"7"]').toString('base64url')}`,
      'Not a cursor this list gave',
    );
    await refused(
      `sort=-priority&after=${next}`,
      "belongs to sort=priority,id, not to this list's sort=-priority,-id",
    );
    await refused(`sort=priority&offset=2&after=${next}`, 'either after (a cursor) or offset');
  });
});

describe('created_at and updated_at', () => {
  it('are the times the request was made and last changed, the same in the list, by id and as of a time', async () => {
    const created = await request(app)
      .post('/api/v1/requests')
      .set(auth)
      .send({ title: 'Stamped', status: 'Open', priority: 'Low' })
      .expect(201);
    const { id, created_at, updated_at } = created.body as Row;
    expect(updated_at).toBe(created_at);
    const changed = await move(id, 'Replied');
    expect(changed.body.created_at).toBe(created_at);
    expect(Date.parse(changed.body.updated_at)).toBeGreaterThan(Date.parse(created_at));
    const read = await request(app).get(`/api/v1/requests/${id}`).expect(200);
    expect(read.body).toEqual(changed.body);
    const listed: Row[] = (await list(`sort=-updated_at&limit=1`).expect(200)).body.data;
    expect(listed[0]).toEqual(changed.body);
    const before = await request(app)
      .get(`/api/v1/requests/${id}?as_of=${encodeURIComponent(created_at)}`)
      .expect(200);
    expect(before.body.data).toMatchObject({ created_at, updated_at: created_at, status: 'Open' });
  });
});

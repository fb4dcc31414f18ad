import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { openEsm, type EsmHarness } from '../support/esm-harness';
import { auth, expectEnvelope, validRequest } from './spec';

/** `GET /api/v1/changes`: a module's record changes after a cursor, as a page, a long poll or a stream. */

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

interface Change {
  cursor: string;
  resource: string;
  id: number | string;
  op: string;
  position: number;
  occurred_at: string;
  record?: Record<string, unknown>;
}

const changes = (query = '') => request(h.app).get(`/api/v1/changes${query}`);

async function createRequest(): Promise<number> {
  const res = await request(h.app).post('/api/v1/requests').set(auth).send(validRequest).expect(201);
  return res.body.id as number;
}

/** Every change after the cursor, page by page. */
async function readAll(after?: string, limit = 2): Promise<{ data: Change[]; next: string }> {
  const data: Change[] = [];
  for (let cursor = after; ;) {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor && { after: cursor }) });
    const res = await changes(`?${query}`).expect(200);
    data.push(...(res.body.data as Change[]));
    cursor = res.body.meta.next as string;
    if (!res.body.meta.has_more) return { data, next: cursor };
  }
}

describe('GET /api/v1/changes', () => {
  it('answers every record change in log order, each with the record as it was after it', async () => {
    const id = await createRequest();
    await request(h.app).patch(`/api/v1/requests/${id}`).set(auth).send({ status: 'Resolved' }).expect(200);

    const { data } = await readAll();
    const ofRequest = data.filter((change) => change.resource === 'requests' && change.id === id);
    expect(ofRequest.map((change) => [change.op, change.record?.status])).toEqual([
      ['upsert', 'Open'],
      ['upsert', 'Resolved'],
    ]);
    // The catalogue written before the request comes first, and positions only grow.
    expect(data.map((change) => change.resource)).toContain('services');
    const positions = data.map((change) => change.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const latest = await request(h.app).get(`/api/v1/requests/${id}`).expect(200);
    // The read joins in the assignee's and the requester's names; the feed carries the record alone.
    expect(ofRequest.at(-1)?.record).toEqual({
      ...latest.body,
      assignee_name: undefined,
      requester_name: undefined,
    });
  });

  it('goes on from a change\u2019s cursor or from meta.next, and from now with after=now', async () => {
    const before = await readAll();
    const now = await changes('?after=now').expect(200);
    expect(now.body).toEqual({ data: [], meta: { next: expect.any(String), has_more: false } });

    const id = await createRequest();
    const fromNext = await readAll(before.next);
    expect(fromNext.data.map((change) => [change.resource, change.id, change.op])).toEqual([
      ['requests', id, 'upsert'],
    ]);
    expect((await readAll(now.body.meta.next as string)).data).toEqual(fromNext.data);
    const first = before.data[0] as Change;
    expect((await readAll(first.cursor)).data).toEqual([...before.data.slice(1), ...fromNext.data]);
    // Nothing new: one small answer.
    const idle = await changes(`?after=${encodeURIComponent(fromNext.next)}`).expect(200);
    expect(idle.body.data).toEqual([]);
    expect(JSON.stringify(idle.body).length).toBeLessThan(1024);
  });

  it('answers only the changes of the resource asked for', async () => {
    await createRequest();
    const res = await changes('?resource=requests').expect(200);
    expect(res.body.data.length).toBe(1);
    expect(res.body.data[0].resource).toBe('requests');
    expect((await changes('?resource=nothing')).status).toBe(422);
  });

  it('answers a cursor it did not give with 410 cursor_expired, naming how to start again', async () => {
    for (const cursor of ['garbage', Buffer.from('c1.hrm.x.1.-1').toString('base64url')]) {
      const res = await changes(`?after=${cursor}`);
      expectEnvelope(res, 410, 'cursor_expired');
      expect(res.body.error.message).toContain('after=now');
    }
  });

  it('refuses bad limits and waits, and unknown parameters, as the module\u2019s reads do', async () => {
    for (const query of ['?limit=0', '?wait=31', '?updated_since=2026-01-01']) {
      const res = await changes(query);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc[1]).toBe(query.slice(1).split('=')[0]);
    }
  });

  it('waits for a change with wait, and answers as soon as one is written', async () => {
    const { body } = await changes('?after=now').expect(200);
    const waiting = changes(`?after=${encodeURIComponent(body.meta.next as string)}&wait=20`);
    const answered = new Promise<request.Response>((resolve, reject) => waiting.then(resolve, reject));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const id = await createRequest();
    const res = await answered;
    expect(res.body.data.map((change: Change) => change.id)).toEqual([id]);
  });

  it('answers JSON to a client that takes both JSON and events, as generated clients ask', async () => {
    await createRequest();
    const res = await changes().set('Accept', 'application/json, text/event-stream').expect(200);
    expect(res.type).toBe('application/json');
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it('streams the same changes as server-sent events, then each new one', async () => {
    const server = http.createServer(h.app).listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const { body } = await changes('?after=now').expect(200);
      const events: string[] = [];
      const stream = new Promise<void>((resolve, reject) => {
        const req = http.get(
          `http://127.0.0.1:${port}/api/v1/changes?after=${encodeURIComponent(body.meta.next as string)}`,
          { headers: { Accept: 'text/event-stream' } },
          (res) => {
            expect(res.headers['content-type']).toContain('text/event-stream');
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              events.push(chunk);
              if (events.join('').includes('event: change')) {
                req.destroy();
                resolve();
              }
            });
          },
        );
        req.on('error', reject);
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const id = await createRequest();
      await stream;
      const text = events.join('');
      const data = JSON.parse(/data: (.*)\n/.exec(text)?.[1] as string) as Change;
      expect(data).toMatchObject({ resource: 'requests', id, op: 'upsert' });
      expect(text).toContain(`id: ${data.cursor}\n`);
    } finally {
      server.close();
    }
  });
});

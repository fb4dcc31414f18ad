import { get, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import type { StoredEvent } from '../../src/events/envelope';
import { hashEvent } from '../../src/events/hash-chain';
import type { LogTree } from '../../src/log-proofs/log-tree';
import { startLogTree } from '../../src/serving/log-tree';
import { auth, leaveWeek, openHrm, type HrmHarness } from '../support/hrm-harness';

jest.setTimeout(60_000);

const AUDITOR = 'auditor-token-42';
const asAuditor = { Authorization: `Bearer ${AUDITOR}` };

type Served = StoredEvent & { opened?: Record<string, unknown> };

let h: HrmHarness;
let tree: LogTree;
let audit: ReturnType<typeof createAuditApp>;
let leave: { id: number };
let submitted: StoredEvent;

beforeAll(async () => {
  h = await openHrm();
  tree = await startLogTree(h.suite);
  audit = createAuditApp({ ...h.suite, logTree: tree }, AUDITOR);
  const created = await request(h.app)
    .post('/api/v1/leave')
    .set(auth)
    .send({ ...leaveWeek(h.fixtures.grace), description: 'Family matters' })
    .expect(201);
  leave = created.body as { id: number };
  const page = await h.suite.storedEvents.queryLog({
    type: 'LeaveApplicationSubmitted',
    after: 0,
    limit: 1000,
  });
  submitted = page.at(-1) as StoredEvent;
});
afterAll(async () => {
  await tree.stop();
  await h.close();
});

/** The event as stored, with the leave's personal values opened beside it by pointer. */
function expectServedLeave(event: Served) {
  const { opened, ...stored } = event;
  expect(stored).toEqual(submitted);
  expect(hashEvent(stored)).toBe(event.hash);
  expect(opened).toEqual({ '/employee_name': 'Grace Hopper', '/description': 'Family matters' });
  expect(String((event.data as { description: string }).description)).toMatch(/^pd1:n:hrm\.employee-/);
}

describe('events served as stored, their personal values opened beside', () => {
  it('GET /api/v1/events: an event without personal values has no opened', async () => {
    const { body } = await request(audit)
      .get('/api/v1/events')
      .query({ limit: 1000 })
      .set(asAuditor)
      .expect(200);
    const events = body.data as Served[];
    expectServedLeave(events.find((event) => event.position === submitted.position) as Served);
    const plain = events.filter((event) => !JSON.stringify(event.data).includes('pd1:'));
    expect(plain.length).toBeGreaterThan(0);
    for (const event of plain) expect(event).not.toHaveProperty('opened');
  });

  it('a history step: the event as stored, the record folded from it opened', async () => {
    const { body } = await request(audit)
      .get(`/api/v1/history/hrm/leave/${leave.id}`)
      .set(asAuditor)
      .expect(200);
    const [first] = body.data.events as { event: Served; record: Record<string, unknown> }[];
    expectServedLeave(first?.event as Served);
    expect(first?.record).toMatchObject({ employee_name: 'Grace Hopper', description: 'Family matters' });
  });

  it('the inclusion proof’s event', async () => {
    const head = await h.suite.storedEvents.headPosition();
    while ((tree.store.latestCheckpoint()?.size ?? 0) < head) await new Promise((r) => setTimeout(r, 50));
    const { body } = await request(audit)
      .get('/api/v1/proofs/inclusion')
      .query({ position: submitted.position })
      .set(asAuditor)
      .expect(200);
    expectServedLeave(body.event as Served);
  });

  it('the live tail', async () => {
    const server: Server = createServer(audit).listen(0);
    const { port } = server.address() as AddressInfo;
    const response = await new Promise<IncomingMessage>((resolve) =>
      get(
        `http://127.0.0.1:${port}/api/v1/events/live?after=${submitted.position - 1}&type=LeaveApplicationSubmitted`,
        { headers: asAuditor },
        resolve,
      ),
    );
    let text = '';
    response.setEncoding('utf8');
    await new Promise<void>((resolve) =>
      response.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\n\n')) resolve();
      }),
    );
    response.destroy();
    await new Promise((resolve) => server.close(resolve));
    const data = /^data: (.*)$/m.exec(text)?.[1] ?? '';
    expectServedLeave(JSON.parse(data) as Served);
  });
});

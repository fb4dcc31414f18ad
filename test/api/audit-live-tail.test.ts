import { get, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuditApp } from '../../src/api/audit';
import type { EventStore } from '../../src/events/event-store';
import { eventually } from '../support/eventually';
import { openEsm, type EsmHarness } from '../support/esm-harness';

const AUDITOR = 'auditor-token-42';
jest.setTimeout(30_000);

const EVENTS = 20_000;
/** Each event is about 3 KB: 60 MB in all, far more than the sockets' buffers hold. */
const NOTE = 'x'.repeat(3000);

/** The log as stored, as the tail reads it, counting its live subscriptions and the pages it reads. */
function observed(store: EventStore) {
  const counts = { subscriptions: 0, sent: 0 };
  const wrapped: EventStore = {
    ...store,
    onAppended(listener) {
      counts.subscriptions += 1;
      const unsubscribe = store.onAppended(listener);
      return () => {
        counts.subscriptions -= 1;
        unsubscribe();
      };
    },
    async queryLog(query) {
      const page = await store.queryLog(query);
      counts.sent += page.length;
      return page;
    },
  };
  return { wrapped, counts };
}

async function appendMany(store: EventStore, count: number): Promise<void> {
  const metadata = {
    actor: 'tester',
    request_id: 'r',
    correlation_id: 'c',
    causation_id: null,
    occurred_at: '2026-11-21T09:30:00Z',
  };
  const events = Array.from({ length: 100 }, (_, n) => ({
    type: 'ThingNoted',
    data: { n, note: NOTE },
    schema_version: 1,
  }));
  for (let batch = 0; batch < count / 100; batch++) {
    await store.append(`test.thing-${batch}`, events, { expectedRevision: 'no_stream', metadata });
  }
}

/** Waits until the tail serves `count` subscriptions. */
const subscriptionsAre = (count: number) =>
  eventually(
    `${count} subscriptions to the tail`,
    () => tail.counts.subscriptions,
    (serving) => serving === count,
    { intervalMs: 10 },
  );

let h: EsmHarness;
let server: Server;
let tail: ReturnType<typeof observed>;
beforeEach(async () => {
  h = await openEsm();
  tail = observed(h.suite.storedEvents);
  server = createServer(createAuditApp({ ...h.suite, storedEvents: tail.wrapped }, AUDITOR)).listen(0);
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

function connect(): Promise<IncomingMessage> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve) => {
    get(
      `http://127.0.0.1:${port}/api/v1/events/live?after=0`,
      { headers: { Authorization: `Bearer ${AUDITOR}` } },
      resolve,
    );
  });
}

describe('the audit live tail with slow and departing clients', () => {
  it('holds back for a client that does not read, and loses nothing when it reads again', async () => {
    const response = await connect();
    try {
      response.pause();
      await appendMany(h.suite.storedEvents, EVENTS);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // A client that reads nothing is sent only what the sockets' buffers hold, not the 60 MB.
      expect(tail.counts.sent).toBeLessThan(EVENTS / 2);

      let received = 0;
      let lastId = '';
      let partial = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (line.startsWith('event: ')) received += 1;
          if (line.startsWith('id: ')) lastId = line.slice(4);
        }
      });
      response.resume();
      const head = await h.suite.storedEvents.headPosition();
      await eventually(
        `all ${head} events`,
        () => received,
        (count) => count >= head,
        { intervalMs: 10 },
      );
      expect(received).toBe(head);
      expect(lastId).toBe(String(head));
    } finally {
      response.destroy();
    }
  });

  it('releases its subscription when the client leaves, also while it waits for the client to drain', async () => {
    const reading = await connect();
    await subscriptionsAre(1);
    reading.destroy();
    await subscriptionsAre(0);

    const stalled = await connect();
    stalled.pause();
    await appendMany(h.suite.storedEvents, EVENTS / 4);
    await subscriptionsAre(1);
    stalled.destroy();
    await subscriptionsAre(0);
  });
});

describe('the audit live tail from a cursor', () => {
  const tailFrom = (query: string, headers: Record<string, string> = {}) => {
    const { port } = server.address() as AddressInfo;
    return fetch(`http://127.0.0.1:${port}/api/v1/events/live${query}`, {
      headers: { Authorization: `Bearer ${AUDITOR}`, ...headers },
    });
  };

  it.each([
    ['an `after` that is no event position', '?after=999999999', {}],
    ['a `Last-Event-ID` that is no event position', '', { 'Last-Event-ID': '999999999' }],
  ])('answers 422 in the envelope for %s, before it streams', async (_, query, headers) => {
    const answer = await tailFrom(query, headers);
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toMatchObject({
      error: { code: 'validation_error', details: { issues: [{ loc: ['query', 'after'] }] } },
    });
  });
});

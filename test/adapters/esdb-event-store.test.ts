import { openEsdbEventStore } from '../../src/events/esdb-event-store';
import type { EsdbSubscription } from '../../src/events/esdb-client';
import { FALLBACK_POLL_MS, RESUBSCRIBE_MS } from '../../src/events/esdb-notifications';
import type { EventStore } from '../../src/events/event-store';
import { esdbServerModel, type EsdbServerModel } from '../support/esdb-server-model';
import { describeWithServer } from '../support/external-servers';
import { eventStoreContract } from './event-store.contract';

eventStoreContract('EventStoreDB model', async () => {
  const server = esdbServerModel();
  const store = openEsdbEventStore('esdb://model', () => server.connect());
  return { store, cleanup: () => store.close() };
});

describeWithServer('esdb', 'EventStoreDB adapter', (address) => {
  eventStoreContract('EventStoreDB', async () => {
    const store = openEsdbEventStore(address());
    return { store, cleanup: () => store.close() };
  });
});

const event = (type: string) => ({ type, data: {}, schema_version: 1 });
const metadata = {
  actor: 'tester',
  request_id: 'r-1',
  correlation_id: 'c-1',
  causation_id: null,
  occurred_at: '2026-11-21T09:30:00Z',
};

describe('EventStoreDB adapter against the model: commits heard through its subscriptions', () => {
  // Timers move only when a test says so, and never as far as the fallback poll: a commit the
  // subscriptions miss is not heard at all.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  let server: EsdbServerModel;
  let follower: EventStore;
  let writer: EventStore;
  let heard: number[];
  beforeEach(() => {
    server = esdbServerModel();
    follower = openEsdbEventStore('esdb://model', () => server.connect());
    writer = openEsdbEventStore('esdb://model', () => server.connect());
    heard = [];
  });
  afterEach(async () => {
    await follower.close();
    await writer.close();
  });

  /** The model delivers to its subscriptions on the next turn of the event loop. */
  const delivered = async () => {
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  };
  const appendTo = async (stream: string, type: string, expectedRevision: number | 'no_stream') =>
    (await writer.append(stream, [event(type)], { expectedRevision, metadata })).events[0]!.position;

  it('hears the commits after the position it follows from, those made before it asked included', async () => {
    const before = await follower.headPosition();
    const first = await appendTo('test.thing-1', 'A', 'no_stream');
    follower.onAppended((head) => heard.push(head), before);
    await delivered();
    expect(heard).toEqual([first]);
  });

  it('resumes a dropped subscription from where it was to follow, so no commit of the gap is missed', async () => {
    follower.onAppended((head) => heard.push(head), await follower.headPosition());
    const first = await appendTo('test.thing-1', 'A', 'no_stream');
    await delivered();
    server.dropSubscriptions();
    await delivered();
    const second = await appendTo('test.thing-1', 'B', 0);
    await jest.advanceTimersByTimeAsync(RESUBSCRIBE_MS);
    await delivered();
    expect(heard).toEqual([first, second]);
  });

  it('reports commits of the moment between its subscription and a drop that came before any', async () => {
    follower.onAppended((head) => heard.push(head));
    await delivered();
    server.dropSubscriptions();
    await delivered();
    const first = await appendTo('test.thing-1', 'A', 'no_stream');
    await jest.advanceTimersByTimeAsync(RESUBSCRIBE_MS);
    await delivered();
    expect(heard).toEqual([first]);
  });

  it('reads the head every so often as well, for a subscription that stalls without being dropped', async () => {
    const stalled: EsdbSubscription = { on: () => stalled, unsubscribe: async () => undefined };
    const stalledFollower = openEsdbEventStore('esdb://model', () => ({
      ...server.connect(),
      subscribeToAll: () => stalled,
    }));
    try {
      stalledFollower.onAppended((head) => heard.push(head), await stalledFollower.headPosition());
      const first = await appendTo('test.thing-1', 'A', 'no_stream');
      await jest.advanceTimersByTimeAsync(FALLBACK_POLL_MS);
      expect(heard).toEqual([first]);
    } finally {
      await stalledFollower.close();
    }
  });
});

describe('EventStoreDB adapter against the model: what only a server can do', () => {
  it('answers a retry under a key with the first result when the writer stopped right after its append', async () => {
    const server = esdbServerModel();
    const crashed = openEsdbEventStore('esdb://model', () => server.connect());
    const claim = { key: 'k-crash', fingerprint: 'f1' };
    server.loseConnectionAfterAppendTo('test.thing-1');
    await expect(
      crashed.append('test.thing-1', [event('A')], {
        expectedRevision: 'no_stream',
        metadata,
        idempotency: claim,
      }),
    ).rejects.toThrow('connection to the server was lost');
    server.reconnect();
    const retry = openEsdbEventStore('esdb://model', () => server.connect());
    try {
      expect(await retry.findIdempotency(claim.key)).toMatchObject({ stream: 'test.thing-1', revision: 0 });
      const again = await retry.append('test.thing-1', [event('A')], {
        expectedRevision: 0,
        metadata,
        idempotency: claim,
      });
      expect(again).toMatchObject({ events: [], duplicateOf: { stream: 'test.thing-1', revision: 0 } });
      expect(server.stored('test.thing-1')).toHaveLength(1);
    } finally {
      await crashed.close();
      await retry.close();
    }
  });
});

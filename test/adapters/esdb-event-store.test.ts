import { openEsdbEventStore } from '../../src/events/esdb-event-store';
import { esdbServerModel } from '../support/esdb-server-model';
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

describe('EventStoreDB adapter against the model: what only a server can do', () => {
  const event = (type: string) => ({ type, data: {}, schema_version: 1 });
  const metadata = {
    actor: 'tester',
    request_id: 'r-1',
    correlation_id: 'c-1',
    causation_id: null,
    occurred_at: '2026-11-21T09:30:00Z',
  };

  it('resumes a dropped subscription from where it was to follow, so no commit of the gap is missed', async () => {
    const server = esdbServerModel();
    const follower = openEsdbEventStore('esdb://model', () => server.connect());
    const writer = openEsdbEventStore('esdb://model', () => server.connect());
    try {
      let reported: (head: number) => void = () => undefined;
      const next = () => new Promise<number>((resolve) => (reported = resolve));
      const unsubscribe = follower.onAppended((head) => reported(head), await follower.headPosition());
      const first = await writer.append('test.thing-1', [event('A')], {
        expectedRevision: 'no_stream',
        metadata,
      });
      expect(await next()).toBe(first.events[0]!.position);
      server.dropSubscriptions();
      const second = await writer.append('test.thing-1', [event('B')], { expectedRevision: 0, metadata });
      expect(await next()).toBe(second.events[0]!.position);
      unsubscribe();
    } finally {
      await follower.close();
      await writer.close();
    }
  });

  it('reports commits of the moment between its subscription and a drop that came before any', async () => {
    const server = esdbServerModel();
    const follower = openEsdbEventStore('esdb://model', () => server.connect());
    const writer = openEsdbEventStore('esdb://model', () => server.connect());
    try {
      const reported = new Promise<number>((resolve) => {
        const unsubscribe = follower.onAppended((head) => {
          unsubscribe();
          resolve(head);
        });
      });
      await new Promise((resolve) => setImmediate(resolve));
      server.dropSubscriptions();
      const { events } = await writer.append('test.thing-1', [event('A')], {
        expectedRevision: 'no_stream',
        metadata,
      });
      expect(await reported).toBe(events[0]!.position);
    } finally {
      await follower.close();
      await writer.close();
    }
  });

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

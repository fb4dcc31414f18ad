import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { testMetadata as metadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';
import { eventStoreContract } from './event-store.contract';

eventStoreContract('SQLite', async () => {
  const { dir, cleanup } = tempDir();
  const store = openSqliteEventStore(path.join(dir, 'events.db'));
  return {
    store,
    async cleanup() {
      await store.close();
      cleanup();
    },
  };
});

describe('SQLite event store shared by two processes (the roles of the distributed profile)', () => {
  const event = (n: number) => ({ type: 'ThingChanged', data: { n }, schema_version: 1 });

  it('sees the other writer in streams and in the feed, past what it has cached', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'events.db');
    const api = openSqliteEventStore(file);
    const other = openSqliteEventStore(file);

    await api.append('test.thing-1', [event(1)], { expectedRevision: 'no_stream', metadata });
    expect((await api.readStream('test.thing-1')).map((stored) => stored.data)).toEqual([{ n: 1 }]);
    expect(await api.readAll({ after: 0, limit: 10 })).toHaveLength(1);

    await other.append('test.thing-1', [event(2)], { expectedRevision: 0, metadata });
    // api holds revision 0 in its cache; revision 1 was written by the other process.
    expect((await api.readStream('test.thing-1', { toRevision: 1 })).map((stored) => stored.data)).toEqual([
      { n: 1 },
      { n: 2 },
    ]);
    await other.append('test.thing-2', [event(3)], { expectedRevision: 'no_stream', metadata });
    await api.append('test.thing-1', [event(4)], { expectedRevision: 1, metadata });

    expect((await api.readStream('test.thing-1')).map((stored) => stored.data)).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 4 },
    ]);
    expect(
      (await api.readStream('test.thing-1', { toRevision: 1 })).map((stored) => stored.revision),
    ).toEqual([0, 1]);
    const feed = await api.readAll({ after: 0, limit: 10 });
    expect(feed.map((stored) => stored.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect((await api.readAll({ after: 3, limit: 10 })).map((stored) => stored.position)).toEqual([4]);
    await api.close();
    await other.close();
    cleanup();
  });
});

describe('SQLite event store: appends to several streams', () => {
  const event = (type: string) => ({ type, data: {}, schema_version: 1 });

  it('commits all of them or none: a stale revision on the last stream leaves the first unwritten', async () => {
    const { dir, cleanup } = tempDir();
    const store = openSqliteEventStore(path.join(dir, 'events.db'));
    try {
      await store.append('test.record-1', [event('Recorded')], { expectedRevision: 'no_stream', metadata });
      const head = await store.headPosition();
      await expect(
        store.appendAll([
          {
            stream: 'test.calendar-1',
            events: [event('Booked')],
            options: { expectedRevision: 'no_stream', metadata },
          },
          {
            stream: 'test.record-1',
            events: [event('Recorded')],
            options: { expectedRevision: 'no_stream', metadata },
          },
        ]),
      ).rejects.toMatchObject({ stream: 'test.record-1', actual: 0 });
      expect(await store.readStream('test.calendar-1')).toEqual([]);
      expect(await store.headPosition()).toBe(head);
    } finally {
      await store.close();
      cleanup();
    }
  });
});

describe('SQLite event store: a log written before its indexes', () => {
  const sealed = (subject: string) => `pd1:n:${subject}:00112233aabbccdd:c2VhbGVk`;

  it('is indexed on upgrade: the events of each subject are found as if they had been appended since', async () => {
    const { dir, cleanup } = tempDir();
    const file = path.join(dir, 'events.db');
    const writer = openSqliteEventStore(file);
    await writer.append(
      'crm.contact-1',
      [{ type: 'ContactAdded', data: { name: sealed('crm.contact-1') }, schema_version: 1 }],
      {
        expectedRevision: 'no_stream',
        metadata,
      },
    );
    await writer.append('test.thing-1', [{ type: 'ThingChanged', data: { n: 1 }, schema_version: 1 }], {
      expectedRevision: 'no_stream',
      metadata,
    });
    await writer.append(
      'crm.deal-1',
      [
        {
          type: 'DealMade',
          data: { people: [sealed('crm.contact-1'), sealed('crm.contact-2')] },
          schema_version: 1,
        },
      ],
      { expectedRevision: 'no_stream', metadata },
    );
    await writer.close();
    // The file as the schema's first version left it: no index of subjects, none of types.
    const old = new Database(file);
    old.exec('DROP TABLE subject_events; DROP INDEX events_by_type');
    old.pragma('user_version = 1');
    old.close();

    const upgraded = openSqliteEventStore(file);
    expect(await upgraded.subjectPositions('crm.contact-1')).toEqual([1, 3]);
    expect(await upgraded.subjectPositions('crm.contact-2')).toEqual([3]);
    expect(
      (await upgraded.queryLog({ after: 0, limit: 10, type: 'ThingChanged' })).map((e) => e.position),
    ).toEqual([2]);
    await upgraded.close();
    cleanup();
  });
});

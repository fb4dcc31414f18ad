import path from 'node:path';
import { z } from 'zod';
import { defineEvent, suiteCatalog } from '../../src/events/catalog';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { withUpcasting } from '../../src/events/upcasting';
import { verifyLog } from '../../src/events/verify';
import type { DocumentProjection } from '../../src/projections/projection';
import { createProjectionRuntime } from '../../src/projections/runtime';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { tempDir } from '../support/temp-dir';

/** v1 stored one `name`; v2 splits it. v1 events stay in the log as they were written. */
const MemberJoined = defineEvent(
  'MemberJoined',
  z.object({ first_name: z.string(), last_name: z.string() }),
  {
    version: 2,
    upcasters: [
      {
        from: 1,
        schema: z.object({ name: z.string() }),
        upcast: (data) => {
          const [first_name = '', ...rest] = (data as { name: string }).name.split(' ');
          return { first_name, last_name: rest.join(' ') };
        },
      },
    ],
  },
);
const catalog = suiteCatalog([{ id: 'test', events: [MemberJoined] }]);

const members: DocumentProjection = {
  collection: 'test.members',
  handles: ['MemberJoined'],
  documentId: (event) => event.stream,
  evolve: (_doc, event) => ({ id: event.stream, ...(event.data as object) }),
};

const metadata = {
  actor: 'test',
  request_id: 'r',
  correlation_id: 'r',
  causation_id: null,
  occurred_at: '2026-01-01T00:00:00Z',
};

describe('event schema evolution', () => {
  it('replays a log holding old versions through the upcasters, without rewriting it', async () => {
    const { dir, cleanup } = tempDir();
    const stored = openSqliteEventStore(path.join(dir, 'events.db'));
    const readStore = openSqliteReadStore(path.join(dir, 'read.db'));
    try {
      await stored.append(
        'test.member-1',
        [{ type: 'MemberJoined', data: { name: 'Ada King Lovelace' }, schema_version: 1 }],
        {
          expectedRevision: 'no_stream',
          metadata,
        },
      );
      await stored.append(
        'test.member-2',
        [{ type: 'MemberJoined', data: { first_name: 'Alan', last_name: 'Turing' }, schema_version: 2 }],
        {
          expectedRevision: 'no_stream',
          metadata,
        },
      );
      await readStore.defineCollections([
        { name: 'test.members', idKind: 'string', searchFields: [], filterFields: [] },
      ]);
      const runtime = createProjectionRuntime(
        withUpcasting(stored, catalog),
        readStore,
        [{ name: 'test', projections: [members] }],
        { onError: () => {} },
      );
      await runtime.start();

      expect(JSON.parse((await readStore.get('test.members', 'test.member-1'))!)).toMatchObject({
        id: 'test.member-1',
        first_name: 'Ada',
        last_name: 'King Lovelace',
      });
      expect(JSON.parse((await readStore.get('test.members', 'test.member-2'))!)).toMatchObject({
        first_name: 'Alan',
      });
      const [old] = await stored.readStream('test.member-1');
      expect(old).toMatchObject({ schema_version: 1, data: { name: 'Ada King Lovelace' } });
      expect((await verifyLog(stored, catalog)).ok).toBe(true);
      await runtime.stop();
    } finally {
      await stored.close();
      await readStore.close();
      cleanup();
    }
  });

  it('refuses a definition whose older versions lack an upcaster', () => {
    expect(() => defineEvent('Broken', z.object({}), { version: 3, upcasters: [] })).toThrow(
      /upcasters from v1, v2/,
    );
  });
});

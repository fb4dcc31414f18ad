import { createLogger } from '../../src/api/kit/logging';
import { systemClock } from '../../src/clock';
import { createIdAllocator } from '../../src/commands/ids';
import type { EventStore } from '../../src/events/event-store';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import type { Projector } from '../../src/projections/projection';
import { decodeCursor, pageOrder } from '../../src/projections/page-order';
import {
  CheckpointConflict,
  type CollectionDefinition,
  type FindQuery,
  type ReadStore,
  type SortKey,
} from '../../src/projections/read-store';
import fc from 'fast-check';
import { createProjectionRuntime, type ProjectionRuntime } from '../../src/projections/runtime';
import type { JobQueue } from '../../src/workers/job-queue';
import { followJobTriggers } from '../../src/workers/module-jobs';
import { recountModule } from '../support/recount-job';
import { tempDir } from '../support/temp-dir';
import { testMetadata } from '../support/stored-event';
import { suiteCatalog } from '../../src/events/catalog';

export interface ReadStoreFixture {
  store: ReadStore;
  /** Another connection to the same store, as another process has. */
  openAnother(): Promise<ReadStore>;
  cleanup(): Promise<void>;
}

const tickets: CollectionDefinition = {
  name: 'test.tickets',
  idKind: 'integer',
  searchFields: ['title', 'notes'],
  filterFields: ['status', 'due'],
};
const people: CollectionDefinition = {
  name: 'test.people',
  idKind: 'string',
  searchFields: ['name'],
  filterFields: [],
};

const walks: CollectionDefinition = {
  name: 'test.walks',
  idKind: 'integer',
  searchFields: [],
  filterFields: ['run', 'status', 'due'],
};

const forms: CollectionDefinition = {
  name: 'test.forms',
  idKind: 'integer',
  searchFields: ['title', 'answers', 'tags'],
  jsonSearchFields: ['answers'],
  filterFields: [],
};

/** A commit's move of one checkpoint. */
const moved = (checkpoint: string, from: number, to: number) => new Map([[checkpoint, { from, to }]]);

const ticket = (id: number, title: string, status: string, due: string, notes: string | null = null) => ({
  collection: tickets.name,
  id,
  doc: { id, title, status, due, notes },
});

/** The behaviour every ReadStore adapter must show; each adapter's test file runs it. */
export function readStoreContract(name: string, open: () => Promise<ReadStoreFixture>): void {
  describe(`ReadStore contract: ${name}`, () => {
    let fixture: ReadStoreFixture;
    let store: ReadStore;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
      await store.defineCollections([tickets, people, forms, walks]);
      await store.commit(
        [
          ticket(10, 'Printer on floor 3 jams', 'Open', '2026-11-01', 'Paper tray B'),
          ticket(2, 'VPN drops every hour', 'Resolved', '2026-10-15'),
          ticket(33, 'New laptop for Zoë', 'Open', '2026-12-01', 'MacBook, 16 GB'),
          ticket(4, 'Badge does not open door', 'Closed', '2026-09-30'),
        ],
        moved('tests', 0, 4),
      );
    });
    afterEach(() => fixture.cleanup());

    it('gets a document as its JSON text, or null', async () => {
      expect(JSON.parse((await store.get(tickets.name, 2)) as string)).toMatchObject({
        title: 'VPN drops every hour',
      });
      expect(await store.get(tickets.name, 999)).toBeNull();
    });

    it('lists in stable id order with an exact total, limit and offset', async () => {
      const page = await store.find(tickets.name, { limit: 2, offset: 1 });
      expect(page.total).toBe(4);
      expect(page.items.map((item) => JSON.parse(item).id)).toEqual([4, 10]);
    });

    it('answers a page as the encoded body of a list answer, text outside ASCII included', async () => {
      const query = { q: 'o', limit: 2, offset: 2 };
      const page = await store.find(tickets.name, query);
      const body = await store.findJson(tickets.name, query);
      expect(JSON.parse(body.toString('utf8'))).toEqual({
        data: page.items.map((item) => JSON.parse(item)),
        meta: { total: 4, limit: 2, offset: 2, next: null },
      });
      expect((await store.find(tickets.name, query)).items).toEqual(page.items);
      expect(page.items.some((item) => item.includes('Zoë'))).toBe(true);
    });

    it('orders integer ids numerically', async () => {
      const page = await store.find(tickets.name, { limit: 10, offset: 0 });
      expect(page.items.map((item) => JSON.parse(item).id)).toEqual([2, 4, 10, 33]);
    });

    it('filters on declared fields, with comparisons', async () => {
      const open = await store.find(tickets.name, {
        filters: [{ field: 'status', op: 'eq', value: 'Open' }],
        limit: 10,
        offset: 0,
      });
      expect(open.total).toBe(2);
      const dueEarly = await store.find(tickets.name, {
        filters: [{ field: 'due', op: 'lt', value: '2026-11-01' }],
        limit: 10,
        offset: 0,
      });
      expect(dueEarly.items.map((item) => JSON.parse(item).id)).toEqual([2, 4]);
    });

    it('searches case-insensitive substrings over the declared text fields only', async () => {
      const find = (q: string) => store.find(tickets.name, { q, limit: 10, offset: 0 });
      expect((await find('PRINTER')).total).toBe(1);
      expect((await find('ray b')).total).toBe(1);
      expect((await find('zoë')).total).toBe(1);
      expect((await find('ZOË')).total).toBe(1);
      expect((await find('pn')).total).toBe(1);
      expect((await find('Open')).total).toBe(1);
      expect((await find('"quoted')).total).toBe(0);
      expect((await find('nothing like this')).total).toBe(0);
    });

    it('searches for text holding a NUL character, finding a document that holds it', async () => {
      await store.commit(
        [ticket(70, 'Nul\u0000terminated label', 'Open', '2026-12-02')],
        moved('tests', 4, 5),
      );
      const find = (q: string) => store.find(tickets.name, { q, limit: 10, offset: 0 });
      expect((await find('nul\u0000term')).items.map((item) => JSON.parse(item).id)).toEqual([70]);
      expect((await find('printer\u0000')).total).toBe(0);
      expect((await find('\u0000')).total).toBe(1);
    });

    it('searches the values of a JSON text field and every item of a list, not keys or punctuation', async () => {
      const answers = { model: 'MacBook Pro', cost_centre: 'CC-4120', quantity: 2, extras: ['USB-C dock'] };
      await store.commit(
        [
          {
            collection: forms.name,
            id: 1,
            doc: { title: 'Laptop', answers: JSON.stringify(answers), tags: ['IT', 'urgent'] },
          },
          {
            collection: forms.name,
            id: 2,
            doc: { title: 'Badge', answers: 'Not JSON: lost badge', tags: [] },
          },
        ],
        moved('tests', 4, 5),
      );
      const total = async (q: string) => (await store.find(forms.name, { q, limit: 10, offset: 0 })).total;
      expect(await total('macbook pro')).toBe(1);
      expect(await total('cc-4120')).toBe(1);
      expect(await total('usb-c dock')).toBe(1);
      expect(await total('urgent')).toBe(1);
      expect(await total('lost badge')).toBe(1);
      expect(await total('cost_centre')).toBe(0);
      expect(await total('":"')).toBe(0);
      expect(await total('it,urgent')).toBe(0);
    });

    it('combines search, filters and paging, with the total counting every match', async () => {
      const page = await store.find(tickets.name, {
        q: 'o',
        filters: [{ field: 'status', op: 'eq', value: 'Open' }],
        limit: 1,
        offset: 0,
      });
      expect(page.total).toBe(2);
      expect(page.items).toHaveLength(1);
    });

    it('replaces and deletes documents, keeping the search index in step', async () => {
      await store.commit(
        [
          {
            collection: tickets.name,
            id: 10,
            doc: { id: 10, title: 'Scanner offline', status: 'Open', due: 'x', notes: null },
          },
          { collection: tickets.name, id: 2, doc: null },
        ],
        moved('tests', 4, 5),
      );
      expect((await store.find(tickets.name, { q: 'printer', limit: 10, offset: 0 })).total).toBe(0);
      expect((await store.find(tickets.name, { q: 'scanner', limit: 10, offset: 0 })).total).toBe(1);
      expect(await store.get(tickets.name, 2)).toBeNull();
      expect((await store.find(tickets.name, { limit: 10, offset: 0 })).total).toBe(3);
    });

    it('keeps a document found by its text when an update changes other fields only', async () => {
      await store.commit(
        [ticket(10, 'Printer on floor 3 jams', 'Resolved', '2026-11-01', 'Paper tray B')],
        new Map(),
      );
      const found = await store.find(tickets.name, { q: 'printer', limit: 10, offset: 0 });
      expect(found.total).toBe(1);
      expect(JSON.parse(found.items[0] as string)).toMatchObject({ id: 10, status: 'Resolved' });
      expect((await store.find(tickets.name, { q: 'tray b', limit: 10, offset: 0 })).total).toBe(1);
    });

    it('indexes a large commit (catch-up, rebuild) as it indexes a small one', async () => {
      const many = Array.from({ length: 2500 }, (_, index) =>
        ticket(1000 + index, `Bulk ticket ${1000 + index}`, index % 2 ? 'Open' : 'Closed', '2026-12-01'),
      );
      await store.commit(many, moved('tests', 4, 9));
      await store.commit([ticket(1001, 'Renamed ticket', 'Open', '2026-12-01')], moved('tests', 9, 10));

      expect((await store.find(tickets.name, { q: 'bulk ticket', limit: 1, offset: 0 })).total).toBe(2499);
      expect((await store.find(tickets.name, { q: 'ticket 2999', limit: 5, offset: 0 })).items).toHaveLength(
        1,
      );
      expect((await store.find(tickets.name, { q: 'renamed', limit: 5, offset: 0 })).total).toBe(1);
      expect((await store.find(tickets.name, { q: 'ticket 1001', limit: 5, offset: 0 })).total).toBe(0);
    });

    it('keeps string ids and loads documents for projectors', async () => {
      await store.commit(
        [{ collection: people.name, id: 'p-1', doc: { id: 'p-1', name: 'Ada' } }],
        new Map(),
      );
      const loaded = await store.load(people.name, ['p-1', 'p-2']);
      expect([...loaded.keys()]).toEqual(['p-1']);
      expect(loaded.get('p-1')).toEqual({ id: 'p-1', name: 'Ada' });
    });

    it("reads one field's text of each document, null where it holds none", async () => {
      await store.commit(
        [
          { collection: people.name, id: 'p-1', doc: { id: 'p-1', name: 'Ada "the first"' } },
          { collection: people.name, id: 'p-2', doc: { id: 'p-2', name: null } },
          { collection: people.name, id: 'p-3', doc: { id: 'p-3', name: { given: 'Grace' } } },
          { collection: people.name, id: 'p-4', doc: { id: 'p-4' } },
        ],
        new Map(),
      );
      const names = await store.loadTexts(people.name, ['p-1', 'p-2', 'p-3', 'p-4', 'p-5'], 'name');
      expect(names).toEqual(
        new Map([
          ['p-1', 'Ada "the first"'],
          ['p-2', null],
          ['p-3', null],
          ['p-4', null],
        ]),
      );
    });

    it('writes a commit handed over before the one it follows only after that one, and none of it if that one failed', async () => {
      let succeed = () => {};
      const before = new Promise<void>((resolve) => (succeed = resolve));
      const following = store.commit(
        [ticket(50, 'Scanner offline', 'Open', '2026-12-02')],
        moved('tests', 4, 5),
        before,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await store.get(tickets.name, 50)).toBeNull();
      succeed();
      await following;
      expect(JSON.parse((await store.get(tickets.name, 50)) as string)).toMatchObject({ id: 50 });
      expect((await store.checkpoints()).get('tests')).toBe(5);

      const failure = new Error('the commit before failed');
      const failed = Promise.reject(failure);
      await expect(
        store.commit([ticket(51, 'Monitor flickers', 'Open', '2026-12-03')], moved('tests', 5, 6), failed),
      ).rejects.toBe(failure);
      expect(await store.get(tickets.name, 51)).toBeNull();
      expect((await store.checkpoints()).get('tests')).toBe(5);
    });

    it('moves a checkpoint only from where the commit says its batch started, else writes nothing', async () => {
      await expect(
        store.commit([ticket(60, 'Projected twice', 'Open', '2026-12-04')], moved('tests', 0, 5)),
      ).rejects.toBeInstanceOf(CheckpointConflict);
      await expect(store.commit([], moved('jobs', 3, 7))).rejects.toBeInstanceOf(CheckpointConflict);
      expect(await store.get(tickets.name, 60)).toBeNull();
      expect(await store.checkpoints()).toEqual(new Map([['tests', 4]]));

      await store.commit([ticket(60, 'Projected once', 'Open', '2026-12-04')], moved('tests', 4, 5));
      expect((await store.checkpoints()).get('tests')).toBe(5);
    });

    it('of two processes committing from the same checkpoint, writes only the first one', async () => {
      const other = await fixture.openAnother();
      try {
        await other.defineCollections([tickets]);
        const [first, second] = await Promise.allSettled([
          store.commit([ticket(61, 'First', 'Open', '2026-12-05')], moved('tests', 4, 6)),
          other.commit([ticket(62, 'Second', 'Open', '2026-12-05')], moved('tests', 4, 6)),
        ]);
        expect(first.status).toBe('fulfilled');
        expect(second).toMatchObject({ status: 'rejected', reason: expect.any(CheckpointConflict) });
        expect(await store.get(tickets.name, 62)).toBeNull();
        expect((await other.checkpoints()).get('tests')).toBe(6);
      } finally {
        await other.close();
      }
    });

    it('reads every document after an id, in id order, with filters and search, without a total', async () => {
      const ids = async (query: Parameters<ReadStore['scan']>[1]) =>
        (await store.scan(tickets.name, query)).map(({ id, doc }) => [id, JSON.parse(doc).id]);
      expect(await ids({ limit: 2 })).toEqual([
        [2, 2],
        [4, 4],
      ]);
      expect(await ids({ after: 4, limit: 5 })).toEqual([
        [10, 10],
        [33, 33],
      ]);
      const open = [{ field: 'status', op: 'eq', value: 'Open' } as const];
      expect(await ids({ filters: open, after: 10, limit: 5 })).toEqual([[33, 33]]);
      expect(await ids({ q: 'o', filters: open, limit: 1 })).toEqual([[10, 10]]);
      expect(await ids({ q: 'PRINTER', limit: 5 })).toEqual([[10, 10]]);
      await store.commit(
        ['b', 'a', 'c'].map((id) => ({ collection: people.name, id, doc: { id, name: id } })),
        new Map(),
      );
      const people_ = await store.scan(people.name, { after: 'a', limit: 5 });
      expect(people_.map(({ id }) => id)).toEqual(['b', 'c']);
    });

    describe('sorted and keyset pages', () => {
      const sorted = [{ field: 'status', descending: false }];
      const idsOf = (page: { items: string[] }) => page.items.map((item) => JSON.parse(item).id as number);
      const position = (next: string | null) =>
        decodeCursor(next as string, pageOrder(sorted), tickets.idKind);

      beforeEach(() =>
        store.commit(
          [
            ticket(7, 'Mouse', 'Open', '2026-11-01'),
            { collection: tickets.name, id: 8, doc: { id: 8, title: 'No status', status: null, due: null } },
          ],
          moved('tests', 4, 5),
        ),
      );

      it('sorts on a field either way, ties by id in the direction of the last key, NULL first ascending', async () => {
        const asc = await store.find(tickets.name, { sort: sorted, limit: 10, offset: 0 });
        expect(idsOf(asc)).toEqual([8, 4, 7, 10, 33, 2]);
        const desc = await store.find(tickets.name, {
          sort: [{ field: 'status', descending: true }],
          limit: 10,
          offset: 0,
        });
        expect(idsOf(desc)).toEqual([2, 33, 10, 7, 4, 8]);
      });

      it('sorts on several fields, each in its direction, with the id last', async () => {
        const page = await store.find(tickets.name, {
          sort: [
            { field: 'due', descending: true },
            { field: 'status', descending: false },
            { field: 'id', descending: true },
          ],
          limit: 10,
          offset: 0,
        });
        expect(idsOf(page)).toEqual([33, 10, 7, 2, 4, 8]);
      });

      it('gives the next page a cursor, and none at the end, in the order and with the filters asked', async () => {
        const walk = async (query: Omit<FindQuery, 'limit' | 'offset' | 'after'>) => {
          const seen: number[] = [];
          let after: FindQuery['after'];
          for (;;) {
            const page = await store.find(tickets.name, { ...query, limit: 2, offset: 0, after });
            expect(page.total).toBe(query.filters ? 3 : 6);
            seen.push(...idsOf(page));
            if (page.next === null) return seen;
            after = decodeCursor(page.next, pageOrder(query.sort), tickets.idKind) as FindQuery['after'];
          }
        };
        const open = [{ field: 'status', op: 'eq', value: 'Open' } as const];
        expect(await walk({})).toEqual([2, 4, 7, 8, 10, 33]);
        expect(await walk({ sort: sorted })).toEqual([8, 4, 7, 10, 33, 2]);
        expect(await walk({ sort: [{ field: 'due', descending: true }] })).toEqual([33, 10, 7, 2, 4, 8]);
        expect(await walk({ filters: open, sort: [{ field: 'due', descending: true }] })).toEqual([
          33, 10, 7,
        ]);
        expect(await walk({ filters: open, q: 'o' })).toEqual([7, 10, 33]);
        expect(await walk({ q: 'o', sort: [{ field: 'due', descending: false }] })).toEqual([
          8, 4, 2, 7, 10, 33,
        ]);
      });

      it('walks every record that matched throughout exactly once, in order, while others move out and back in', async () => {
        const dues = fc.option(fc.constantFrom('2026-01-01', '2026-02-01', '2026-03-01'), { nil: null });
        const state = fc.record({ open: fc.boolean(), due: dues });
        const orders: (SortKey[] | undefined)[] = [
          undefined,
          [{ field: 'due', descending: false }],
          [{ field: 'due', descending: true }],
          [{ field: 'id', descending: true }],
        ];
        let run = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.array(state, { minLength: 1, maxLength: 12 }),
            fc.constantFrom(...orders),
            fc.integer({ min: 1, max: 3 }),
            fc.array(fc.array(fc.record({ index: fc.nat(), change: state }), { maxLength: 3 }), {
              maxLength: 12,
            }),
            async (initial, sort, limit, movesAfterPages) => {
              run += 1;
              const base = run * 100;
              const change = (index: number, { open, due }: { open: boolean; due: string | null }) => ({
                collection: walks.name,
                id: base + index,
                doc: { id: base + index, run, status: open ? 'Open' : 'Replied', due },
              });
              await store.commit(
                initial.map((record, index) => change(index, record)),
                new Map(),
              );
              const filters = [
                { field: 'run', op: 'eq', value: run },
                { field: 'status', op: 'eq', value: 'Open' },
              ] as const;
              const order = pageOrder(sort);
              const moved = new Set<number>();
              const seen: number[] = [];
              let after: FindQuery['after'];
              for (let pages = 0; ; pages += 1) {
                const page = await store.find(walks.name, { filters, sort, limit, offset: 0, after });
                seen.push(...page.items.map((item) => JSON.parse(item).id as number));
                const moves = (movesAfterPages[pages] ?? []).map(({ index, change: to }) => {
                  moved.add(index % initial.length);
                  return change(index % initial.length, to);
                });
                await store.commit(moves, new Map());
                if (page.next === null) break;
                after = decodeCursor(page.next, order, walks.idKind) as FindQuery['after'];
              }
              const due = (id: number) => initial[id - base]?.due ?? null;
              const compared = (a: number, b: number) => {
                for (const key of order) {
                  const [x, y] = key.field === 'id' ? [a, b] : [due(a), due(b)];
                  const sign = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
                  if (sign !== 0) return key.descending ? -sign : sign;
                }
                return 0;
              };
              const throughout = initial.flatMap((record, index) =>
                record.open && !moved.has(index) ? [base + index] : [],
              );
              expect(seen.filter((id) => throughout.includes(id))).toEqual(throughout.sort(compared));
            },
          ),
          { numRuns: 40 },
        );
      });

      it('gives a cursor on an offset page too, and answers the same page through findJson', async () => {
        const query = { sort: sorted, limit: 2, offset: 1 };
        const page = await store.find(tickets.name, query);
        expect(idsOf(page)).toEqual([4, 7]);
        expect(position(page.next)).toEqual({ values: ['Open'], id: 7 });
        const body = JSON.parse((await store.findJson(tickets.name, query)).toString('utf8'));
        expect(body.meta).toEqual({ total: 6, limit: 2, offset: 1, next: page.next });
      });
    });

    it('answers the total of a page that ends before its limit, past the end, and of no page', async () => {
      expect(await store.find(tickets.name, { limit: 10, offset: 3 })).toMatchObject({ total: 4 });
      expect(await store.find(tickets.name, { limit: 10, offset: 9 })).toEqual({
        total: 4,
        items: [],
        next: null,
      });
      expect(await store.find(tickets.name, { limit: 0, offset: 0 })).toEqual({
        total: 4,
        items: [],
        next: null,
      });
      const open = [{ field: 'status', op: 'eq', value: 'Open' } as const];
      expect((await store.find(tickets.name, { filters: open, limit: 1, offset: 1 })).total).toBe(2);
    });

    it('gives a lease to one holder at a time, until it lapses or is let go, across processes', async () => {
      const other = await fixture.openAnother();
      try {
        expect(await store.lease('jobs', 'a', 1_000, 2_000)).toBe(true);
        expect(await other.lease('jobs', 'b', 1_500, 2_500)).toBe(false);
        expect(await store.lease('jobs', 'a', 1_600, 2_600)).toBe(true);
        expect(await other.lease('jobs', 'b', 2_599, 3_000)).toBe(false);
        expect(await other.lease('jobs', 'b', 2_600, 3_600)).toBe(true);
        expect(await store.lease('jobs', 'a', 2_700, 3_700)).toBe(false);
        expect(await other.lease('jobs', 'b', 2_800, 2_800)).toBe(true);
        expect(await store.lease('jobs', 'a', 2_800, 3_800)).toBe(true);
        expect(await other.lease('other', 'b', 2_800, 3_800)).toBe(true);
        await store.reset(['tests']);
        expect(await other.lease('jobs', 'b', 2_900, 3_900)).toBe(false);
      } finally {
        await other.close();
      }
    });

    it('writes checkpoints with the documents, and reset drops both (other checkpoints stay)', async () => {
      await store.commit([], moved('jobs', 0, 9));
      expect(await store.checkpoints()).toEqual(
        new Map([
          ['tests', 4],
          ['jobs', 9],
        ]),
      );
      await store.reset(['tests']);
      expect(await store.checkpoints()).toEqual(new Map([['jobs', 9]]));
      expect((await store.find(tickets.name, { limit: 10, offset: 0 })).total).toBe(0);
      expect((await store.find(tickets.name, { q: 'printer', limit: 10, offset: 0 })).total).toBe(0);
    });
  });
}

const metadata = testMetadata;

const members: CollectionDefinition = {
  name: 'tests.members',
  idKind: 'string',
  searchFields: [],
  filterFields: [],
};

/** Counts a stream's events (`member_count + 1`): wrong if an event is applied twice. */
const counting: Projector = {
  name: 'tests',
  projections: [
    {
      collection: members.name,
      handles: ['Joined'],
      documentId: (event) => event.stream,
      evolve: (doc, event) => ({
        id: event.stream,
        member_count: ((doc?.member_count as number) ?? 0) + 1,
        last: event.position,
      }),
    },
  ],
};

const joined = (count: number) =>
  Array.from({ length: count }, () => ({ type: 'Joined', data: {}, schema_version: 1 }));

/**
 * Two projectors' stores: the second has read its checkpoints when the first commits, and loads the
 * documents to fold only once the first has committed, as a slower process does.
 */
function secondFoldsAfterFirstCommits([first, second]: ReadStore[]): ReadStore[] {
  let secondLoads = () => {};
  const secondLoading = new Promise<void>((resolve) => (secondLoads = resolve));
  let firstCommitted = () => {};
  const firstCommit = new Promise<void>((resolve) => (firstCommitted = resolve));
  return [
    {
      ...(first as ReadStore),
      async commit(changes, checkpoints, after) {
        await secondLoading;
        await first!.commit(changes, checkpoints, after);
        firstCommitted();
      },
    },
    {
      ...(second as ReadStore),
      async load(collection, ids) {
        secondLoads();
        await firstCommit;
        return second!.load(collection, ids);
      },
    },
  ];
}

/** What two processes sharing one read store must not do twice; each adapter's test file runs it. */
export function sharedReadStoreContract(name: string, open: () => Promise<ReadStoreFixture>): void {
  describe(`ReadStore shared by two processes: ${name}`, () => {
    let fixture: ReadStoreFixture;
    let stores: ReadStore[];
    let events: EventStore;
    let cleanupLog: () => void;

    beforeEach(async () => {
      fixture = await open();
      stores = [fixture.store, await fixture.openAnother()];
      const made = tempDir();
      cleanupLog = made.cleanup;
      events = openSqliteEventStore(`${made.dir}/events.db`);
    });
    afterEach(async () => {
      await stores[1]?.close();
      await events.close();
      cleanupLog();
      await fixture.cleanup();
    });

    it('applies a batch two projectors both fold once: counters count each event once', async () => {
      await events.append('tests.group-1', joined(3), { expectedRevision: 'no_stream', metadata });
      const runtimes: ProjectionRuntime[] = secondFoldsAfterFirstCommits(stores).map((store) =>
        createProjectionRuntime(events, store, [counting], { onError: () => undefined }),
      );
      for (const store of stores) await store.defineCollections([members]);
      await Promise.all(runtimes.map((runtime) => runtime.start()));
      await events.append('tests.group-1', joined(1), { expectedRevision: 2, metadata });
      await Promise.all(runtimes.map((runtime) => runtime.waitFor(4, 10_000)));
      await Promise.all(runtimes.map((runtime) => runtime.stop()));

      expect(JSON.parse((await stores[0]!.get(members.name, 'tests.group-1')) as string)).toMatchObject({
        member_count: 4,
      });
      expect((await stores[1]!.checkpoints()).get('tests')).toBe(4);
    });

    it('queues the jobs of the log through one trigger owner of two, whatever each one read', async () => {
      const queued: { owner: number; id?: string }[] = [];
      let ownerBWaits = () => {};
      const ownerBWaiting = new Promise<void>((resolve) => (ownerBWaits = resolve));
      let releaseOwnerB = () => {};
      const ownerBReleased = new Promise<void>((resolve) => (releaseOwnerB = resolve));
      const queue = (owner: number): JobQueue =>
        ({
          async enqueue(_name: string, _data: unknown, options?: { jobId?: string }) {
            if (owner === 1) {
              ownerBWaits();
              await ownerBReleased;
            }
            queued.push({ owner, id: options?.jobId });
          },
        }) as unknown as JobQueue;
      const owners = stores.map((readStore, owner) =>
        followJobTriggers(
          [recountModule],
          {
            eventStore: events,
            storedEvents: events,
            changes: new Map(),
            readStore,
            runtime: {
              position: () => 0,
              waitFor: async () => undefined,
              status: () => 'ok',
              parkedCount: () => 0,
            },
            jobs: queue(owner),
            ids: createIdAllocator(events),
            clock: systemClock,
            logger: createLogger('silent'),
            catalog: suiteCatalog([]),
            log: { events, upcast: (event) => event },
          },
          createLogger('silent'),
        ),
      );
      const [ownerA, ownerB] = owners as [(typeof owners)[0], (typeof owners)[0]];

      // Owner B reads the first event and is held while queueing its job; owner A then reads both.
      await events.append('tests.group-1', joined(1), { expectedRevision: 'no_stream', metadata });
      const ownerBCaughtUp = ownerB.catchUp();
      await ownerBWaiting;
      await events.append('tests.group-1', joined(1), { expectedRevision: 0, metadata });
      await ownerA.catchUp();
      releaseOwnerB();
      await ownerBCaughtUp;
      await ownerA.catchUp();
      await ownerB.catchUp();
      await Promise.all(owners.map((owner) => owner.stop()));

      expect(new Set(queued.map(({ owner }) => owner)).size).toBe(1);
      expect(new Set(queued.map(({ id }) => id)).size).toBe(queued.length);
      expect((await stores[0]!.checkpoints()).get('jobs')).toBe(2);
    });
  });
}

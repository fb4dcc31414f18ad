import type { CollectionDefinition, ReadStore } from '../../src/projections/read-store';

export interface ReadStoreFixture {
  store: ReadStore;
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

const forms: CollectionDefinition = {
  name: 'test.forms',
  idKind: 'integer',
  searchFields: ['title', 'answers', 'tags'],
  jsonSearchFields: ['answers'],
  filterFields: [],
};

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
      await store.defineCollections([tickets, people, forms]);
      await store.commit(
        [
          ticket(10, 'Printer on floor 3 jams', 'Open', '2026-11-01', 'Paper tray B'),
          ticket(2, 'VPN drops every hour', 'Resolved', '2026-10-15'),
          ticket(33, 'New laptop for Zoë', 'Open', '2026-12-01', 'MacBook, 16 GB'),
          ticket(4, 'Badge does not open door', 'Closed', '2026-09-30'),
        ],
        new Map([['tests', 4]]),
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
        meta: { total: 4, limit: 2, offset: 2 },
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
        new Map([['tests', 5]]),
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
        new Map([['tests', 5]]),
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
        new Map([['tests', 5]]),
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
      await store.commit(many, new Map([['tests', 9]]));
      await store.commit([ticket(1001, 'Renamed ticket', 'Open', '2026-12-01')], new Map([['tests', 10]]));

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

    it('writes a commit handed over before the one it follows only after that one, and none of it if that one failed', async () => {
      let succeed = () => {};
      const before = new Promise<void>((resolve) => (succeed = resolve));
      const following = store.commit(
        [ticket(50, 'Scanner offline', 'Open', '2026-12-02')],
        new Map([['tests', 5]]),
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
        store.commit([ticket(51, 'Monitor flickers', 'Open', '2026-12-03')], new Map([['tests', 6]]), failed),
      ).rejects.toBe(failure);
      expect(await store.get(tickets.name, 51)).toBeNull();
      expect((await store.checkpoints()).get('tests')).toBe(5);
    });

    it('writes checkpoints with the documents, and reset drops both (other checkpoints stay)', async () => {
      await store.commit([], new Map([['jobs', 9]]));
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

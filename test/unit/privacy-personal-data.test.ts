import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { defineEvent, ownPersonalData, personalItems, suiteCatalog } from '../../src/events/catalog';
import type { PendingEvent } from '../../src/events/event-store';
import { openData, sealEvents } from '../../src/privacy/personal-data';
import { sealedHeader } from '../../src/privacy/sealed-value';
import { openSqliteKeyStore } from '../../src/privacy/sqlite-key-store';
import { type SubjectKeyStore } from '../../src/privacy/subject-keys';
import { tempDir } from '../support/temp-dir';

/** A person's own stream carries their personal data in every kind of place a path can name. */
const PersonRegistered = defineEvent(
  'PersonRegistered',
  z.object({
    id: z.string(),
    name: z.string(),
    middle_name: z.string().optional(),
    nickname: z.string().nullable(),
    age: z.number().int(),
    address: z.object({ street: z.string(), city: z.string(), postal_code: z.string().nullable() }),
    tags: z.array(z.string()),
    people: z.array(z.object({ email: z.string(), role: z.string() })),
    note: z.string().nullable(),
  }),
  {
    personal: ownPersonalData(
      'name',
      'middle_name',
      'nickname',
      'age',
      'address.city',
      'address.postal_code',
      'tags[]',
      'people[].email',
    ),
  },
);
/** Another stream's event naming a person: the subject comes from the data. */
const PersonMentioned = defineEvent(
  'PersonMentioned',
  z.object({ person_id: z.string(), person_name: z.string(), by: z.string() }),
  {
    personal: [
      { subject: ({ data }) => `t.person-${data.person_id}`, fields: ['person_name'] },
      { subject: ({ stream }) => stream, fields: ['by'] },
    ],
  },
);
/** Array items that may be null: erased, they should read null like any nullable field. */
const ContactsListed = defineEvent(
  'ContactsListed',
  z.object({
    aliases: z.array(z.string().nullable()),
    contacts: z.array(z.object({ name: z.string(), phone: z.string().nullable() })),
  }),
  { personal: ownPersonalData('aliases[]', 'contacts[].name', 'contacts[].phone') },
);
/** Each item is one person's, naming them when the suite knows them; else the event's stream holds it. */
const MeetingHeld = defineEvent(
  'MeetingHeld',
  z.object({
    topic: z.string(),
    attendees: z.array(
      z.object({ name: z.string(), email: z.string().nullable(), person_id: z.string().nullable() }),
    ),
  }),
  {
    personal: [
      ...ownPersonalData('topic'),
      personalItems(
        'attendees',
        ({ stream }, attendee: { person_id: string | null }) =>
          attendee.person_id ? `t.person-${attendee.person_id}` : stream,
        'name',
        'email',
      ),
    ],
  },
);
const ThingHappened = defineEvent('ThingHappened', z.object({ name: z.string() }));

const catalog = suiteCatalog([
  { id: 't', events: [PersonRegistered, PersonMentioned, ContactsListed, MeetingHeld, ThingHappened] },
]);

const ALICE = 't.person-1';
const BOB = 't.person-2';

const registered = (overrides: Record<string, unknown> = {}): PendingEvent => ({
  type: 'PersonRegistered',
  schema_version: 1,
  data: {
    id: '1',
    name: 'Alice Example',
    middle_name: 'Q',
    nickname: 'Al',
    age: 37,
    address: { street: 'Main Street 1', city: 'Springfield', postal_code: '12345' },
    tags: ['vip', 'früh 🙂'],
    people: [
      { email: 'alice@example.com', role: 'self' },
      { email: 'carol@example.com', role: 'manager' },
    ],
    note: 'not personal',
    ...overrides,
  },
});
const mentioned = (person_id: string, person_name: string): PendingEvent => ({
  type: 'PersonMentioned',
  schema_version: 1,
  data: { person_id, person_name, by: 'Dora Writer' },
});

type Data = Record<string, unknown> & {
  address: Record<string, unknown>;
  tags: unknown[];
  people: Record<string, unknown>[];
};

describe('personal data in events', () => {
  let dir: string;
  let cleanup: () => void;
  let keys: SubjectKeyStore;
  /** The events as sealEvents would have them appended. */
  const sealAll = async (stream: string, events: PendingEvent[]) =>
    (await sealEvents(stream, events, catalog, keys)).map(({ event }) => event);
  const sealOne = async (stream: string, event: PendingEvent) => (await sealAll(stream, [event]))[0]!;

  beforeEach(() => {
    ({ dir, cleanup } = tempDir('suite-personal-'));
    keys = openSqliteKeyStore(path.join(dir, 'keys.db'), randomBytes);
  });
  afterEach(async () => {
    await keys.close();
    cleanup();
  });

  describe('sealEvents', () => {
    it('seals each item of an array declared with `each` under the subject the item names', async () => {
      const attendees = [
        { name: 'Alice Example', email: 'alice@example.com', person_id: '1' },
        { name: 'Walk-in', email: null, person_id: null },
        { name: 'Bob Example', email: 'bob@example.com', person_id: '2' },
      ];
      const event: PendingEvent = {
        type: 'MeetingHeld',
        schema_version: 1,
        data: { topic: 'Budget', attendees },
      };
      const sealed = (await sealOne('t.meeting-9', event)).data as {
        topic: string;
        attendees: typeof attendees;
      };
      const subjectsOf = (item: (typeof attendees)[number]) =>
        [item.name, item.email].map((value) => sealedHeader(value)?.subject);
      expect(sealedHeader(sealed.topic)?.subject).toBe('t.meeting-9');
      expect(sealed.attendees.map(subjectsOf)).toEqual([
        [ALICE, ALICE],
        ['t.meeting-9', undefined],
        [BOB, BOB],
      ]);
      expect(sealed.attendees.map(({ person_id }) => person_id)).toEqual(['1', null, '2']);
      await keys.erase(ALICE);
      const opened = (await openData(sealed, keys)) as typeof sealed;
      expect(opened.attendees).toEqual([
        { name: '[erased]', email: null, person_id: '1' },
        { name: 'Walk-in', email: null, person_id: null },
        attendees[2],
      ]);
    });

    it('seals exactly the declared places, under the subject of the stream', async () => {
      const event = registered();
      const sealed = await sealOne(ALICE, event);
      const data = sealed.data as Data;
      const original = event.data as Data;
      const { id: keyId } = (await keys.sealingKeys([ALICE])).get(ALICE)!;

      const sealedPlaces = [
        data.name,
        data.middle_name,
        data.nickname,
        data.age,
        data.address.city,
        data.address.postal_code,
        ...data.tags,
        ...data.people.map(({ email }) => email),
      ];
      for (const value of sealedPlaces) {
        expect(sealedHeader(value)).toMatchObject({ subject: ALICE, keyId });
      }
      // Everything else is as it was.
      expect(data.id).toBe('1');
      expect(data.note).toBe('not personal');
      expect(data.address.street).toBe('Main Street 1');
      expect(data.people.map(({ role }) => role)).toEqual(['self', 'manager']);
      expect(Object.keys(data).sort()).toEqual(Object.keys(original).sort());
      expect(Object.keys(data.address).sort()).toEqual(['city', 'postal_code', 'street']);
      expect(data.tags).toHaveLength(2);
      expect(data.people).toHaveLength(2);
      expect(sealed.type).toBe('PersonRegistered');
      expect(sealed.schema_version).toBe(1);
      // No plaintext is left anywhere in the sealed data.
      const text = JSON.stringify(data);
      for (const plain of [
        'Alice Example',
        'Springfield',
        '12345',
        'vip',
        'früh',
        'alice@example.com',
        '"Al"',
      ]) {
        expect(text).not.toContain(plain);
      }
    });

    it('marks nullable fields to read null once erased, the others "[erased]"', async () => {
      const data = (await sealOne(ALICE, registered())).data as Data;
      expect(sealedHeader(data.nickname)?.erasedAs).toBe('n');
      expect(sealedHeader(data.address.postal_code)?.erasedAs).toBe('n');
      for (const value of [data.name, data.middle_name, data.age, data.address.city, data.tags[0]]) {
        expect(sealedHeader(value)?.erasedAs).toBe('t');
      }
      expect(sealedHeader(data.people[0]!.email)?.erasedAs).toBe('t');
    });

    it('leaves null values, absent fields and empty arrays as they are', async () => {
      const event = registered({ nickname: null, tags: [], people: [] });
      delete (event.data as Record<string, unknown>).middle_name;
      (event.data as Data).address.postal_code = null;
      const data = (await sealOne(ALICE, event)).data as Data;
      expect(data.nickname).toBeNull();
      expect(data.address.postal_code).toBeNull();
      expect('middle_name' in data).toBe(false);
      expect(data.tags).toEqual([]);
      expect(data.people).toEqual([]);
      expect(sealedHeader(data.name)).toBeDefined();
    });

    it('takes the subject from the data where the declaration says so', async () => {
      const [aliceMentioned, bobMentioned] = await sealAll('t.note-5', [
        mentioned('1', 'Alice Example'),
        mentioned('2', 'Bob Example'),
      ]);
      const sealing = await keys.sealingKeys([ALICE, BOB, 't.note-5']);
      const alice = aliceMentioned!.data as Record<string, string>;
      const bob = bobMentioned!.data as Record<string, string>;
      expect(sealedHeader(alice.person_name)).toEqual({
        subject: ALICE,
        keyId: sealing.get(ALICE)!.id,
        erasedAs: 't',
      });
      expect(sealedHeader(bob.person_name)?.subject).toBe(BOB);
      expect(sealedHeader(bob.person_name)?.keyId).toBe(sealing.get(BOB)!.id);
      expect(sealedHeader(alice.by)?.subject).toBe('t.note-5');
      expect(alice.person_id).toBe('1');
    });

    it('seals every subject of one batch under one key each, with a fresh IV per value', async () => {
      const sealed = await sealEvents(
        ALICE,
        [registered(), registered({ name: 'Alice Example' })],
        catalog,
        keys,
      );
      const [first, second] = sealed.map(({ event }) => event.data as Data);
      const keyId = sealedHeader(first!.name)?.keyId as string;
      expect(sealedHeader(second!.name)?.keyId).toBe(keyId);
      // What was sealed, under which keys, comes with the events: the store need not look again.
      expect(sealed.map(({ sealedWith }) => sealedWith)).toEqual([
        new Map([[ALICE, new Set([keyId])]]),
        new Map([[ALICE, new Set([keyId])]]),
      ]);
      expect(first!.name).not.toBe(second!.name);
      expect((await keys.allKeys()).map(({ subject }) => subject)).toEqual([ALICE]);
    });

    it('passes events of types that declare no personal data unchanged', async () => {
      const thing: PendingEvent = {
        type: 'ThingHappened',
        schema_version: 1,
        data: { name: 'Alice Example' },
      };
      const unknown: PendingEvent = { type: 'Unheard', schema_version: 1, data: { name: 'Alice Example' } };
      const onlyThings = await sealAll('t.thing-1', [thing, unknown]);
      expect(onlyThings[0]).toBe(thing);
      expect(onlyThings[1]).toBe(unknown);
      const mixed = await sealAll('t.person-1', [thing, registered()]);
      expect(mixed[0]).toBe(thing);
      // An event of a module the catalog does not know passes as it is.
      const elsewhere = await sealAll('other.person-1', [registered()]);
      expect((elsewhere[0]!.data as Data).name).toBe('Alice Example');
      // No keys were made for streams whose events carry nothing personal.
      expect((await keys.allKeys()).map(({ subject }) => subject)).toEqual([ALICE]);
    });

    it('does not change the events it is given', async () => {
      const events = [registered(), mentioned('2', 'Bob Example')];
      const before = structuredClone(events);
      const sealed = await sealAll(ALICE, events);
      expect(events).toEqual(before);
      expect(sealed[0]!.data).not.toBe(events[0]!.data);
    });

    it('refuses data holding a text in the form of a sealed value, in any field, so that none is forged', async () => {
      const once = await sealOne(ALICE, registered());
      await expect(sealOne(ALICE, once)).rejects.toMatchObject({ code: 'validation_error' });
      const forged = registered({ nickname: 'pd1:t:hrm.employee-9:abcd:hello' });
      await expect(sealOne(ALICE, forged)).rejects.toMatchObject({ code: 'validation_error' });
    });
  });

  describe('openData', () => {
    it('restores the original data exactly', async () => {
      const event = registered();
      const sealed = await sealOne(ALICE, event);
      expect(await openData(sealed.data, keys)).toEqual(event.data);
      const note = await sealOne('t.note-5', mentioned('2', 'Bob Example'));
      expect(await openData(note.data, keys)).toEqual(mentioned('2', 'Bob Example').data);
    });

    it('restores data holding null and absent personal fields', async () => {
      const event = registered({ nickname: null, tags: [] });
      delete (event.data as Record<string, unknown>).middle_name;
      const opened = await openData((await sealOne(ALICE, event)).data, keys);
      expect(opened).toEqual(event.data);
      expect('middle_name' in (opened as Data)).toBe(false);
    });

    it('opens with a store opened afresh on the key file', async () => {
      const sealed = await sealOne(ALICE, registered());
      await keys.close();
      keys = openSqliteKeyStore(path.join(dir, 'keys.db'), randomBytes);
      expect(await openData(sealed.data, keys)).toEqual(registered().data);
    });

    it('does not change the sealed data it opens', async () => {
      const sealed = await sealOne(ALICE, registered());
      const before = structuredClone(sealed.data);
      await openData(sealed.data, keys);
      expect(sealed.data).toEqual(before);
    });

    it('returns data without sealed values as the same object', async () => {
      const data = { name: 'Alice', nested: { list: [1, 'two', { three: null }] }, at: 'pd1:' };
      expect(await openData(data, keys)).toBe(data);
      const list = ['a', 'b'];
      expect(await openData(list, keys)).toBe(list);
      expect(await openData('plain', keys)).toBe('plain');
      expect(await openData(null, keys)).toBeNull();
      expect(await openData(7, keys)).toBe(7);
    });

    describe('once the subject was erased', () => {
      it('reads null for nullable fields and "[erased]" for the others, numbers included', async () => {
        const sealed = await sealOne(ALICE, registered());
        await keys.erase(ALICE);
        expect(await openData(sealed.data, keys)).toEqual({
          id: '1',
          name: '[erased]',
          middle_name: '[erased]',
          nickname: null,
          age: '[erased]',
          address: { street: 'Main Street 1', city: '[erased]', postal_code: null },
          tags: ['[erased]', '[erased]'],
          people: [
            { email: '[erased]', role: 'self' },
            { email: '[erased]', role: 'manager' },
          ],
          note: 'not personal',
        });
      });

      it("still opens other subjects' values, in the same event too", async () => {
        const [alice, bob] = await sealAll('t.note-5', [
          mentioned('1', 'Alice Example'),
          mentioned('2', 'Bob Example'),
        ]);
        const bobRegistered = await sealOne(BOB, registered({ id: '2', name: 'Bob Example' }));
        await keys.erase(ALICE);
        expect(await openData(alice!.data, keys)).toEqual({
          person_id: '1',
          person_name: '[erased]',
          by: 'Dora Writer',
        });
        expect(await openData(bob!.data, keys)).toEqual(mentioned('2', 'Bob Example').data);
        expect(await openData(bobRegistered.data, keys)).toEqual(
          registered({ id: '2', name: 'Bob Example' }).data,
        );
      });

      it('refuses to seal a value of the subject after its erasure, and reads the old as erased', async () => {
        const before = await sealOne(ALICE, registered());
        await keys.erase(ALICE);
        await expect(sealOne(ALICE, registered({ name: 'Alice Again' }))).rejects.toMatchObject({
          code: 'subject_erased',
        });
        expect(((await openData(before.data, keys)) as Data).name).toBe('[erased]');
      });

      it("stores the text an erased value reads as it is, for an erased subject too: it is no one's data", async () => {
        await keys.erase(ALICE);
        // A mention of the erased person (t.person-1), as a write that read their name after the erasure makes it.
        const [sealed] = await sealAll('t.note-6', [mentioned('1', '[erased]')]);
        expect((sealed!.data as Record<string, unknown>).person_name).toBe('[erased]');
        await expect(sealAll('t.note-7', [mentioned('1', 'Alice Example')])).rejects.toMatchObject({
          code: 'subject_erased',
        });
      });

      it('reads null where the schema lets a nested field be null', async () => {
        const sealed = await sealOne(ALICE, registered());
        await keys.erase(ALICE);
        expect(((await openData(sealed.data, keys)) as Data).address.postal_code).toBeNull();
      });

      // Fails today: `erasedAs` in src/privacy/personal-data.ts unwraps a ZodArray to its element
      // (zod 4's ZodArray has `unwrap()`) and then asks that element for `.element`, so every path
      // through `[]` ends at no schema and is sealed as 't'. Make this `it` once that is fixed.
      it('reads null where the schema lets an array item, or a field of one, be null', async () => {
        const event: PendingEvent = {
          type: 'ContactsListed',
          schema_version: 1,
          data: { aliases: ['Al', null], contacts: [{ name: 'Carol', phone: '+44 20 7946 0000' }] },
        };
        const sealed = (await sealOne(ALICE, event)).data as {
          aliases: unknown[];
          contacts: { name: unknown; phone: unknown }[];
        };
        expect(sealed.aliases[1]).toBeNull();
        expect(sealedHeader(sealed.aliases[0])?.erasedAs).toBe('n');
        expect(sealedHeader(sealed.contacts[0]!.name)?.erasedAs).toBe('t');
        expect(sealedHeader(sealed.contacts[0]!.phone)?.erasedAs).toBe('n');
        await keys.erase(ALICE);
        expect(await openData(sealed, keys)).toEqual({
          aliases: [null, null],
          contacts: [{ name: '[erased]', phone: null }],
        });
      });
    });
  });
});

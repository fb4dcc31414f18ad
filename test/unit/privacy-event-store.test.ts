import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { defineEvent, ownPersonalData, suiteCatalog } from '../../src/events/catalog';
import type { StoredEvent } from '../../src/events/envelope';
import type { EventStore, PendingEvent } from '../../src/events/event-store';
import { hashEvent } from '../../src/events/hash-chain';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { verifyLog } from '../../src/events/verify';
import { sealedHeader } from '../../src/privacy/sealed-value';
import { withPersonalData } from '../../src/privacy/sealing-event-store';
import { openSqliteKeyStore } from '../../src/privacy/sqlite-key-store';
import { type SubjectKeyStore } from '../../src/privacy/subject-keys';
import { testMetadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

/** Module `t`: its streams are `t.<category>-<n>`, which is how `definitionFor` finds these types. */
const PersonRegistered = defineEvent(
  'PersonRegistered',
  z.object({
    name: z.string(),
    nickname: z.string().nullable(),
    age: z.number().int().nonnegative(),
    address: z.object({ street: z.string(), city: z.string() }),
    emails: z.array(z.object({ email: z.string().email(), kind: z.enum(['work', 'home']) })),
  }),
  { personal: ownPersonalData('name', 'nickname', 'age', 'address.city', 'emails[].email') },
);
const PersonMentioned = defineEvent(
  'PersonMentioned',
  z.object({ person_id: z.string(), person_name: z.string() }),
  { personal: [{ subject: ({ data }) => `t.person-${data.person_id}`, fields: ['person_name'] }] },
);
const ThingHappened = defineEvent('ThingHappened', z.object({ name: z.string() }));
const catalog = suiteCatalog([{ id: 't', events: [PersonRegistered, PersonMentioned, ThingHappened] }]);

const ALICE = 't.person-1';
const BOB = 't.person-2';
const NOTE = 't.note-1';

const aliceData = {
  name: 'Alice Example',
  nickname: 'Al',
  age: 37,
  address: { street: 'Main Street 1', city: 'Springfield' },
  emails: [
    { email: 'alice@example.com', kind: 'work' },
    { email: 'alice@home.example', kind: 'home' },
  ],
};
const bobData = { ...aliceData, name: 'Bob Example', nickname: null, emails: [] };
const aliceErased = {
  name: '[erased]',
  nickname: null,
  age: '[erased]',
  address: { street: 'Main Street 1', city: '[erased]' },
  emails: [
    { email: '[erased]', kind: 'work' },
    { email: '[erased]', kind: 'home' },
  ],
};

const event = (type: string, data: unknown): PendingEvent => ({ type, data, schema_version: 1 });
const options = { expectedRevision: 'any' as const, metadata: testMetadata };
const dataOf = (events: readonly StoredEvent[]) => events.map(({ data }) => data);

describe('an event store with personal data', () => {
  let dir: string;
  let cleanup: () => void;
  let raw: EventStore;
  let keys: SubjectKeyStore;
  let store: EventStore;

  beforeEach(() => {
    ({ dir, cleanup } = tempDir('suite-sealing-'));
    raw = openSqliteEventStore(path.join(dir, 'events.db'));
    keys = openSqliteKeyStore(path.join(dir, 'keys.db'), randomBytes);
    store = withPersonalData(raw, catalog, keys);
  });
  afterEach(async () => {
    await raw.close();
    await keys.close();
    cleanup();
  });

  /** Alice registered, Bob registered, a note naming Alice, and a thing that names no one. */
  const appendSome = async () => {
    await store.append(ALICE, [event('PersonRegistered', aliceData)], options);
    await store.append(BOB, [event('PersonRegistered', bobData)], options);
    await store.append(
      NOTE,
      [event('PersonMentioned', { person_id: '1', person_name: 'Alice Example' })],
      options,
    );
    await store.append('t.thing-1', [event('ThingHappened', { name: 'Alice Example' })], options);
  };

  it('answers an append with the events as they were given', async () => {
    const { events } = await store.append(ALICE, [event('PersonRegistered', aliceData)], options);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      stream: ALICE,
      revision: 0,
      type: 'PersonRegistered',
      data: aliceData,
    });
  });

  it('stores only sealed values for the declared fields, hashed as stored', async () => {
    const { events } = await store.append(ALICE, [event('PersonRegistered', aliceData)], options);
    const [stored] = await raw.readStream(ALICE);
    const data = stored!.data as typeof aliceData;
    for (const value of [
      data.name,
      data.nickname,
      data.age,
      data.address.city,
      ...data.emails.map((e) => e.email),
    ]) {
      expect(sealedHeader(value)).toMatchObject({ subject: ALICE });
    }
    expect(data.address.street).toBe('Main Street 1');
    expect(data.emails.map(({ kind }) => kind)).toEqual(['work', 'home']);
    const text = JSON.stringify(stored);
    for (const plain of ['Alice Example', 'Springfield', 'alice@example.com', 'alice@home.example', '"Al"']) {
      expect(text).not.toContain(plain);
    }

    // The chain is over what is stored: the sealed values, not the values the append was given.
    expect(hashEvent(stored!)).toBe(stored!.hash);
    expect(events[0]!.hash).toBe(stored!.hash);
    expect(events[0]!.event_id).toBe(stored!.event_id);
    expect(hashEvent(events[0]!)).not.toBe(stored!.hash);
  });

  it('stores events that declare no personal data as they were given', async () => {
    await store.append('t.thing-1', [event('ThingHappened', { name: 'Alice Example' })], options);
    expect(dataOf(await raw.readStream('t.thing-1'))).toEqual([{ name: 'Alice Example' }]);
    expect(await keys.allKeys()).toEqual([]);
  });

  it('opens the events read by readStream, readAll and queryLog', async () => {
    await appendSome();
    const expected = [
      aliceData,
      bobData,
      { person_id: '1', person_name: 'Alice Example' },
      { name: 'Alice Example' },
    ];
    expect(dataOf(await store.readStream(ALICE))).toEqual([aliceData]);
    expect(dataOf(await store.readStream(NOTE, { toRevision: 0 }))).toEqual([expected[2]]);
    expect(dataOf(await store.readAll({ after: 0, limit: 100 }))).toEqual(expected);
    expect(dataOf(await store.queryLog({ after: 0, limit: 100, module: 't' }))).toEqual(expected);
    expect(dataOf(await store.queryLog({ after: 0, limit: 100, type: 'PersonMentioned' }))).toEqual([
      expected[2],
    ]);
    // ...while the store underneath still holds them sealed.
    expect(sealedHeader((await raw.readStream(NOTE))[0]!.data)).toBeUndefined();
    expect(
      sealedHeader(((await raw.readStream(NOTE))[0]!.data as { person_name: string }).person_name),
    ).toEqual(expect.objectContaining({ subject: ALICE }));
  });

  it('seals and opens the streams of an appendAll', async () => {
    const results = await store.appendAll([
      { stream: ALICE, events: [event('PersonRegistered', aliceData)], options },
      { stream: NOTE, events: [event('PersonMentioned', { person_id: '1', person_name: 'Al' })], options },
    ]);
    expect(results.map(({ events }) => dataOf(events))).toEqual([
      [aliceData],
      [{ person_id: '1', person_name: 'Al' }],
    ]);
    const stored = await raw.readAll({ after: 0, limit: 10 });
    expect(sealedHeader((stored[0]!.data as typeof aliceData).name)?.subject).toBe(ALICE);
    expect(sealedHeader((stored[1]!.data as { person_name: string }).person_name)?.subject).toBe(ALICE);
  });

  it('answers an append repeated with the same event ids with the stored events, opened', async () => {
    const eventIds = [randomUUID()];
    const first = await store.append(ALICE, [event('PersonRegistered', aliceData)], { ...options, eventIds });
    const again = await store.append(ALICE, [event('PersonRegistered', aliceData)], { ...options, eventIds });
    expect(again.events).toEqual(first.events);
    expect(await raw.readStream(ALICE)).toHaveLength(1);
  });

  it('passes the rest of the store through', async () => {
    await appendSome();
    expect(await store.headPosition()).toBe(await raw.headPosition());
    expect(await store.streamHeads()).toEqual(await raw.streamHeads());
    expect(await store.lastStreamNumber('t.person')).toBe(2);
  });

  describe('verifyLog over the store underneath', () => {
    it('finds the log intact, sealed values standing for the values the schema accepted', async () => {
      await appendSome();
      const report = await verifyLog(raw, catalog);
      expect(report.problems).toEqual([]);
      expect(report).toMatchObject({ ok: true, events_checked: 4, streams: 4 });
    });

    it('finds the log intact after a subject was erased, unchanged to the digest', async () => {
      await appendSome();
      const before = await verifyLog(raw, catalog);
      await keys.erase(ALICE);
      const after = await verifyLog(raw, catalog);
      expect(after.problems).toEqual([]);
      expect(after.ok).toBe(true);
      expect(after.digest).toEqual(before.digest);
    });

    it('still reports data the schema rejects where it is not sealed', async () => {
      await appendSome();
      await raw.append('t.person-3', [event('PersonRegistered', { ...aliceData, age: 'thirty' })], options);
      const report = await verifyLog(raw, catalog);
      expect(report.ok).toBe(false);
      expect(report.problems).toEqual([expect.objectContaining({ stream: 't.person-3', revision: 0 })]);
      expect(report.problems[0]!.problem).toMatch(/^data does not match PersonRegistered v1: age /);
    });
  });

  it('reads as erased, once its subject is erased, the events it appended and read before', async () => {
    await appendSome();
    const read = async () => dataOf(await store.readAll({ after: 0, limit: 100 }));
    expect(await read()).toEqual([
      aliceData,
      bobData,
      { person_id: '1', person_name: 'Alice Example' },
      { name: 'Alice Example' },
    ]);
    await keys.erase(ALICE);
    expect(await read()).toEqual([
      aliceErased,
      bobData,
      { person_id: '1', person_name: '[erased]' },
      { name: 'Alice Example' },
    ]);
  });

  describe('once a subject was erased', () => {
    beforeEach(async () => {
      await appendSome();
      await keys.erase(ALICE);
    });

    it('reads its values as erased everywhere, without throwing', async () => {
      const erased = [
        aliceErased,
        bobData,
        { person_id: '1', person_name: '[erased]' },
        { name: 'Alice Example' },
      ];
      await expect(store.readStream(ALICE)).resolves.toEqual([
        expect.objectContaining({ data: aliceErased }),
      ]);
      expect(dataOf(await store.readStream(NOTE))).toEqual([erased[2]]);
      expect(dataOf(await store.readAll({ after: 0, limit: 100 }))).toEqual(erased);
      expect(dataOf(await store.queryLog({ after: 0, limit: 100, module: 't' }))).toEqual(erased);
    });

    it("still opens other subjects' values", async () => {
      expect(dataOf(await store.readStream(BOB))).toEqual([bobData]);
    });

    it('keeps what is stored, and its hashes, as they were', async () => {
      for (const stored of await raw.readAll({ after: 0, limit: 100 })) {
        expect(hashEvent(stored)).toBe(stored.hash);
      }
      const name = ((await raw.readStream(ALICE))[0]!.data as typeof aliceData).name;
      expect(sealedHeader(name)?.subject).toBe(ALICE);
    });

    it('refuses to append a personal value of the subject afterwards (subject_erased), appending nothing', async () => {
      const renamed = { ...aliceData, name: 'Alice Again' };
      await expect(store.append(ALICE, [event('PersonRegistered', renamed)], options)).rejects.toMatchObject({
        code: 'subject_erased',
        details: { subjects: [ALICE] },
      });
      expect(dataOf(await store.readStream(ALICE))).toEqual([aliceErased]);
      expect((await verifyLog(raw, catalog)).ok).toBe(true);
    });
  });
});

import { randomUUID } from 'node:crypto';
import type { EventMetadata, StoredEvent } from '../../src/events/envelope';
import { AppendTooLargeError, MAX_APPEND_BYTES } from '../../src/events/append-size';
import {
  UnknownPositionError,
  WrongExpectedRevisionError,
  type EventStore,
} from '../../src/events/event-store';
import { GENESIS_HASH, verifyStreamChain } from '../../src/events/hash-chain';

export interface EventStoreFixture {
  store: EventStore;
  cleanup(): Promise<void>;
}

const metadata = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  actor: 'tester',
  request_id: randomUUID(),
  correlation_id: 'c-1',
  causation_id: null,
  occurred_at: '2026-11-21T09:30:00Z',
  ...overrides,
});

const event = (type: string, data: unknown = {}) => ({ type, data, schema_version: 1 });

/** The behaviour every EventStore adapter must show; each adapter's test file runs it. */
export function eventStoreContract(name: string, open: () => Promise<EventStoreFixture>): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: EventStoreFixture;
    let store: EventStore;
    let stream: string;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
      stream = `test.thing-${randomUUID().slice(0, 8)}`;
    });
    afterEach(() => fixture.cleanup());

    it('appends to a new stream and reads it back with revisions, positions and the envelope', async () => {
      const result = await store.append(
        stream,
        [event('ThingMade', { n: 1 }), event('ThingChanged', { n: 2 })],
        {
          expectedRevision: 'no_stream',
          metadata: metadata(),
        },
      );
      expect(result.events.map((e) => e.revision)).toEqual([0, 1]);
      const read = await store.readStream(stream);
      expect(read.map((e) => [e.type, e.data])).toEqual([
        ['ThingMade', { n: 1 }],
        ['ThingChanged', { n: 2 }],
      ]);
      expect(read[1]!.position).toBeGreaterThan(read[0]!.position);
      expect(read[0]).toMatchObject({
        stream,
        schema_version: 1,
        prev_hash: GENESIS_HASH,
        metadata: { actor: 'tester' },
      });
      expect(read[1]!.prev_hash).toBe(read[0]!.hash);
    });

    it('records when it appends (recorded_at, in the hash), never earlier than before, and a copy as it was', async () => {
      const before = Date.now();
      const [made] = (
        await store.append(stream, [event('ThingMade')], {
          expectedRevision: 'no_stream',
          metadata: metadata(),
        })
      ).events;
      expect(Date.parse(made!.metadata.recorded_at as string)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(made!.metadata.recorded_at as string)).toBeLessThanOrEqual(Date.now());
      const future = '2999-01-01T00:00:00.000Z';
      const copied = {
        expectedRevision: 0,
        metadata: metadata({ recorded_at: future }),
        copy: true,
      } as const;
      const [kept] = (await store.append(stream, [event('ThingChanged')], copied)).events;
      expect(kept!.metadata.recorded_at).toBe(future);
      const [after] = (
        await store.append(stream, [event('ThingChanged')], { expectedRevision: 1, metadata: metadata() })
      ).events;
      expect(after!.metadata.recorded_at).toBe(future);
      const other = `${stream}-copy`;
      const [old] = (
        await store.append(other, [event('ThingMade')], {
          expectedRevision: 'no_stream',
          metadata: metadata(),
          copy: true,
        })
      ).events;
      expect(old!.metadata.recorded_at).toBeUndefined();
      expect(verifyStreamChain(await store.readStream(stream))).toBeNull();
      const tampered = {
        ...after!,
        metadata: { ...after!.metadata, recorded_at: '2999-01-02T00:00:00.000Z' },
      };
      expect(verifyStreamChain([made!, kept!, tampered])).not.toBeNull();
    });

    it('rejects an append whose expected revision is stale with a typed error', async () => {
      await store.append(stream, [event('ThingMade')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      await expect(
        store.append(stream, [event('ThingChanged')], {
          expectedRevision: 'no_stream',
          metadata: metadata(),
        }),
      ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(
        store.append(stream, [event('ThingChanged')], { expectedRevision: 5, metadata: metadata() }),
      ).rejects.toMatchObject({ stream, expected: 5, actual: 0 });
      await store.append(stream, [event('ThingChanged')], { expectedRevision: 0, metadata: metadata() });
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('lets only one of two concurrent appends at the same revision win', async () => {
      await store.append(stream, [event('ThingMade')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      const outcomes = await Promise.allSettled([
        store.append(stream, [event('A')], { expectedRevision: 0, metadata: metadata() }),
        store.append(stream, [event('B')], { expectedRevision: 0, metadata: metadata() }),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('treats appending the same event ids again as already done', async () => {
      const ids = [randomUUID(), randomUUID()];
      const first = await store.append(stream, [event('A'), event('B')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
        eventIds: ids,
      });
      const again = await store.append(stream, [event('A'), event('B')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
        eventIds: ids,
      });
      expect(again.events.map((e) => e.event_id)).toEqual(first.events.map((e) => e.event_id));
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('records an idempotency key with the append and refuses to append under it twice', async () => {
      const claim = { key: `k-${randomUUID()}`, fingerprint: 'f1' };
      const first = await store.append(stream, [event('A')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
        idempotency: claim,
      });
      const other = `${stream}-other`;
      const second = await store.append(other, [event('A')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
        idempotency: claim,
      });
      expect(second.events).toEqual([]);
      expect(second.duplicateOf).toMatchObject({ stream, revision: 0, position: first.events[0]!.position });
      expect(await store.readStream(other)).toEqual([]);
      expect(await store.findIdempotency(claim.key)).toMatchObject({ fingerprint: 'f1', stream });
      expect(await store.findIdempotency('never-used')).toBeNull();
    });

    it('appends to several streams in one call, in order, each at its expected revision', async () => {
      const guard = `${stream}-guard`;
      await store.append(guard, [event('Guarded')], { expectedRevision: 'no_stream', metadata: metadata() });
      const [first, second] = await store.appendAll([
        { stream: guard, events: [event('Booked')], options: { expectedRevision: 0, metadata: metadata() } },
        {
          stream,
          events: [event('Recorded'), event('Noted')],
          options: { expectedRevision: 'no_stream', metadata: metadata() },
        },
      ]);
      expect(first!.events.map((e) => [e.type, e.revision])).toEqual([['Booked', 1]]);
      expect(second!.events.map((e) => [e.type, e.revision])).toEqual([
        ['Recorded', 0],
        ['Noted', 1],
      ]);
      expect(second!.events[0]!.position).toBeGreaterThan(first!.events[0]!.position);
      expect((await store.readStream(guard)).map((e) => e.type)).toEqual(['Guarded', 'Booked']);
    });

    it('appends nothing to any stream when one part reuses an idempotency key', async () => {
      const claim = { key: `k-${randomUUID()}`, fingerprint: 'f1' };
      const first = await store.append(stream, [event('A')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
        idempotency: claim,
      });
      const guard = `${stream}-guard`;
      const results = await store.appendAll([
        {
          stream: guard,
          events: [event('Booked')],
          options: { expectedRevision: 'no_stream', metadata: metadata() },
        },
        {
          stream: `${stream}-other`,
          events: [event('A')],
          options: { expectedRevision: 'no_stream', metadata: metadata(), idempotency: claim },
        },
      ]);
      expect(results).toEqual([
        { events: [] },
        { events: [], duplicateOf: expect.objectContaining({ stream, position: first.events[0]!.position }) },
      ]);
      expect(await store.readStream(guard)).toEqual([]);
    });

    it('appends nothing to any stream when a later part was decided on a stale revision', async () => {
      const record = `${stream}-record`;
      await store.append(record, [event('Recorded')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      const head = await store.headPosition();
      await expect(
        store.appendAll([
          {
            stream: `${stream}-calendar`,
            events: [event('Booked')],
            options: { expectedRevision: 'no_stream', metadata: metadata() },
          },
          {
            stream: record,
            events: [event('Recorded')],
            options: { expectedRevision: 'no_stream', metadata: metadata() },
          },
        ]),
      ).rejects.toMatchObject({ stream: record, actual: 0 });
      expect(await store.readStream(`${stream}-calendar`)).toEqual([]);
      expect(await store.headPosition()).toBe(head);
    });

    it('leaves an idempotency key free when its append lost a race for the revision', async () => {
      await store.append(stream, [event('A')], { expectedRevision: 'no_stream', metadata: metadata() });
      const keyed = (type: string, key: string) =>
        store.append(stream, [event(type)], {
          expectedRevision: 0,
          metadata: metadata(),
          idempotency: { key, fingerprint: 'f1' },
        });
      const keys = [`k-${randomUUID()}`, `k-${randomUUID()}`];
      const outcomes = await Promise.allSettled([keyed('B', keys[0]!), keyed('C', keys[1]!)]);
      const lost = outcomes.findIndex((outcome) => outcome.status === 'rejected');
      expect(lost).not.toBe(-1);
      expect((outcomes[lost] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.findIdempotency(keys[lost]!)).toBeNull();
      // Decided again on the stream as it is now (what a command does after a conflict), under its key.
      const { events } = await store.append(stream, [event('D')], {
        expectedRevision: 1,
        metadata: metadata(),
        idempotency: { key: keys[lost]!, fingerprint: 'f1' },
      });
      expect(events.map(({ type }) => type)).toEqual(['D']);
      expect(await store.findIdempotency(keys[lost]!)).toMatchObject({ stream, revision: 2 });
    });

    it('appends once for two concurrent appends under one idempotency key; the other answers its result', async () => {
      const claim = { key: `k-${randomUUID()}`, fingerprint: 'f1' };
      const keyed = (target: string) =>
        store.append(target, [event('A')], {
          expectedRevision: 'no_stream',
          metadata: metadata(),
          idempotency: claim,
        });
      const outcomes = await Promise.allSettled([keyed(`${stream}-a`), keyed(`${stream}-b`)]);
      const appended = outcomes.flatMap((outcome) =>
        outcome.status === 'fulfilled' ? outcome.value.events : [],
      );
      expect(appended).toHaveLength(1);
      for (const outcome of outcomes) {
        // The other either answers the first result or is told that the key is still in use.
        if (outcome.status === 'fulfilled' && outcome.value.events.length === 0) {
          expect(outcome.value.duplicateOf).toMatchObject({ stream: appended[0]!.stream });
        } else if (outcome.status === 'rejected') {
          expect(outcome.reason).toMatchObject({ name: 'IdempotencyKeyInUseError' });
        }
      }
      const stored = [...(await store.readStream(`${stream}-a`)), ...(await store.readStream(`${stream}-b`))];
      expect(stored).toHaveLength(1);
      expect(await store.findIdempotency(claim.key)).toMatchObject({ stream: appended[0]!.stream });
    });

    it(`refuses a part of more than ${MAX_APPEND_BYTES} bytes whole, and stores one just under it`, async () => {
      const filler = (bytes: number) => 'x'.repeat(bytes);
      const part = (kilobytes: number) =>
        Array.from({ length: kilobytes / 64 }, () => event('Filled', { text: filler(64 * 1024 - 500) }));
      await expect(
        store.append(stream, part(1088), { expectedRevision: 'no_stream', metadata: metadata() }),
      ).rejects.toBeInstanceOf(AppendTooLargeError);
      expect(await store.readStream(stream)).toEqual([]);
      const fits = await store.append(stream, part(1024), {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      expect(fits.events).toHaveLength(16);
    });

    it('reads from 0 or an event position only, and finds the event at a position', async () => {
      const { events } = await store.append(stream, [event('A', { text: 'long enough' }), event('B')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      const [a, b] = events as [StoredEvent, StoredEvent];
      expect(await store.readAll({ after: a.position, limit: 1 })).toMatchObject([{ event_id: b.event_id }]);
      await expect(store.readAll({ after: b.position + 1, limit: 1 })).rejects.toBeInstanceOf(
        UnknownPositionError,
      );
      await expect(store.queryLog({ after: b.position + 1, limit: 1 })).rejects.toBeInstanceOf(
        UnknownPositionError,
      );
      expect(await store.eventAt(b.position)).toMatchObject({ event_id: b.event_id, type: 'B' });
      expect(await store.eventAt(b.position + 1)).toBeNull();
    });

    it('notifies the commits after the position it is asked to follow from, also those before the call', async () => {
      const before = await store.headPosition();
      const { events } = await store.append(stream, [event('A')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      const head = await new Promise<number>((resolve) => {
        const unsubscribe = store.onAppended((position) => {
          unsubscribe();
          resolve(position);
        }, before);
      });
      expect(head).toBe(events[0]!.position);
    });

    it('reads the global feed in position order from a position, and reports the head', async () => {
      const before = await store.headPosition();
      await store.append(stream, [event('A'), event('B')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      await store.append(`${stream}-2`, [event('C')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      const feed = await store.readAll({ after: before, limit: 10 });
      expect(feed.map((e) => e.type)).toEqual(['A', 'B', 'C']);
      expect(await store.readAll({ after: feed[0]!.position, limit: 1 })).toMatchObject([{ type: 'B' }]);
      expect(await store.headPosition()).toBe(feed[2]!.position);
    });

    it('reads the positions and hashes of the feed alone, from 0 or an event position only', async () => {
      const before = await store.headPosition();
      await store.append(stream, [event('A'), event('B'), event('C')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      const feed = await store.readAll({ after: before, limit: 10 });
      const hashes = feed.map(({ position, hash }) => ({ position, hash }));
      expect(await store.readHashes({ after: before, limit: 10 })).toEqual(hashes);
      expect(await store.readHashes({ after: feed[0]!.position, limit: 1 })).toEqual(hashes.slice(1, 2));
      await expect(store.readHashes({ after: feed[2]!.position + 1, limit: 1 })).rejects.toBeInstanceOf(
        UnknownPositionError,
      );
    });

    it('reads a stream up to a revision', async () => {
      await store.append(stream, [event('A'), event('B'), event('C')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      expect((await store.readStream(stream, { toRevision: 1 })).map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('notifies subscribers of the new head after a commit', async () => {
      const heads: number[] = [];
      const unsubscribe = store.onAppended((head) => heads.push(head));
      const { events } = await store.append(stream, [event('A')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      unsubscribe();
      await store.append(stream, [event('B')], { expectedRevision: 0, metadata: metadata() });
      expect(heads).toEqual([events[0]!.position]);
    });

    it('knows the highest number of a category of numbered streams', async () => {
      const category = `test.numbered${randomUUID().slice(0, 6)}`;
      expect(await store.lastStreamNumber(category)).toBe(0);
      for (const n of [3, 12, 7]) {
        await store.append(`${category}-${n}`, [event('A')], {
          expectedRevision: 'no_stream',
          metadata: metadata(),
        });
      }
      expect(await store.lastStreamNumber(category)).toBe(12);
    });

    it('queries the log by module, stream, type, actor, organisation, time and position range', async () => {
      const before = await store.headPosition();
      const module = `m${randomUUID().slice(0, 6)}`;
      const a = `${module}.thing-1`;
      const b = `${module}.thing-2`;
      const first = await store.append(a, [event('Made'), event('Changed')], {
        expectedRevision: 'no_stream',
        metadata: metadata({ actor: 'ann', organisation: 'ws-1', occurred_at: '2026-01-01T00:00:00Z' }),
      });
      await store.append(b, [event('Made')], {
        expectedRevision: 'no_stream',
        metadata: metadata({ actor: 'bob', occurred_at: '2026-02-01T00:00:00Z' }),
      });
      await store.append(`other.thing-1`, [event('Made')], { expectedRevision: 'any', metadata: metadata() });
      const query = async (filters: object) =>
        (await store.queryLog({ after: before, limit: 100, ...filters })).map(
          (e) => `${e.stream}@${e.revision}`,
        );
      expect(await query({ module })).toEqual([`${a}@0`, `${a}@1`, `${b}@0`]);
      expect(await query({ module, type: 'Made' })).toEqual([`${a}@0`, `${b}@0`]);
      expect(await query({ stream: b })).toEqual([`${b}@0`]);
      expect(await query({ actor: 'ann' })).toEqual([`${a}@0`, `${a}@1`]);
      expect(await query({ organisation: 'ws-1', limit: 1 })).toEqual([`${a}@0`]);
      expect(await query({ module, from: '2026-01-15T00:00:00Z' })).toEqual([`${b}@0`]);
      expect(await query({ module, to: '2026-01-15T00:00:00Z' })).toEqual([`${a}@0`, `${a}@1`]);
      // Positions only increase; they need not be dense (EventStoreDB's are log offsets).
      expect(await query({ module, until: first.events[1]!.position })).toEqual([`${a}@0`, `${a}@1`]);
      // A list matches any of its values; an empty one, nothing.
      const sibling = `${module}x.thing-1`;
      await store.append(sibling, [event('Made')], { expectedRevision: 'no_stream', metadata: metadata() });
      expect(await query({ module: [module, `${module}x`] })).toEqual([
        `${a}@0`,
        `${a}@1`,
        `${b}@0`,
        `${sibling}@0`,
      ]);
      expect(await query({ module: [module], type: ['Changed', 'Gone'] })).toEqual([`${a}@1`]);
      expect(await query({ stream: [b, a] })).toEqual([`${a}@0`, `${a}@1`, `${b}@0`]);
      expect(await query({ stream: [b] })).toEqual([`${b}@0`]);
      expect(await query({ module: [] })).toEqual([]);
    });

    it("finds the events holding a subject's sealed values, in log order, up to a position", async () => {
      const tag = randomUUID().slice(0, 8);
      const ann = `crm.contact-${tag}1`;
      const bob = `crm.contact-${tag}2`;
      const sealed = (subject: string) => `pd1:t:${subject}:00112233aabbccdd:c2VhbGVk`;
      const first = await store.append(`${stream}1`, [event('Made', { name: sealed(ann) }), event('Plain')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      const second = await store.append(
        `${stream}2`,
        [event('Met', { people: [{ name: sealed(bob) }, { name: sealed(ann) }], note: 'pd1 is no seal' })],
        { expectedRevision: 'no_stream', metadata: metadata() },
      );
      const [made] = first.events;
      const [met] = second.events;
      expect(await store.subjectPositions(ann)).toEqual([made!.position, met!.position]);
      expect(await store.subjectPositions(bob)).toEqual([met!.position]);
      expect(await store.subjectPositions(ann, made!.position)).toEqual([made!.position]);
      expect(await store.subjectPositions(`crm.contact-${tag}3`)).toEqual([]);
    });

    it('reports every stream head with its last revision and hash', async () => {
      const { events } = await store.append(stream, [event('A'), event('B')], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      const heads = await store.streamHeads();
      expect(heads).toContainEqual({ stream, revision: 1, hash: events[1]!.hash });
    });

    it('keeps a verifiable SHA-256 hash chain per stream', async () => {
      await store.append(stream, [event('A', { x: 1 })], {
        expectedRevision: 'no_stream',
        metadata: metadata(),
      });
      await store.append(stream, [event('B', { y: [1, 2] })], { expectedRevision: 0, metadata: metadata() });
      const events = await store.readStream(stream);
      expect(events[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(verifyStreamChain(events)).toBeNull();
      const tampered = events.map((e, i) => (i === 0 ? { ...e, data: { x: 2 } } : e));
      expect(verifyStreamChain(tampered)).toMatchObject({
        revision: 0,
        reason: expect.stringContaining('hash'),
      });
      expect(verifyStreamChain(events.slice(1))).toMatchObject({
        reason: expect.stringContaining('revision'),
      });
    });
  });
}

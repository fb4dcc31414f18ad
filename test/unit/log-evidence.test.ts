import Database from 'better-sqlite3';
import path from 'node:path';
import type { StoredEvent } from '../../src/events/envelope';
import type { EventStore } from '../../src/events/event-store';
import { GENESIS_HASH, hashEvent, verifyStreamChain } from '../../src/events/hash-chain';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { checkpointText } from '../../src/log-proofs/checkpoint';
import {
  bundleProblem,
  evidenceBundle,
  EvidenceError,
  extensionProblem,
  type EvidenceBundle,
} from '../../src/log-proofs/evidence';
import { leafOf } from '../../src/log-proofs/log-against-tree';
import { growTree } from '../../src/log-proofs/log-tree';
import { treeRoot } from '../../src/log-proofs/merkle';
import { generateSigningKey, noteSigner } from '../../src/log-proofs/note';
import { openSqliteTreeStore, treeReader, type TreeStore } from '../../src/log-proofs/tree-store';
import * as rfc from '../support/rfc9162';
import { testMetadata as metadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

const ORIGIN = 'suite.test/log';
const signer = noteSigner(generateSigningKey(ORIGIN));
const KEY = signer.verifierKey;
const stranger = noteSigner(generateSigningKey(ORIGIN));

let dir: { dir: string; cleanup: () => void };
let eventStore: EventStore;
let store: TreeStore;

const eventsFile = () => path.join(dir.dir, 'events.db');

beforeEach(() => {
  dir = tempDir();
  eventStore = openSqliteEventStore(eventsFile());
  store = openSqliteTreeStore(path.join(dir.dir, 'log-tree.db'));
});

afterEach(async () => {
  store.close();
  await eventStore.close();
  dir.cleanup();
});

let appended = 0;
/** Appends `count` events, a few to each of three streams, with nested data. */
async function appendEvents(count: number): Promise<void> {
  for (let done = 0; done < count;) {
    const events = Array.from({ length: Math.min(count - done, 3) }, () => ({
      type: 'ThingHappened',
      schema_version: 1,
      data: { n: ++appended, tags: ['a', 'b'], detail: { note: 'é ✓', amount: 12.5 } },
    }));
    const stream = `test.thing-${(appended % 3) + 1}`;
    await eventStore.append(stream, events, { expectedRevision: 'any', metadata });
    done += events.length;
  }
}

const logEvents = () => eventStore.readAll({ after: 0, limit: 10_000 });

/** Grows the tree to the head of the log and signs and keeps a checkpoint of it, as the log tree does. */
async function growAndSign(): Promise<string> {
  await growTree(eventStore, store);
  const { size } = store.extent();
  const root = treeRoot(size, treeReader(store));
  const note = signer.sign(checkpointText({ origin: ORIGIN, size, root }));
  store.keepCheckpoint({ size, root, note, signed_at: '2026-11-21T09:30:00Z' });
  return note;
}

/** A bundle as an auditor reads it back from its file. */
const asRead = (bundle: EvidenceBundle): Record<string, unknown> => JSON.parse(JSON.stringify(bundle));

describe('evidence bundles', () => {
  it('of every event of a kept tree hold its RFC 9162 inclusion proof, and check with the verifier key alone', async () => {
    await appendEvents(8);
    await growAndSign();
    await appendEvents(5);
    await growAndSign();
    const events = await logEvents();
    const inputs = events.map((event) => Buffer.from(event.hash, 'hex'));

    for (const [index, event] of events.entries()) {
      const bundle = await evidenceBundle(store, eventStore, event.position);
      expect(bundle).toMatchObject({
        format: 'suite-inclusion-evidence/1',
        event,
        index,
        tree_size: 13,
        leaf_hash: leafOf(event).toString('hex'),
      });
      expect(bundle.hashes).toEqual(rfc.path(index, inputs).map((hash) => hash.toString('hex')));
      expect(bundleProblem(asRead(bundle), KEY)).toBeUndefined();
    }
    for (const [index, event] of events.slice(0, 8).entries()) {
      const older = await evidenceBundle(store, eventStore, event.position, 8);
      expect(older.tree_size).toBe(8);
      expect(older.hashes).toEqual(rfc.path(index, inputs.slice(0, 8)).map((hash) => hash.toString('hex')));
      expect(bundleProblem(asRead(older), KEY)).toBeUndefined();
    }
  });

  describe('that were tampered with', () => {
    let bundle: Record<string, unknown>;
    let event: StoredEvent;

    beforeEach(async () => {
      await appendEvents(13);
      await growAndSign();
      const events = await logEvents();
      event = events[5] as StoredEvent;
      const made = await evidenceBundle(store, eventStore, event.position);
      expect(made.hashes.length).toBeGreaterThan(1);
      bundle = asRead(made);
    });

    const edited = (changes: Record<string, unknown>) => ({ ...bundle, ...changes });
    const editedEvent = (changes: Partial<StoredEvent>) => ({ ...event, ...changes });
    const otherHash = (hash: string) => `${hash.slice(0, -1)}${hash.endsWith('0') ? '1' : '0'}`;
    const hashes = () => bundle.hashes as string[];

    it('are refused when checked with another key', () => {
      expect(bundleProblem(bundle, stranger.verifierKey)).toMatch(/^the checkpoint: no signature by /);
    });

    it('are refused when their checkpoint was signed by another key', () => {
      const note = stranger.sign(checkpointText({ origin: ORIGIN, size: 13, root: Buffer.alloc(32) }));
      expect(bundleProblem(edited({ checkpoint: note }), KEY)).toMatch(/^the checkpoint: no signature by /);
    });

    it('are refused when their checkpoint text was edited', () => {
      const note = (bundle.checkpoint as string).replace('\n13\n', '\n14\n');
      expect(bundleProblem(edited({ checkpoint: note, tree_size: 14 }), KEY)).toMatch(
        /^the checkpoint: invalid signature by /,
      );
    });

    it('are refused when the event data was edited', () => {
      const forged = editedEvent({ data: { ...(event.data as object), n: 999 } });
      expect(bundleProblem(edited({ event: forged }), KEY)).toBe(
        'the event: its content does not match its hash',
      );
    });

    it('are refused when the event was edited and hashed again, but not its leaf', () => {
      const fields = editedEvent({ data: { n: 999 } });
      const forged = { ...fields, hash: hashEvent(fields) };
      expect(bundleProblem(edited({ event: forged }), KEY)).toBe('the leaf hash is not that of the event');
    });

    it('are refused when the event was edited and hashed again, its leaf too', () => {
      const fields = editedEvent({ data: { n: 999 } });
      const forged = { ...fields, hash: hashEvent(fields) };
      const leaf = leafOf(forged).toString('hex');
      expect(bundleProblem(edited({ event: forged, leaf_hash: leaf }), KEY)).toBe(
        'the inclusion proof does not lead to the checkpoint\u2019s root',
      );
    });

    it('are refused when the leaf hash was edited', () => {
      expect(bundleProblem(edited({ leaf_hash: otherHash(bundle.leaf_hash as string) }), KEY)).toBe(
        'the leaf hash is not that of the event',
      );
    });

    it.each([
      ['a proof hash changed', () => ({ hashes: hashes().with(1, otherHash(hashes()[1] as string)) })],
      ['a proof hash dropped', () => ({ hashes: hashes().slice(0, -1) })],
      ['a proof hash added', () => ({ hashes: [...hashes(), hashes()[0]] })],
      ['the proof hashes reordered', () => ({ hashes: [...hashes()].reverse() })],
      ['another index', () => ({ index: 4 })],
    ])('are refused with %s: the proof no longer leads to the signed root', (_, changes) => {
      expect(bundleProblem(edited(changes()), KEY)).toBe(
        'the inclusion proof does not lead to the checkpoint\u2019s root',
      );
    });

    it('are refused when their tree size is not that of the checkpoint', () => {
      expect(bundleProblem(edited({ tree_size: 12 }), KEY)).toBe('the checkpoint is of 13 leaves, not 12');
    });

    it.each([
      ['without its hashes', () => ({ ...bundle, hashes: undefined }), 'hashes'],
      ['without its checkpoint', () => ({ ...bundle, checkpoint: undefined }), 'checkpoint'],
      [
        'with an event without its hash',
        () => edited({ event: { ...event, hash: undefined } }),
        'event.hash',
      ],
      [
        'with a proof hash in uppercase',
        () => edited({ hashes: hashes().with(0, (hashes()[0] as string).toUpperCase()) }),
        'hashes.0',
      ],
      ['with a proof hash that is not hex', () => edited({ hashes: ['zz'.repeat(32)] }), 'hashes.0'],
      [
        'with a short leaf hash',
        () => edited({ leaf_hash: (bundle.leaf_hash as string).slice(2) }),
        'leaf_hash',
      ],
      ['with a proof given as one string', () => edited({ hashes: hashes().join('') }), 'hashes'],
      ['with another format', () => edited({ format: 'suite-inclusion-evidence/3' }), 'format'],
      ['with a negative index', () => edited({ index: -1 }), 'index'],
      ['with a fractional tree size', () => edited({ tree_size: 12.5 }), 'tree_size'],
      ['with a tree size written as a string', () => edited({ tree_size: '13' }), 'tree_size'],
    ])('are refused as malformed %s, naming the field', (_, forged, field) => {
      expect(bundleProblem(forged(), KEY)).toMatch(
        new RegExp(`^not an evidence bundle: ${field.replace('.', '\\.')}: `),
      );
    });

    it.each([null, undefined, [], 'a bundle', 42, true])(
      'are refused when the file holds %p, not an object',
      (file) => {
        expect(bundleProblem(file, KEY)).toMatch(/^not an evidence bundle: the file: /);
      },
    );
  });

  it('are not made for a tree size of which no checkpoint was kept: the error names the nearest kept', async () => {
    for (const size of [3, 5, 8, 13]) {
      await appendEvents(size - (await logEvents()).length);
      await growAndSign();
    }
    const [first] = await logEvents();
    const position = (first as StoredEvent).position;
    const refusal = (treeSize: number) => evidenceBundle(store, eventStore, position, treeSize);

    await expect(refusal(6)).rejects.toThrow(EvidenceError);
    await expect(refusal(6)).rejects.toThrow(/nearest: 3, 5, 8, 13$/);
    await expect(refusal(4)).rejects.toThrow(/nearest: 3, 5, 8$/);
    await expect(refusal(1)).rejects.toThrow(/nearest: 3, 5$/);
    await expect(refusal(100)).rejects.toThrow(/nearest: 8, 13$/);
    expect((await evidenceBundle(store, eventStore, position, 5)).tree_size).toBe(5);
  });

  it('are not made before any checkpoint, for an event the checkpoint does not cover, or for no event', async () => {
    await appendEvents(4);
    await growTree(eventStore, store);
    const [first] = await logEvents();
    await expect(evidenceBundle(store, eventStore, (first as StoredEvent).position)).rejects.toThrow(
      new EvidenceError('No checkpoint has been signed yet'),
    );
    await growAndSign();
    await appendEvents(2);
    await growTree(eventStore, store);
    const last = (await logEvents()).at(-1) as StoredEvent;
    await expect(evidenceBundle(store, eventStore, last.position)).rejects.toThrow(EvidenceError);
    await expect(evidenceBundle(store, eventStore, last.position)).rejects.toThrow(
      /after the checkpoint of 4/,
    );
    await expect(evidenceBundle(store, eventStore, last.position + 10)).rejects.toThrow(EvidenceError);
  });
});

describe('extensionProblem', () => {
  let oldNote: string;

  beforeEach(async () => {
    await appendEvents(5);
    oldNote = await growAndSign();
    await appendEvents(7);
    await growAndSign();
  });

  it('finds none for an honest old checkpoint, nor for the latest itself', async () => {
    expect(await extensionProblem(oldNote, KEY, store, eventStore)).toBeUndefined();
    const latest = store.latestCheckpoint();
    expect(latest?.size).toBe(12);
    expect(await extensionProblem(latest?.note as string, KEY, store, eventStore)).toBeUndefined();
  });

  it('names a bad signature: another key, an edited note or a corrupted signature', async () => {
    const signature = oldNote.slice(oldNote.lastIndexOf(' ') + 1, -1);
    const corrupted = Buffer.from(signature, 'base64');
    corrupted[10] = (corrupted[10] ?? 0) ^ 0x01;
    for (const [note, key] of [
      [oldNote, stranger.verifierKey],
      [oldNote.replace('\n5\n', '\n6\n'), KEY],
      [oldNote.replace(signature, corrupted.toString('base64')), KEY],
    ] as const) {
      expect(await extensionProblem(note, key, store, eventStore)).toMatch(/^the checkpoint: /);
    }
  });

  it('names a log whose old event was rewritten, its stream chain hashed again, under an unchanged tree', async () => {
    const [first] = await logEvents();
    const { stream } = first as StoredEvent;
    await eventStore.close();
    rewriteFirstEvent(stream);
    eventStore = openSqliteEventStore(eventsFile());

    const rewritten = await eventStore.readStream(stream);
    expect(rewritten[0]?.data).toMatchObject({ n: -1 });
    expect(verifyStreamChain(rewritten)).toBeNull();
    expect(await extensionProblem(oldNote, KEY, store, eventStore)).toBe(
      'the events no longer hash to the root signed for 12 leaves: history was rewritten',
    );
  });

  it('names a log whose old event was rewritten and whose tree was rebuilt and signed again', async () => {
    const [first] = await logEvents();
    await eventStore.close();
    rewriteFirstEvent((first as StoredEvent).stream);
    eventStore = openSqliteEventStore(eventsFile());
    store.close();
    store = openSqliteTreeStore(path.join(dir.dir, 'rebuilt-tree.db'));
    await growAndSign();

    expect(await extensionProblem(oldNote, KEY, store, eventStore)).toBe(
      'the tree of 12 leaves does not extend the checkpoint of 5: history was rewritten',
    );
  });

  it('names a log whose latest checkpoint is smaller than the old one', async () => {
    store.close();
    store = openSqliteTreeStore(path.join(dir.dir, 'other-tree.db'));
    await growTree(eventStore, store);
    const root = treeRoot(3, treeReader(store));
    const note = signer.sign(checkpointText({ origin: ORIGIN, size: 3, root }));
    store.keepCheckpoint({ size: 3, root, note, signed_at: '2026-11-21T09:30:00Z' });
    expect(await extensionProblem(oldNote, KEY, store, eventStore)).toBe(
      "the log's latest checkpoint (3 leaves) is smaller than the old one (5)",
    );
  });
});

type EventRow = Omit<StoredEvent, 'data' | 'metadata'> & { data: string; metadata: string };

/**
 * Rewrites, in events.db (the event store closed), the data of a stream's first event, and hashes the
 * stream's chain again so that it still verifies on its own: what a forger with the file can do.
 */
function rewriteFirstEvent(stream: string): void {
  const db = new Database(eventsFile());
  const rows = db
    .prepare('SELECT * FROM events WHERE stream = ? ORDER BY revision')
    .all(stream) as EventRow[];
  const update = db.prepare('UPDATE events SET data = ?, prev_hash = ?, hash = ? WHERE position = ?');
  db.transaction(() => {
    let prevHash = GENESIS_HASH;
    for (const row of rows) {
      const data = row.revision === 0 ? { n: -1 } : JSON.parse(row.data);
      const hash = hashEvent({ ...row, data, metadata: JSON.parse(row.metadata), prev_hash: prevHash });
      update.run(JSON.stringify(data), prevHash, hash, row.position);
      prevHash = hash;
    }
    db.prepare('UPDATE streams SET hash = ? WHERE stream = ?').run(prevHash, stream);
  })();
  db.close();
}

import path from 'node:path';
import type { EventStore } from '../../src/events/event-store';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import type { DocumentProjection, Projector } from '../../src/projections/projection';
import { definitionFingerprints } from '../../src/projections/read-model-definitions';
import type { CollectionDefinition, ReadStore } from '../../src/projections/read-store';
import { createProjectionRuntime } from '../../src/projections/runtime';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { testMetadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

/** A note's text, as version 1 keeps it or, from version 2, in capitals. */
function notes(version: number): Projector {
  const projection: DocumentProjection = {
    collection: 'notes.notes',
    handles: ['Noted'],
    documentId: (event) => event.stream,
    evolve: (_doc, event) => {
      const text = (event.data as { text: string }).text;
      return { id: event.stream, text: version === 1 ? text : text.toUpperCase() };
    },
  };
  return { name: 'notes', version, projections: [projection] };
}

const tags: Projector = {
  name: 'tags',
  projections: [
    {
      collection: 'tags.tags',
      handles: ['Noted'],
      documentId: (event) => event.stream,
      evolve: (_doc, event) => ({ id: event.stream, tag: 'note' }),
    },
  ],
};

const collection = (name: string, filterFields: string[] = []): CollectionDefinition => ({
  name,
  idKind: 'string',
  searchFields: [],
  filterFields,
});

let dir: ReturnType<typeof tempDir>;
let events: EventStore;
beforeEach(async () => {
  dir = tempDir('suite-definitions-');
  events = openSqliteEventStore(path.join(dir.dir, 'events.db'));
  await events.append('notes.note-1', [{ type: 'Noted', schema_version: 1, data: { text: 'hello' } }], {
    expectedRevision: 'no_stream',
    metadata: testMetadata,
  });
});
afterEach(async () => {
  await events.close();
  dir.cleanup();
});

/** Starts the read models with these projectors and collections: the projectors it rebuilt first, and a read. */
async function startWith(projectors: Projector[], collections: CollectionDefinition[]) {
  const readStore: ReadStore = openSqliteReadStore(path.join(dir.dir, 'read-models.db'));
  await readStore.defineCollections(collections);
  const rebuilt: string[][] = [];
  const runtime = createProjectionRuntime(events, readStore, projectors, {
    onError: (error) => {
      throw error;
    },
    definitions: definitionFingerprints(projectors, collections),
    onRebuilding: (changed) => rebuilt.push([...changed]),
  });
  await runtime.start();
  const note = await readStore.get('notes.notes', 'notes.note-1');
  await runtime.stop();
  await readStore.close();
  return { rebuilt, note: note && (JSON.parse(note) as { text: string }).text };
}

const NOTES = [collection('notes.notes')];

test('a first start records the definitions without rebuilding, and so does a start with the same ones', async () => {
  expect(await startWith([notes(1)], NOTES)).toEqual({ rebuilt: [], note: 'hello' });
  expect(await startWith([notes(1)], NOTES)).toEqual({ rebuilt: [], note: 'hello' });
});

test("a projector's version bumped rebuilds the read models from the log, once", async () => {
  await startWith([notes(1)], NOTES);
  expect(await startWith([notes(2)], NOTES)).toEqual({ rebuilt: [['notes']], note: 'HELLO' });
  expect(await startWith([notes(2)], NOTES)).toEqual({ rebuilt: [], note: 'HELLO' });
});

test("a collection's definition changed (a filter field added) rebuilds the read models", async () => {
  await startWith([notes(1)], NOTES);
  expect((await startWith([notes(1)], [collection('notes.notes', ['text'])])).rebuilt).toEqual([['notes']]);
});

test('a projector new to the read models catches up on its own, without a rebuild', async () => {
  await startWith([notes(1)], NOTES);
  expect((await startWith([notes(1), tags], [...NOTES, collection('tags.tags')])).rebuilt).toEqual([]);
});

test('read models written before definitions were recorded are rebuilt once', async () => {
  const readStore = openSqliteReadStore(path.join(dir.dir, 'read-models.db'));
  await readStore.defineCollections(NOTES);
  const unrecorded = createProjectionRuntime(events, readStore, [notes(1)], { onError: () => {} });
  await unrecorded.start();
  await unrecorded.stop();
  await readStore.close();
  expect((await startWith([notes(1)], NOTES)).rebuilt).toEqual([['notes']]);
  expect((await startWith([notes(1)], NOTES)).rebuilt).toEqual([]);
});

test('fingerprints follow the definition, not the order it is written in', () => {
  const one = definitionFingerprints([notes(1)], [collection('notes.notes', ['a', 'b'])]);
  expect(definitionFingerprints([notes(1)], [collection('notes.notes', ['b', 'a'])])).toEqual(one);
  expect(definitionFingerprints([notes(2)], [collection('notes.notes', ['a', 'b'])])).not.toEqual(one);
});

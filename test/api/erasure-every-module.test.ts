import request from 'supertest';
import { createModuleApp } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import { moduleCollections, type ModuleDefinition } from '../../src/api/kit/module';
import { MODULES } from '../../src/api/modules';
import { operatorContext } from '../../src/cli/common';
import { loadConfig } from '../../src/config';
import { definitionFor } from '../../src/events/catalog';
import { streamModule, type StoredEvent } from '../../src/events/envelope';
import type { EventStore } from '../../src/events/event-store';
import { verifyLog } from '../../src/events/verify';
import { openSuite, seedDemoData, startProjecting, suiteCollections, type Suite } from '../../src/main';
import { eraseSubject } from '../../src/privacy/erase';
import { ERASED_TEXT, sealedHeader } from '../../src/privacy/sealed-value';
import type { CollectionDefinition } from '../../src/projections/read-store';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/temp-dir';

/**
 * Crypto-shredding reaches every read of every module (issue 30). For each module whose events declare
 * personal data, the subjects of the first event of each such type are erased; afterwards none of
 * their personal values is left in any read model of the suite, in any `q` search, or in the audit view
 * of the log, while their records are still there and the log as stored is unchanged and verifies.
 *
 * The values looked for are those a person could be found by: strings the opened log shows in the
 * subjects' sealed fields that are distinctive (an email, a full name, a phone number, a sentence) and
 * that no other subject's data, and nothing stored in clear, also holds (a namesake, a shared label).
 */

jest.setTimeout(180_000);

const PAGE = 1_000;
/** The read store's checkpoint of the erasures the erasure follower has done (src/privacy/erase.ts). */
const REFOLDED = 'privacy.erasure-refolds';
const ERASURE_WAIT_MS = 10_000;
/** The modules the issue names as holding personal data; the suite may declare more. */
const EXPECTED_MODULES = ['esm', 'clm', 'hrm', 'crm', 'lms', 'cms', 'mail'];
const SESSION_SECRET = 'erasure-every-module-session-secret';

/* ---------------------------------------------------------------- reading the log and the read models */

/** Every event of the log as `store` reads it, page by page. */
async function everyEvent(store: EventStore): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for (let after = 0; ;) {
    const page = await store.readAll({ after, limit: PAGE });
    events.push(...page);
    if (page.length < PAGE) return events;
    after = (page.at(-1) as StoredEvent).position;
  }
}

/** The strings (and numbers) within a value, lower-cased, one per line: what a person can be found by. */
function plainText(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value).toLowerCase();
  if (typeof value !== 'object' || value === null) return '';
  return Object.values(value).map(plainText).join('\n');
}

interface Doc {
  collection: string;
  id: unknown;
  text: string;
}

/** Every document of the collections, paged through with `find`. */
async function documentsOf(suite: Suite, collections: readonly CollectionDefinition[]): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (const { name } of collections) {
    for (let offset = 0; ; offset += PAGE) {
      const { items } = await suite.readStore.find(name, { filters: [], limit: PAGE, offset });
      for (const item of items) {
        const doc = JSON.parse(item) as { id?: unknown };
        docs.push({ collection: name, id: doc.id, text: plainText(doc) });
      }
      if (items.length < PAGE) break;
    }
  }
  return docs;
}

/** `where: value` for each value a text holds (case-insensitively), for failures that say what leaked where. */
function found(values: readonly string[], texts: readonly { where: string; text: string }[]): string[] {
  return texts.flatMap(({ where, text }) =>
    values.filter((value) => text.includes(value.toLowerCase())).map((value) => `${where}: ${value}`),
  );
}

/* ---------------------------------------------------------------- personal values in the log */

/** A string of an event's opened data, and whose sealed value it came from (`null`: stored in clear). */
interface Leaf {
  owner: string | null;
  text: string;
}

/**
 * The strings of an event's data as the opened log reads it, each with the subject whose sealed value
 * (in the data as stored) it stands in: the stored and opened data are walked side by side.
 */
function leaves(stored: unknown, opened: unknown, owner: string | null = null): Leaf[] {
  const header = sealedHeader(stored);
  if (header) return leaves(opened, opened, header.subject);
  if (typeof opened === 'string') return [{ owner, text: opened }];
  if (typeof opened === 'number') return [{ owner, text: String(opened) }];
  if (typeof opened !== 'object' || opened === null) return [];
  const storedRecord = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<
    string,
    unknown
  >;
  return Object.entries(opened).flatMap(([key, value]) => leaves(storedRecord[key], value, owner));
}

/** Each sealed value of the stored data: its subject, and what the opened data reads in its place. */
function sealedPlaces(stored: unknown, opened: unknown): { subject: string; value: unknown }[] {
  const header = sealedHeader(stored);
  if (header) return [{ subject: header.subject, value: opened }];
  if (typeof stored !== 'object' || stored === null) return [];
  const openedRecord = (typeof opened === 'object' && opened !== null ? opened : {}) as Record<
    string,
    unknown
  >;
  return Object.entries(stored).flatMap(([key, value]) => sealedPlaces(value, openedRecord[key]));
}

/** Whether data (as stored) holds a sealed value anywhere. */
const holdsSealed = (data: unknown): boolean =>
  sealedHeader(data) !== undefined ||
  (typeof data === 'object' && data !== null && Object.values(data).some(holdsSealed));

/** A value distinctive enough that finding it means finding this person's data, not a namesake's. */
const distinctive = (value: string) =>
  value.length >= 6 && value !== ERASED_TEXT && (/[\d@ ]/.test(value) || value.length > 8);

/** How often `needle` occurs in `text` (overlapping occurrences counted). */
function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
}

interface IndexedEvent {
  stored: StoredEvent;
  leaves: Leaf[];
}

interface LogIndex {
  events: IndexedEvent[];
  /**
   * The strings of the opened log, lower-cased: one line per event and owner, its strings joined by
   * spaces (so that a read model's `first_name last_name` is found where an event holds both).
   */
  allText: string;
  /** The lines of `allText` that a subject's sealed values make up. */
  textOf: Map<string, string>;
}

/** The log read twice, as stored and as opened, and the strings of each event with their owner. */
async function indexLog(suite: Suite): Promise<LogIndex> {
  const opened = new Map((await everyEvent(suite.auditEvents)).map((event) => [event.position, event]));
  const events = (await everyEvent(suite.storedEvents)).map((stored) => ({
    stored,
    leaves: leaves(stored.data, opened.get(stored.position)?.data),
  }));
  const all: string[] = [];
  const bySubject = new Map<string, string[]>();
  for (const event of events) {
    const lines = new Map<string | null, string[]>();
    for (const { owner, text } of event.leaves) lines.set(owner, [...(lines.get(owner) ?? []), text]);
    for (const [owner, texts] of lines) {
      const line = texts.join(' ').toLowerCase();
      all.push(line);
      if (!owner) continue;
      const own = bySubject.get(owner) ?? [];
      own.push(line);
      bySubject.set(owner, own);
    }
  }
  return {
    events,
    allText: all.join('\0'),
    textOf: new Map([...bySubject].map(([subject, lines]) => [subject, lines.join('\0')])),
  };
}

/**
 * Whether a value of `subject` occurs nowhere in the log but in that subject's own sealed values: no
 * other subject holds it (a namesake), and nothing stored in clear does (a label every record shares).
 */
const exclusiveTo = (index: LogIndex, subject: string, value: string) =>
  occurrences(index.allText, value.toLowerCase()) ===
  occurrences(index.textOf.get(subject) ?? '', value.toLowerCase());

/** The values of an event that tell its subjects' data apart: distinctive, and held by no one else. */
const telling = (index: LogIndex, event: IndexedEvent, of: (subject: string) => boolean = () => true) =>
  event.leaves.flatMap(({ owner, text }) =>
    owner && of(owner) && distinctive(text) && exclusiveTo(index, owner, text) ? [text] : [],
  );

interface Personal {
  /** Per event type declaring personal data: the stream of the event picked, `(no telling value)` when none. */
  picked: Record<string, string[]>;
  subjects: string[];
  /** Distinctive values only these subjects' sealed data holds, as the opened log read them. */
  values: string[];
}

/**
 * The subjects of a module to erase, and the values to look for: per event type that declares personal
 * data, the first event holding sealed values, and (when that one holds no telling value) the first that
 * does; the values are every telling value sealed for those subjects anywhere in the log.
 */
function personalDataOf(catalog: Suite['catalog'], index: LogIndex, module: ModuleDefinition): Personal {
  const picked = new Map<string, IndexedEvent[]>();
  const told = new Set<string>();
  for (const event of index.events) {
    const { stored } = event;
    if (streamModule(stored.stream) !== module.id || told.has(stored.type)) continue;
    if ((definitionFor(catalog, stored)?.personal ?? []).length === 0 || !holdsSealed(stored.data)) continue;
    const first = picked.get(stored.type);
    if (!first) picked.set(stored.type, [event]);
    if (telling(index, event).length > 0) {
      told.add(stored.type);
      if (first) first.push(event);
    }
  }
  const subjects = new Set(
    [...picked.values()]
      .flat()
      .flatMap(({ leaves }) => leaves.flatMap(({ owner }) => (owner ? [owner] : []))),
  );
  const values = new Set(
    index.events.flatMap((event) => telling(index, event, (owner) => subjects.has(owner))),
  );
  return {
    picked: Object.fromEntries(
      [...picked].map(([type, events]) => [
        type,
        [...events.map(({ stored }) => stored.stream), ...(told.has(type) ? [] : ['(no telling value)'])],
      ]),
    ),
    subjects: [...subjects],
    values: [...values],
  };
}

/* ---------------------------------------------------------------- erasing */

/**
 * Erases the subjects as `suite erase` does, then waits until the erasure follower has folded their
 * documents again. Answers the subjects whose erasure was refused, with why.
 */
async function erase(suite: Suite, subjects: readonly string[]): Promise<string[]> {
  const refused: string[] = [];
  for (const subject of subjects) {
    try {
      await eraseSubject(operatorContext(suite), suite.subjectKeys, subject, 'Art. 17 request');
    } catch (error) {
      refused.push(
        `${subject}: ${error instanceof Error ? error.message.replace(/\s+/g, ' ') : String(error)}`,
      );
    }
  }
  const head = await suite.storedEvents.headPosition();
  const refolded = await eventually(
    `the erasure follower to refold up to position ${head}`,
    async () => (await suite.readStore.checkpoints()).get(REFOLDED) ?? 0,
    (position) => position >= head,
    { timeoutMs: ERASURE_WAIT_MS },
  );
  expect(refolded).toBe(head);
  await suite.runtime.waitFor(head, ERASURE_WAIT_MS);
  return refused;
}

/** The sealed values of the subjects that the log, as opened now, still reads as something other than erased. */
function stillReadable(
  index: LogIndex,
  opened: readonly StoredEvent[],
  subjects: readonly string[],
): string[] {
  const now = new Map(opened.map((event) => [event.position, event.data]));
  return index.events.flatMap(({ stored }) =>
    sealedPlaces(stored.data, now.get(stored.position))
      .filter(({ subject, value }) => subjects.includes(subject) && value !== null && value !== ERASED_TEXT)
      .map(
        ({ subject, value }) => `${stored.stream}@${stored.revision} (${subject}): ${JSON.stringify(value)}`,
      ),
  );
}

/* ---------------------------------------------------------------- the suite */

let suite: Suite;
let cleanup: (() => void) | undefined;
let index: LogIndex;

const declaresPersonalData = (module: ModuleDefinition) =>
  module.events.some((definition) => definition.personal.length > 0);
const personalModules = MODULES.filter(declaresPersonalData);

beforeAll(async () => {
  const temp = tempDir();
  cleanup = temp.cleanup;
  const config = loadConfig({ SUITE_DATA_DIR: temp.dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
  suite = await openSuite(config, { logger: createLogger('silent') });
  await seedDemoData(suite, 'demo');
  await startProjecting(suite);
  await suite.runtime.waitFor(await suite.eventStore.headPosition(), 120_000);
  index = await indexLog(suite);
});

afterAll(async () => {
  await suite?.close();
  cleanup?.();
});

test('every module the issue names declares personal data', () => {
  expect(personalModules.map((module) => module.id)).toEqual(expect.arrayContaining(EXPECTED_MODULES));
});

describe.each(personalModules.map((module) => [module.id, module] as const))(
  'erasing the %s subjects of the first event of each personal event type',
  (_id, module) => {
    let personal: Personal;
    let before: Doc[];
    let holding: Doc[];
    const own = moduleCollections(module);

    beforeAll(async () => {
      personal = personalDataOf(suite.catalog, index, module);
      before = await documentsOf(suite, own);
      holding = before.filter(({ text }) => found(personal.values, [{ where: '', text }]).length > 0);
    });

    test("finds personal values to look for, shown by the module's read models before", () => {
      expect(Object.keys(personal.picked)).not.toEqual([]);
      expect(personal.subjects).not.toEqual([]);
      expect(personal.values).not.toEqual([]);
      // Otherwise their absence after the erasure would prove nothing.
      expect(holding).not.toEqual([]);
    });

    test('is accepted for every subject, and done by the erasure follower within 10 s', async () => {
      expect(await erase(suite, personal.subjects)).toEqual([]);
    });

    test('leaves none of their values in any document of any collection of the suite', async () => {
      const documents = await documentsOf(suite, suiteCollections(suite.modules));
      const where = documents.map((doc) => ({
        where: `${doc.collection} ${String(doc.id)}`,
        text: doc.text,
      }));
      expect(found(personal.values, where)).toEqual([]);
    });

    test("lets no q search of the module's lists find them", async () => {
      const searched: string[] = [];
      for (const { name } of own.filter(({ searchFields }) => searchFields.length > 0)) {
        for (const value of personal.values) {
          const { total } = await suite.readStore.find(name, { q: value, limit: 1, offset: 0 });
          if (total > 0) searched.push(`${name} q=${value}: ${total}`);
        }
      }
      expect(searched).toEqual([]);
    });

    test('shows every value sealed for them as erased in the audit view of the log', async () => {
      const opened = await everyEvent(suite.auditEvents);
      const where = opened.map((event) => ({
        where: `${event.stream}@${event.revision}`,
        text: plainText(event.data),
      }));
      expect(found(personal.values, where)).toEqual([]);
      // null where the field may be null, "[erased]" elsewhere
      expect(stillReadable(index, opened, personal.subjects)).toEqual([]);
      for (const subject of personal.subjects) {
        const stream = await suite.auditEvents.queryLog({ stream: subject, after: 0, limit: PAGE });
        expect(
          found(
            personal.values,
            stream.map((event) => ({ where: subject, text: plainText(event.data) })),
          ),
        ).toEqual([]);
      }
    });

    test('keeps their records: every document is still there, those that held the values blanked', async () => {
      const after = await documentsOf(suite, own);
      const count = (docs: readonly Doc[]) =>
        Object.fromEntries(
          own.map(({ name }) => [name, docs.filter((doc) => doc.collection === name).length]),
        );
      expect(count(after)).toEqual(count(before));
      for (const doc of holding) {
        const kept = after.find(({ collection, id }) => collection === doc.collection && id === doc.id);
        expect({
          collection: doc.collection,
          id: doc.id,
          kept: kept !== undefined,
          blanked: kept?.text !== doc.text,
        }).toEqual({
          collection: doc.collection,
          id: doc.id,
          kept: true,
          blanked: true,
        });
      }
    });
  },
);

describe("the q search of a module's list, through its API", () => {
  test('finds an employee by email before the erasure and nothing after, while the record reads "[erased]"', async () => {
    const hrm = MODULES.find((module) => module.id === 'hrm') as ModuleDefinition;
    const app = createModuleApp(hrm, suite, { apiToken: undefined, sessionSecret: SESSION_SECRET });
    // The last employee who joined, whose email is no one else's: no other test erased them.
    const joined = index.events
      .filter(({ stored }) => stored.type === 'EmployeeJoined' && stored.stream.startsWith('hrm.employee-'))
      .reverse()
      .find((event) =>
        event.leaves.some(
          ({ owner, text }) => owner && text.includes('@') && exclusiveTo(index, owner, text),
        ),
      );
    const subject = joined?.stored.stream as string;
    const id = Number(subject.slice('hrm.employee-'.length));
    const email = (await request(app).get(`/api/v1/employees/${id}`).expect(200)).body
      .company_email as string;
    const search = () => request(app).get('/api/v1/employees').query({ q: email.toUpperCase() }).expect(200);

    expect((await search()).body.data.map((employee: { id: number }) => employee.id)).toEqual([id]);
    const started = Date.now();
    expect(await erase(suite, [subject])).toEqual([]);
    const waited = Date.now() - started;

    expect((await search()).body).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await request(app).get(`/api/v1/employees/${id}`).expect(200)).body).toMatchObject({
      id,
      first_name: ERASED_TEXT,
      last_name: ERASED_TEXT,
      company_email: ERASED_TEXT,
    });
    expect(waited).toBeLessThan(ERASURE_WAIT_MS);
  });
});

describe('after all the erasures', () => {
  test('the log as stored is unchanged but for the erasures it records, and still verifies', async () => {
    const stored = new Map((await everyEvent(suite.storedEvents)).map((event) => [event.position, event]));
    const changed = index.events
      .filter(({ stored: was }) => JSON.stringify(stored.get(was.position)) !== JSON.stringify(was))
      .map(({ stored: was }) => `${was.stream}@${was.revision}`);
    expect(changed).toEqual([]);
    const seeded = new Set(index.events.map(({ stored: was }) => was.position));
    const appended = [...stored.values()].filter((event) => !seeded.has(event.position));
    expect(new Set(appended.map((event) => event.type))).toEqual(new Set(['SubjectErased']));

    const verified = await verifyLog(suite.storedEvents, suite.catalog);
    expect(verified.problems).toEqual([]);
    expect(verified.ok).toBe(true);
  });
});

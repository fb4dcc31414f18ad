import { ZodDefault, ZodNullable, ZodOptional, type z } from 'zod';
import { DomainError } from '../commands/errors';
import { definitionFor, type SuiteCatalog } from '../events/catalog';
import type { PendingEvent } from '../events/event-store';
import { erasedValue, IV_SIZE, open, seal, sealedHeader, type ErasedAs } from './sealed-value';
import type { OpenedValues } from './opened-values';
import type { KeysBySubject, RandomBytes, SubjectKeyStore } from './subject-keys';

/**
 * Personal fields in events: sealed under their subject's key as they are appended (by the
 * declarations of the event types), opened wherever the log is read (by the sealed values found,
 * whatever the declarations say today), and read as erased once the key is gone.
 */

type Json = unknown;

/** The value at each place a path names, with a way to replace it. */
function* places(data: Json, path: string): Generator<{ value: Json; replace(value: Json): void }> {
  const [step = '', ...rest] = path.split('.');
  const remaining = rest.join('.');
  if (typeof data !== 'object' || data === null) return;
  const record = data as Record<string, Json>;
  if (step.endsWith('[]')) {
    const items = record[step.slice(0, -2)];
    if (!Array.isArray(items)) return;
    for (let index = 0; index < items.length; index++) {
      if (remaining === '') yield { value: items[index], replace: (value) => (items[index] = value) };
      else yield* places(items[index], remaining);
    }
  } else if (step in record) {
    if (remaining === '') yield { value: record[step], replace: (value) => (record[step] = value) };
    else yield* places(record[step], remaining);
  }
}

const isValue = (value: Json) => value !== null && value !== undefined;

/** Whether data holds a value (not null) at some place the path names. */
function holdsValueAt(data: Json, path: string): boolean {
  for (const place of places(data, path)) if (isValue(place.value)) return true;
  return false;
}

/** `erasedAs` of each schema and path, worked out once: schemas do not change. */
const erasedAsFound = new WeakMap<z.ZodType, Map<string, ErasedAs>>();

/** Whether the schema at `path` accepts null: a value erased there then reads null, else "[erased]". */
function erasedAs(schema: z.ZodType, path: string): ErasedAs {
  let paths = erasedAsFound.get(schema);
  if (!paths) erasedAsFound.set(schema, (paths = new Map()));
  let found = paths.get(path);
  if (found === undefined) paths.set(path, (found = erasedAtPath(schema, path)));
  return found;
}

function erasedAtPath(schema: z.ZodType, path: string): ErasedAs {
  let at: z.ZodType | undefined = schema;
  for (const step of path.split('.')) {
    const name = step.endsWith('[]') ? step.slice(0, -2) : step;
    at = (unwrapped(at) as { shape?: Record<string, z.ZodType> } | undefined)?.shape?.[name];
    if (step.endsWith('[]')) at = (unwrapped(at) as { element?: z.ZodType } | undefined)?.element;
  }
  return at?.safeParse(null).success ? 'n' : 't';
}

/** The schema under its optional, nullable and default wrappers. */
function unwrapped(schema: z.ZodType | undefined): z.ZodType | undefined {
  let at = schema;
  while (at instanceof ZodOptional || at instanceof ZodNullable || at instanceof ZodDefault)
    at = at.unwrap() as z.ZodType;
  return at;
}

/** What sealing takes: the declarations, the keys, where IVs come from, and the values it remembers opened. */
export interface Sealing {
  catalog: SuiteCatalog;
  keys: SubjectKeyStore;
  randomBytes: RandomBytes;
  opened?: OpenedValues;
}

/**
 * The events with their personal fields sealed: one sealing key per subject (made when it has none),
 * a fresh IV per value. Events of types that declare no personal data pass unchanged. `creating`: the
 * append creates the stream, so the stream, as a subject, has no key yet (nothing was sealed for it).
 */
export async function sealEvents(
  stream: string,
  events: readonly PendingEvent[],
  { catalog, keys, randomBytes, opened }: Sealing,
  { creating = false } = {},
): Promise<PendingEvent[]> {
  const declared = events.map((event) => ({
    event,
    definition: definitionFor(catalog, { stream, type: event.type }),
  }));
  // Only the subjects with a value to seal: an event whose personal fields are empty needs no key.
  const subjects = declared.flatMap(({ event, definition }) =>
    (definition?.personal ?? [])
      .filter(({ fields }) => fields.some((path) => holdsValueAt(event.data, path)))
      .map((personal) => personal.subject({ stream, data: event.data })),
  );
  for (const { event } of declared) {
    if (holdsSealed(event.data)) {
      throw new DomainError('validation_error', 'A text may not take the form of a sealed value (pd1:…)');
    }
  }
  if (subjects.length === 0) return [...events];
  const sealing = await keys.sealingKeys(subjects, { withoutKeys: creating ? [stream] : [] });
  return declared.map(({ event, definition }) => {
    if (!definition || definition.personal.length === 0) return event;
    const data = structuredClone(event.data);
    for (const personal of definition.personal) {
      if (!personal.fields.some((path) => holdsValueAt(event.data, path))) continue;
      const subject = personal.subject({ stream, data: event.data });
      const key = sealing.get(subject);
      if (!key) throw new Error(`no key to seal the personal data of ${subject}`);
      for (const path of personal.fields) {
        const erased = erasedAs(definition.schema, path);
        for (const place of places(data, path)) {
          if (!isValue(place.value)) continue;
          const sealed = seal(place.value, subject, key, erased, randomBytes(IV_SIZE));
          opened?.remember(sealed, place.value);
          place.replace(sealed);
        }
      }
    }
    return { ...event, data };
  });
}

/** The key ids of the sealed values in data, by subject; undefined when it holds none (most events: nothing allocated). */
function sealedKeyIds(value: Json, found?: Map<string, Set<string>>): Map<string, Set<string>> | undefined {
  if (typeof value === 'string') {
    const header = sealedHeader(value);
    if (!header) return found;
    const keyIds = found ?? new Map<string, Set<string>>();
    let ids = keyIds.get(header.subject);
    if (!ids) keyIds.set(header.subject, (ids = new Set()));
    ids.add(header.keyId);
    return keyIds;
  }
  if (typeof value !== 'object' || value === null) return found;
  let keyIds = found;
  for (const item of Array.isArray(value) ? value : Object.values(value)) keyIds = sealedKeyIds(item, keyIds);
  return keyIds;
}

const holdsSealed = (value: Json): boolean => sealedKeyIds(value) !== undefined;

/** The value with its sealed values opened or read as erased: a copy only along the paths that held some. */
function openValue(value: Json, keys: KeysBySubject, openedValues: OpenedValues | undefined): Json {
  if (typeof value === 'string') {
    const header = sealedHeader(value);
    if (!header) return value;
    const key = keys.get(header.subject)?.get(header.keyId);
    if (!key) return erasedValue(header);
    if (openedValues?.has(value)) return openedValues.get(value);
    const plain = open(value, header, key);
    openedValues?.remember(value, plain);
    return plain;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: Json[] | undefined;
    value.forEach((item: Json, index) => {
      const opened = openValue(item, keys, openedValues);
      if (opened !== item) (copy ??= [...value])[index] = opened;
    });
    return copy ?? value;
  }
  let copy: Record<string, Json> | undefined;
  for (const [field, item] of Object.entries(value)) {
    const opened = openValue(item, keys, openedValues);
    if (opened !== item) (copy ??= { ...value })[field] = opened;
  }
  return copy ?? value;
}

/** The data with every sealed value opened, or read as erased where its key is gone; the same object when it holds none. */
export async function openData(data: Json, keys: SubjectKeyStore, opened?: OpenedValues): Promise<Json> {
  return (await openAll([data], keys, opened))[0];
}

/** `openData` of many at once: one look in the key store for all their subjects. */
export async function openAll(
  data: readonly Json[],
  keys: SubjectKeyStore,
  opened?: OpenedValues,
): Promise<Json[]> {
  let keyIds: Map<string, Set<string>> | undefined;
  for (const item of data) keyIds = sealedKeyIds(item, keyIds);
  if (!keyIds) return [...data];
  let keysBySubject = await keys.keysOf(keyIds.keys());
  const unknown = new Map(
    [...keyIds].filter(([subject, ids]) => [...ids].some((id) => !keysBySubject.get(subject)?.has(id))),
  );
  if (unknown.size > 0) {
    // Made by another process a moment ago, or erased: only the store can tell.
    keysBySubject = new Map([...keysBySubject, ...(await keys.keysNamed(unknown))]);
  }
  return data.map((item) => openValue(item, keysBySubject, opened));
}

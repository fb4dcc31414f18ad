import { ZodDefault, ZodNullable, ZodOptional, type z } from 'zod';
import { DomainError } from '../commands/errors';
import {
  definitionFor,
  type EventDefinition,
  type PersonalFields,
  type SuiteCatalog,
} from '../events/catalog';
import type { PendingEvent } from '../events/event-store';
import { ERASED_TEXT, erasedValue, open, sealedHeader, type ErasedAs } from './sealed-value';
import type { SealedKeyIds } from './opened-events';
import type { KeysBySubject, SubjectKeyStore, ToSeal } from './subject-keys';

/**
 * Personal fields in events: sealed under their subject's key as they are appended (by the
 * declarations of the event types), opened wherever the log is read (by the sealed values found,
 * whatever the declarations say today), and read as erased once the key is gone.
 */

type Json = unknown;

/** A value to seal: not null, and not the text an erased value reads (it holds no one's data). */
const isValue = (value: Json) => value !== null && value !== undefined && value !== ERASED_TEXT;
const isContainer = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null;

/**
 * A path's steps: a field's name, and whether it names the items of an array field (`contacts[]`), or
 * one of them (`to[2]`, a path to one item's field that a declaration with `each` makes).
 */
type Step = { field: string; items: boolean; index?: number };
const stepsFound = new Map<string, readonly Step[]>();
function stepsOf(path: string): readonly Step[] {
  let steps = stepsFound.get(path);
  if (!steps) {
    steps = path.split('.').map((step) => {
      const [, field = step, index] = /^(.*)\[(\d*)\]$/.exec(step) ?? [];
      if (index === undefined) return { field: step, items: false };
      return index === '' ? { field, items: true } : { field, items: true, index: Number(index) };
    });
    stepsFound.set(path, steps);
  }
  return steps;
}

/** The items a step names in an array: all of them, or the one it names. */
const itemsAt = (items: readonly Json[], step: Step): readonly number[] =>
  step.index === undefined ? items.map((_, index) => index) : step.index < items.length ? [step.index] : [];

/** Whether data holds a value (not null) at some place the steps name. */
function holdsValueAt(data: Json, steps: readonly Step[], from = 0): boolean {
  const step = steps[from];
  if (!step || !isContainer(data) || !(step.field in data)) return false;
  const value = data[step.field];
  const last = from === steps.length - 1;
  if (!step.items) return last ? isValue(value) : holdsValueAt(value, steps, from + 1);
  if (!Array.isArray(value)) return false;
  return itemsAt(value, step).some((index) =>
    last ? isValue(value[index]) : holdsValueAt(value[index], steps, from + 1),
  );
}

/** The container if this sealing copied it already, else its copy (registered in `copies`). */
function own<Container extends object>(container: Container, copies: Set<object>): Container {
  if (copies.has(container)) return container;
  const copy = (Array.isArray(container) ? [...container] : { ...container }) as Container;
  copies.add(copy);
  return copy;
}

/**
 * Replaces each value (not null) at the place the steps name in `record` (a copy of this sealing's)
 * by `replace(value)`, copying the containers on the way: the data given is left as it was.
 */
function replaceAt(
  record: Record<string, Json>,
  steps: readonly Step[],
  replace: (value: Json) => Json,
  copies: Set<object>,
  from = 0,
): void {
  const step = steps[from];
  if (!step || !(step.field in record)) return;
  const value = record[step.field];
  const last = from === steps.length - 1;
  const replaced = (inner: Json): Json => {
    if (last) return isValue(inner) ? replace(inner) : inner;
    if (!isContainer(inner)) return inner;
    const copy = own(inner, copies);
    replaceAt(copy, steps, replace, copies, from + 1);
    return copy;
  };
  if (!step.items) record[step.field] = replaced(value);
  else if (Array.isArray(value)) {
    const items = own(value, copies);
    for (const index of itemsAt(items, step)) items[index] = replaced(items[index]);
    record[step.field] = items;
  }
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

/** One subject's fields in one event: the paths to its values, and the declared path of each (its schema). */
interface Placement {
  subject: string;
  fields: { path: string; declared: string }[];
}

/** The value at a path of objects (`organizer`, `message.to`). */
const valueAtPath = (data: Json, path: string): Json =>
  path.split('.').reduce<Json>((at, field) => (isContainer(at) ? at[field] : undefined), data);

/** A declaration's placements: one, or, with `each`, one per item of that array (each item names its own subject). */
function declaredPlacements(declaration: PersonalFields, stream: string, data: Json): Placement[] {
  if (declaration.each === undefined) {
    const fields = declaration.fields.map((path) => ({ path, declared: path }));
    return [{ subject: declaration.subject({ stream, data }), fields }];
  }
  const { each } = declaration;
  const items = valueAtPath(data, each);
  if (!Array.isArray(items)) return [];
  return items.map((item: Json, index) => ({
    subject: declaration.subject({ stream, data }, item),
    fields: declaration.fields.map((field) => ({
      path: `${each}[${index}].${field}`,
      declared: `${each}[].${field}`,
    })),
  }));
}

/**
 * Whose personal values an event holds, and where: its type's declarations, and the places its data
 * names itself (`personalIn`). Only those with a value to seal; their subjects asked for only then.
 */
function placementsOf(definition: EventDefinition | undefined, stream: string, data: Json): Placement[] {
  if (!definition) return [];
  const declared = definition.personal.flatMap((declaration) =>
    declaredPlacements(declaration, stream, data),
  );
  const named = (definition.personalIn?.(data) ?? []).map(({ subject, fields }) => ({
    subject,
    fields: fields.map((path) => ({ path, declared: path })),
  }));
  return [...declared, ...named].filter(({ fields }) =>
    fields.some(({ path }) => holdsValueAt(data, stepsOf(path))),
  );
}

/** The values (not null) at the places the steps name. */
function valuesAt(data: Json, steps: readonly Step[], from = 0): Json[] {
  const step = steps[from];
  if (!step || !isContainer(data) || !(step.field in data)) return [];
  const value = data[step.field];
  const last = from === steps.length - 1;
  const inner = (item: Json) => (last ? (isValue(item) ? [item] : []) : valuesAt(item, steps, from + 1));
  if (!step.items) return inner(value);
  return Array.isArray(value) ? itemsAt(value, step).flatMap((index) => inner(value[index])) : [];
}

/** A personal value an event holds, and whose it is. */
export interface PersonalValue {
  subject: string;
  value: unknown;
}

/** The personal values an event's data holds in clear, by the declarations of its type (an event of a type that declares none holds none). */
export function personalValuesOf(
  definition: EventDefinition | undefined,
  stream: string,
  data: Json,
): PersonalValue[] {
  return placementsOf(definition, stream, data).flatMap(({ subject, fields }) =>
    fields.flatMap(({ path }) => valuesAt(data, stepsOf(path)).map((value) => ({ subject, value }))),
  );
}

/** An event as it is appended: its personal fields sealed, and the keys they were sealed with (none: it held none). */
export interface SealedEvent {
  event: PendingEvent;
  sealedWith?: SealedKeyIds;
}

/**
 * The events with their personal fields sealed: one sealing key per subject (made when it has none),
 * a fresh IV per value, all the values sealed at once. Events of types that declare no personal data
 * pass unchanged. `creating`: the append creates the stream, so the stream, as a subject, has no key
 * yet (nothing was sealed for it).
 */
export async function sealEvents(
  stream: string,
  events: readonly PendingEvent[],
  catalog: SuiteCatalog,
  keys: SubjectKeyStore,
  { creating = false } = {},
): Promise<SealedEvent[]> {
  // Only the subjects with a value to seal: an event whose personal fields are empty needs no key.
  const toSeal = events.map((event) => {
    if (holdsSealed(event.data)) {
      throw new DomainError('validation_error', 'A text may not take the form of a sealed value (pd1:…)');
    }
    const definition = definitionFor(catalog, { stream, type: event.type });
    const held = placementsOf(definition, stream, event.data);
    return { event, definition, held };
  });
  const subjects: string[] = [];
  for (const event of toSeal) subjects.push(...event.held.map(({ subject }) => subject));
  if (subjects.length === 0) return events.map((event) => ({ event }));
  const sealing = await keys.sealingKeys(subjects, { withoutKeys: creating ? [stream] : [] });
  // Each personal value is replaced twice along the same walk: by itself, to collect it, then by its
  // sealed form. The copies the first made are the second's.
  const values: ToSeal[] = [];
  const placed = toSeal.map(({ event, definition, held }) => {
    if (!definition || held.length === 0 || !isContainer(event.data)) return { event };
    const copies = new Set<object>();
    const data = own(event.data, copies);
    const places: (readonly Step[])[] = [];
    const sealedWith = new Map<string, Set<string>>();
    for (const { subject, fields } of held) {
      const key = sealing.get(subject);
      if (!key) throw new Error(`no key to seal the personal data of ${subject}`);
      for (const { path, declared } of fields) {
        const erased = erasedAs(definition.schema, declared);
        const steps = stepsOf(path);
        replaceAt(
          data,
          steps,
          (value) => (values.push({ value, subject, key, erasedAs: erased }), value),
          copies,
        );
        places.push(steps);
      }
      sealedWith.set(subject, (sealedWith.get(subject) ?? new Set()).add(key.id));
    }
    return { event: { ...event, data }, sealedWith, places, copies };
  });
  const sealedValues = keys.seal(values);
  let next = 0;
  return placed.map(({ event, sealedWith, places, copies }) => {
    if (!places || !copies) return { event };
    const data = event.data as Record<string, Json>;
    for (const steps of places) replaceAt(data, steps, () => sealedValues[next++], copies);
    return { event, sealedWith };
  });
}

/** Adds the key ids of the sealed values in `value` to `keyIds`, by subject; whether it holds any. */
function collectKeyIds(value: Json, keyIds: Map<string, Set<string>>): boolean {
  if (typeof value === 'string') {
    const header = sealedHeader(value);
    if (!header) return false;
    let ids = keyIds.get(header.subject);
    if (!ids) keyIds.set(header.subject, (ids = new Set()));
    ids.add(header.keyId);
    return true;
  }
  if (typeof value !== 'object' || value === null) return false;
  let holds = false;
  if (Array.isArray(value)) for (const item of value) holds = collectKeyIds(item, keyIds) || holds;
  else
    for (const field in value) holds = collectKeyIds((value as Record<string, Json>)[field], keyIds) || holds;
  return holds;
}

/** The key ids of the sealed values in data, by subject; undefined when it holds none. */
export function sealedKeyIds(value: Json): Map<string, Set<string>> | undefined {
  const keyIds = new Map<string, Set<string>>();
  return collectKeyIds(value, keyIds) ? keyIds : undefined;
}

/** Whether the value holds a sealed value anywhere: a walk that stops at the first. */
function holdsSealed(value: Json): boolean {
  if (typeof value === 'string') return sealedHeader(value) !== undefined;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsSealed);
  for (const field in value) if (holdsSealed((value as Record<string, Json>)[field])) return true;
  return false;
}

/** The value with its sealed values opened or read as erased: a copy only along the paths that held some. */
export function openValue(value: Json, keys: KeysBySubject): Json {
  if (typeof value === 'string') {
    const header = sealedHeader(value);
    if (!header) return value;
    const key = keys.get(header.subject)?.get(header.keyId);
    return key ? open(value, key) : erasedValue(header);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: Json[] | undefined;
    value.forEach((item: Json, index) => {
      const opened = openValue(item, keys);
      if (opened !== item) (copy ??= [...value])[index] = opened;
    });
    return copy ?? value;
  }
  let copy: Record<string, Json> | undefined;
  for (const field in value) {
    const item = (value as Record<string, Json>)[field];
    const opened = openValue(item, keys);
    if (opened !== item) (copy ??= { ...value })[field] = opened;
  }
  return copy ?? value;
}

/** The data with every sealed value opened, or read as erased where its key is gone; the same object when it holds none. */
export async function openData(data: Json, keys: SubjectKeyStore): Promise<Json> {
  return (await openAll([data], keys))[0];
}

/** Whether any of the ids is not among the keys. */
function lacksAny(keys: ReadonlyMap<string, Buffer> | undefined, ids: ReadonlySet<string>): boolean {
  for (const id of ids) if (!keys?.has(id)) return true;
  return false;
}

/**
 * The keys the sealed values name (`keyIds`, by subject), as far as they are kept: one look in the key
 * store for all their subjects, and one more for the ids it did not know (`remember: false`, a long
 * read: keys not remembered, see `SubjectKeyStore.keysOf`).
 */
export async function keysFor(
  keyIds: SealedKeyIds,
  keys: SubjectKeyStore,
  { remember = true }: { remember?: boolean } = {},
): Promise<KeysBySubject> {
  if (keyIds.size === 0) return new Map();
  const keysBySubject = await keys.keysOf(keyIds.keys(), { remember });
  const unknown = new Map<string, Set<string>>();
  for (const [subject, ids] of keyIds)
    if (lacksAny(keysBySubject.get(subject), ids)) unknown.set(subject, new Set(ids));
  if (unknown.size === 0) return keysBySubject;
  // Made by another process a moment ago, or erased: only the store can tell.
  return new Map([...keysBySubject, ...(await keys.keysNamed(unknown))]);
}

/** The key ids the sealed values of all these data name, by subject, and which of them hold any. */
export function sealedKeyIdsOfAll(data: readonly Json[]): { keyIds: SealedKeyIds; holding: boolean[] } {
  const keyIds = new Map<string, Set<string>>();
  const holding = data.map((item) => collectKeyIds(item, keyIds));
  return { keyIds, holding };
}

/** `openData` of many at once: one look in the key store for all their subjects (see `keysFor`). */
export async function openAll(
  data: readonly Json[],
  keys: SubjectKeyStore,
  options: { remember?: boolean } = {},
): Promise<Json[]> {
  // Most events hold no sealed value: only those that do are walked again to be opened.
  const { keyIds, holding } = sealedKeyIdsOfAll(data);
  if (keyIds.size === 0) return [...data];
  const keysBySubject = await keysFor(keyIds, keys, options);
  return data.map((item, index) => (holding[index] ? openValue(item, keysBySubject) : item));
}

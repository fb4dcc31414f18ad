import type { EventDefinition } from '../events/catalog';
import type { EventStore } from '../events/event-store';
import { personalValuesOf, type PersonalValue } from './personal-data';

/**
 * Where a document that copies a write (a proposal's body, the record it answered) holds personal
 * values of the events that write read or appended: no declaration says which fields of a body or an
 * answer are whose, but the events' declarations say which of their values are, and the document
 * holds the same values. A place is named by its field's path in the document (`to.0.email`; `''` for
 * the whole document) and sealed like a declared field of the event that stores the document.
 */
export interface PersonalPlace {
  subject: string;
  field: string;
}

/** Shorter texts are no one's in particular (an initial, a salutation): left to whole matches. */
const SHORTEST_PART = 3;

const comparable = (text: string) => text.trim().toLowerCase();

/** The texts within a value, however deep. */
function textsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(textsIn);
}

/** A path's segment that the dotted path of a declared field cannot spell (see `PersonalFields.fields`). */
const unspellable = (segment: string) => segment === '' || /[.[\]]/.test(segment);

/**
 * The places in `document` holding a personal value: a value (text, object or array) equal to one of
 * `values`, or a text that holds one of their texts (compared trimmed and in any case: a name the
 * write trimmed, an address it lower-cased, a full name built of a first and a last). Erring towards
 * sealing: a text that holds a personal text is sealed whole, under the subject of the first found.
 */
export function personalPlaces(document: unknown, values: readonly PersonalValue[]): PersonalPlace[] {
  const wholes = new Map<string, string>();
  const parts: { text: string; subject: string }[] = [];
  for (const { subject, value } of values) {
    if (typeof value === 'number' || typeof value === 'boolean') continue;
    const key = JSON.stringify(value);
    if (!wholes.has(key)) wholes.set(key, subject);
    for (const text of textsIn(value)) {
      const part = comparable(text);
      if (part.length >= SHORTEST_PART) parts.push({ text: part, subject });
    }
  }
  // Longest first: a full name is found before the first name it holds.
  parts.sort((a, b) => b.text.length - a.text.length);
  const places: PersonalPlace[] = [];

  const subjectOf = (value: unknown): string | undefined => {
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) return undefined;
    const whole = wholes.get(JSON.stringify(value));
    if (whole || typeof value !== 'string') return whole;
    const text = comparable(value);
    return parts.find((part) => text.includes(part.text))?.subject;
  };

  const walk = (value: unknown, path: readonly string[]): void => {
    const subject = subjectOf(value);
    if (subject) {
      places.push({ subject, field: path.join('.') });
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, item] of Object.entries(value)) {
      if (!unspellable(key)) walk(item, [...path, key]);
      else if (holdsAny(item)) {
        // A field whose name a path cannot spell: the container is sealed whole, under the first subject.
        const found = textsIn(item)
          .map(subjectOf)
          .find((candidate) => candidate !== undefined);
        if (found) places.push({ subject: found, field: path.join('.') });
        return;
      }
    }
  };
  const holdsAny = (value: unknown): boolean => textsIn(value).some((text) => subjectOf(text) !== undefined);

  if (values.length > 0) walk(document, []);
  return dropNested(places);
}

/** Places inside another place are sealed with it (a container sealed whole). */
function dropNested(places: PersonalPlace[]): PersonalPlace[] {
  const containers = places.map(({ field }) => field);
  return places.filter(
    ({ field }) =>
      !containers.some((other) => other !== field && (other === '' || field.startsWith(`${other}.`))),
  );
}

/**
 * The event store a write runs on, watched: the personal values of every event it reads from a stream
 * or appends, by the declarations of `definitions` (the module's events), for `personalPlaces`.
 */
export function watchingPersonalData(
  eventStore: EventStore,
  definitions: readonly EventDefinition[],
): { eventStore: EventStore; values(): PersonalValue[] } {
  const byType = new Map(definitions.map((definition) => [definition.type, definition]));
  const values: PersonalValue[] = [];
  const note = (stream: string, events: readonly { type: string; data: unknown }[]) => {
    for (const { type, data } of events) values.push(...personalValuesOf(byType.get(type), stream, data));
  };
  return {
    eventStore: {
      ...eventStore,
      async readStream(stream, options) {
        const events = await eventStore.readStream(stream, options);
        note(stream, events);
        return events;
      },
      append(stream, events, options) {
        note(stream, events);
        return eventStore.append(stream, events, options);
      },
      appendAll(appends) {
        for (const { stream, events } of appends) note(stream, events);
        return eventStore.appendAll(appends);
      },
    },
    values: () => values,
  };
}

/** The fields a stored document's places are declared as, within the event field that holds it. */
export const placedIn = (field: string, places: readonly PersonalPlace[]) =>
  places.map(({ subject, field: place }) => ({
    subject,
    fields: [place === '' ? field : `${field}.${place}`],
  }));

import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { keysFor, sealedKeyIdsOfAll } from './personal-data';
import { sealedValuesIn } from './sealed-pointers';
import { erasedValue, keyIdOf, open } from './sealed-value';
import type { KeysBySubject, SubjectKeyStore } from './subject-keys';

/** What evidence may disclose besides its events (`?disclose=`, `--disclose`). */
export const DISCLOSABLE: readonly string[] = ['personal'];

/**
 * A subject's key handed to an auditor with the events that hold values sealed under it (its key
 * base64), or word that it was erased: what `?disclose=personal` adds to evidence.
 */
export type DisclosedKey =
  { subject: string; key_id: string; key: string } | { subject: string; key_id: string; erased: true };

/** A disclosed key as a bundle read from a file must hold it: nothing more, nothing less. */
export const DisclosedKeySchema = z.union([
  z.strictObject({ subject: z.string(), key_id: z.string(), key: z.string() }),
  z.strictObject({ subject: z.string(), key_id: z.string(), erased: z.literal(true) }),
]);

/**
 * One entry per subject and key id the events' sealed values name (in that order), with the key while
 * it is kept, or `erased` once it is gone. One look in the key store for them all.
 */
export async function disclosedKeys(
  events: readonly { data: unknown }[],
  keyStore: SubjectKeyStore,
): Promise<DisclosedKey[]> {
  const { keyIds } = sealedKeyIdsOfAll(events.map(({ data }) => data));
  const keys = await keysFor(keyIds, keyStore, { remember: false });
  const subjects = [...keyIds.keys()].sort();
  return subjects.flatMap((subject) =>
    [...(keyIds.get(subject) ?? [])].sort().map((key_id): DisclosedKey => {
      const key = keys.get(subject)?.get(key_id);
      return key ? { subject, key_id, key: key.toString('base64') } : { subject, key_id, erased: true };
    }),
  );
}

/** A sealed value of an event, opened with its disclosed key, or named erased (its key is gone). */
export interface DisclosedValue {
  /** The event it is in, as the evidence names it (`position 42`, `index 41`). */
  place: string;
  /** Its RFC 6901 pointer into the event's data. */
  pointer: string;
  subject: string;
  key_id: string;
  /** The value; absent when its key was erased. */
  value?: unknown;
  erased: boolean;
}

/** An event as a bundle carries it: its stored data, and the opened values it claims beside. */
export interface DisclosingEvent {
  /** How the evidence names the event (`position 42`, `index 41`). */
  place: string;
  data: unknown;
  opened?: Record<string, unknown>;
}

const entryOf = (subject: string, keyId: string) => `${subject}\u0000${keyId}`;

/** The 32 bytes of a key in canonical base64; undefined for anything else (base64 decoding skips what it cannot read). */
function keyBytes(text: string): Buffer | undefined {
  const key = Buffer.from(text, 'base64');
  return key.length === 32 && key.toString('base64') === text ? key : undefined;
}

/** The disclosed keys by subject and key id, each checked against its id; or what is wrong with them. */
function checkedKeys(disclosed: readonly DisclosedKey[]): Map<string, Buffer | 'erased'> | string {
  const keys = new Map<string, Buffer | 'erased'>();
  for (const entry of disclosed) {
    const named = `the key of ${entry.subject} disclosed as ${entry.key_id}`;
    const at = entryOf(entry.subject, entry.key_id);
    if (keys.has(at)) return `${named} is disclosed twice`;
    if ('erased' in entry) {
      keys.set(at, 'erased');
      continue;
    }
    const key = keyBytes(entry.key);
    if (!key) return `${named} is not a 32-byte key in base64`;
    if (keyIdOf(key) !== entry.key_id) return `${named} does not hash to that id`;
    keys.set(at, key);
  }
  return keys;
}

/**
 * Checks disclosed keys against the events they came with, offline: each key hashes to its id, every
 * sealed value of the events names a disclosed key (or one disclosed erased) and opens with it (its
 * header the additional data), every disclosed key is named by a sealed value, and the opened values an
 * event claims beside its data are exactly those. Answers what failed, or the values by event and pointer.
 */
export function checkDisclosure(
  events: readonly DisclosingEvent[],
  disclosed: readonly DisclosedKey[],
): { problem: string } | { values: DisclosedValue[] } {
  const keys = checkedKeys(disclosed);
  if (typeof keys === 'string') return { problem: keys };
  const used = new Set<string>();
  const values: DisclosedValue[] = [];
  for (const event of events) {
    const claimed = new Map(Object.entries(event.opened ?? {}));
    for (const { pointer, sealed, header } of sealedValuesIn(event.data)) {
      const { subject, keyId: key_id } = header;
      const at = entryOf(subject, key_id);
      const key = keys.get(at);
      const place = `${pointer} at ${event.place}`;
      if (!key) return { problem: `no key of ${subject} is disclosed as ${key_id} (${place})` };
      used.add(at);
      let value: unknown;
      try {
        value = key === 'erased' ? erasedValue(header) : open(sealed, key);
      } catch {
        return { problem: `the key of ${subject} disclosed as ${key_id} does not open ${place}` };
      }
      if (event.opened && (!claimed.has(pointer) || !isDeepStrictEqual(claimed.get(pointer), value))) {
        return { problem: `the opened value of ${place} is not what its sealed value holds` };
      }
      claimed.delete(pointer);
      const erased = key === 'erased';
      values.push({
        place: event.place,
        pointer,
        subject,
        key_id,
        erased,
        ...(erased ? {} : { value }),
      });
    }
    const [extra] = claimed.keys();
    if (extra !== undefined) return { problem: `${extra} at ${event.place} names no sealed value` };
  }
  const unused = disclosed.find((entry) => !used.has(entryOf(entry.subject, entry.key_id)));
  if (unused)
    return { problem: `the key of ${unused.subject} disclosed as ${unused.key_id} seals none of the values` };
  return { values };
}

/** The disclosed keys (those not erased) by subject and key id, to open the values they seal with. */
export function disclosedKeysBySubject(disclosed: readonly DisclosedKey[]): KeysBySubject {
  const keys = new Map<string, Map<string, Buffer>>();
  for (const entry of disclosed) {
    if (!('key' in entry)) continue;
    let ofSubject = keys.get(entry.subject);
    if (!ofSubject) keys.set(entry.subject, (ofSubject = new Map()));
    ofSubject.set(entry.key_id, Buffer.from(entry.key, 'base64'));
  }
  return keys;
}

import { DomainError } from '../commands/errors';
import { recent } from './recent';
import { IV_SIZE, KEY_BYTES, keyIdOf, seal, type ErasedAs, type SubjectKey } from './sealed-value';

/** Random bytes: the system's, or a seeded generator's for the demo data (the same log on every first start). */
export type RandomBytes = (size: number) => Buffer;

/** Bytes drawn from the source at once, and served in small pieces: one draw for many IVs. */
const DRAWN_AT_ONCE = 4096;

/** Small random draws served from larger ones (each draw from the system's generator costs a call into it). */
function drawnInBulk(source: RandomBytes): RandomBytes {
  let drawn: Buffer = Buffer.alloc(0);
  let used = 0;
  return (size) => {
    if (size > DRAWN_AT_ONCE) return source(size);
    if (used + size > drawn.length) {
      drawn = source(DRAWN_AT_ONCE);
      used = 0;
    }
    used += size;
    return Buffer.from(drawn.subarray(used - size, used));
  };
}

/** A personal value to seal under its subject's key, and what it reads once that key is gone. */
export interface ToSeal {
  value: unknown;
  subject: string;
  key: SubjectKey;
  erasedAs: ErasedAs;
}

/**
 * The data subjects' keys, kept outside the log: erasing a subject deletes its keys, and what was
 * sealed under them can no longer be read. An erased subject keeps a tombstone: it is never given a
 * key again, so no personal value of it can be stored readable after its erasure (a write that would
 * store one is refused, `subject_erased`).
 */
export interface SubjectKeyStore {
  /**
   * The keys that open values sealed for each subject (by key id), as this process remembers them; none
   * once it was erased. `remember: false` (a long read, a rebuild): looked up in the store, and not
   * remembered, where remembering would cost more than it saves.
   */
  keysOf(subjects: Iterable<string>, options?: { remember?: boolean }): Promise<KeysBySubject>;
  /**
   * The keys of the subjects looked up again in the store, for values sealed under keys this process
   * does not know (made by another process, or erased): `wanted` names the key ids by subject.
   */
  keysNamed(wanted: ReadonlyMap<string, ReadonlySet<string>>): Promise<KeysBySubject>;
  /**
   * The key to seal new values of each subject with; a subject that has none is handed one. Refused
   * (`subject_erased`) when a subject was erased. `withoutKeys`: subjects known to have none yet (a
   * stream being created), handed one without a look.
   */
  sealingKeys(
    subjects: readonly string[],
    options?: { withoutKeys?: readonly string[] },
  ): Promise<ReadonlyMap<string, SubjectKey>>;
  /** Seals the values under the keys `sealingKeys` answered, in order, each with a fresh IV. */
  seal(values: readonly ToSeal[]): string[];
  /**
   * Tombstones the subject and deletes every key of it, and the keys named `keyIds` (those its sealed
   * values name: a key handed to it may still be kept as a spare, see `KeyRows.assign`), leaving no
   * copy in the store. This process forgets them at once; another within CACHED_MS, or when its
   * erasure follower sees the erasure.
   */
  erase(subject: string, keyIds?: Iterable<string>): Promise<void>;
  /** Every key there is (`suite replay` copies them with the log). */
  allKeys(): Promise<KeptKey[]>;
  /** Keeps keys made elsewhere (a copy of the log's); a key kept already stays as it is. */
  keep(keys: readonly KeptKey[]): Promise<void>;
  close(): Promise<void>;
}

/** A kept key with its subject; `null`: a spare, made in advance and not handed to a subject (yet). */
export type KeptKey = SubjectKey & { subject: string | null };

/**
 * Events a read holds at most for its keys (and its events, opened) to be remembered: a live
 * projection's batch, a stream, a page. A longer read (a catch-up, a rebuild) would cost, not save.
 */
export const REMEMBERED_READ = 100;

export type KeysBySubject = ReadonlyMap<string, ReadonlyMap<string, Buffer>>;

/** Where a key store keeps its keys: the embedded file, or a MongoDB collection. */
export interface KeyRows {
  /** The subjects' keys, each subject's oldest first. */
  of(subjects: readonly string[]): Promise<KeptKey[]>;
  /** The subjects among these that were erased (tombstoned): none is given a key again. */
  erasedAmong(subjects: readonly string[]): Promise<string[]>;
  /**
   * The keys these ids name, wherever they are: among the subject's, or still a spare (`subject`
   * null: its handing-out was not written yet, or a crash lost it).
   */
  named(keys: readonly { subject: string; id: string }[]): Promise<KeptKey[]>;
  /**
   * Writes the keys durably (a key lost in a crash would be data lost); a key there already stays, and
   * none is kept for an erased subject.
   */
  insert(keys: readonly KeptKey[], createdAt: string): Promise<void>;
  /**
   * Hands a spare to a subject, `at` a time in milliseconds. Need not be durable: the spare was, and a
   * crash that loses the handing-out leaves it a spare, which the values sealed under it find again by
   * its id. A store that wrote it before answering answers nothing; one that writes it asynchronously,
   * a promise to await before the key is used. Never kept for a subject erased meanwhile.
   */
  assign(subject: string, key: SubjectKey, at: number): Promise<void> | void;
  /**
   * Tombstones the subject, and deletes its keys and the named spares, leaving no copy in the store's
   * files: durably, before it answers.
   */
  erase(subject: string, keyIds: readonly string[]): Promise<void>;
  /** Deletes spares that were never handed out. */
  drop(keyIds: readonly string[]): Promise<void>;
  all(): Promise<KeptKey[]>;
  close(): Promise<void>;
}

/**
 * Spares a process makes at once: one durable write for the keys of that many new subjects, where a
 * durable write per new subject would halve the throughput of writes that each name a new one.
 */
const SPARES_AT_ONCE = 256;
/** Spares left when the next are made. */
const SPARES_AHEAD = 64;
/** Subjects whose keys a process keeps in memory at most, in each of two generations (about 10 MB in all). */
const CACHED_SUBJECTS = 25_000;
/**
 * How long a process trusts the keys it remembers: another process's erasure is seen within this
 * while even by a process that does not follow the log (a module's API, whose commands read streams).
 */
const CACHED_MS = 1_000;

/**
 * What a process remembers of a subject: its keys by id, the one new values are sealed with, and since
 * when; or that it was erased (for good: that is trusted however old).
 */
interface Remembered {
  keys: Map<string, Buffer>;
  latest: SubjectKey | undefined;
  at: number;
  erased: boolean;
}

function remembered(keys: Map<string, Buffer>, at: number): Remembered {
  let latest: SubjectKey | undefined;
  for (const [id, key] of keys) latest = { id, key };
  return { keys, latest, at, erased: false };
}

const ERASED: Remembered = { keys: new Map(), latest: undefined, at: 0, erased: true };

/** The refusal of a write that would store personal values of subjects erased already. */
export function subjectErased(subjects: readonly string[]): DomainError {
  return new DomainError(
    'subject_erased',
    `The data subject ${subjects.join(', ')} was erased: no personal data of it is stored again`,
    { subjects },
  );
}

const keysBySubject = (found: ReadonlyMap<string, Remembered>): KeysBySubject =>
  new Map([...found].map(([subject, { keys }]) => [subject, keys]));

/** The rows' keys by subject (a subject with none is not there). */
function keysByRow(kept: readonly KeptKey[]): KeysBySubject {
  const found = new Map<string, Map<string, Buffer>>();
  for (const { subject, id, key } of kept) {
    if (subject === null) continue;
    let keys = found.get(subject);
    if (!keys) found.set(subject, (keys = new Map()));
    keys.set(id, key);
  }
  return found;
}

/**
 * A key store over its rows. It remembers the keys of the subjects it used for a second, and hands
 * new subjects keys from spares it made in advance, durably, many at a time. Spares are its own: no
 * other process hands them out, and those it did not hand out are dropped when it closes. Two writes
 * about a new subject in one process get the same key; two processes may give a subject two keys,
 * both kept (a value sealed under a key a process does not know makes it look again).
 */
export function cachedKeyStore(rows: KeyRows, randomBytes: RandomBytes): SubjectKeyStore {
  // Kept no longer than it is trusted (a little more): what is older is looked up again anyway.
  const cache = recent<string, Remembered>({ size: CACHED_SUBJECTS, ms: CACHED_MS });
  const spares: SubjectKey[] = [];
  let making: Promise<void> | null = null;
  const ivs = drawnInBulk(randomBytes);

  /** The subjects' keys: as remembered, when that was less than CACHED_MS ago (and not `fresh`), or as the rows hold them. */
  async function lookUp(subjects: Iterable<string>, { fresh = false } = {}) {
    const now = Date.now();
    const found = new Map<string, Remembered>();
    const missing: string[] = [];
    for (const subject of subjects) {
      const known = cache.get(subject);
      if (known && (known.erased || (!fresh && now - known.at < CACHED_MS))) found.set(subject, known);
      else missing.push(subject);
    }
    // Awaited even when everything was remembered: the same turns of the event loop whatever the cache
    // holds, so that concurrent writes interleave the same way (the demo data is the same every time).
    const [rowsOfMissing, erasedOfMissing] = await Promise.all([rows.of(missing), rows.erasedAmong(missing)]);
    if (missing.length === 0) return found;
    const erased = new Set(erasedOfMissing);
    const loaded = new Map(missing.map((subject) => [subject, new Map<string, Buffer>()]));
    for (const { subject, id, key } of rowsOfMissing) if (subject) loaded.get(subject)?.set(id, key);
    for (const [subject, keys] of loaded) {
      const known = erased.has(subject) ? ERASED : remembered(keys, now);
      cache.set(subject, known);
      found.set(subject, known);
    }
    return found;
  }

  /** Makes the next spares (their random bytes drawn at once, in turn with the writes that need them). */
  function makeSpares(): Promise<void> {
    making ??= (async () => {
      const bytes = randomBytes(SPARES_AT_ONCE * KEY_BYTES);
      const made = Array.from({ length: SPARES_AT_ONCE }, (_, index) => {
        const key = Buffer.from(bytes.subarray(index * KEY_BYTES, (index + 1) * KEY_BYTES));
        return { id: keyIdOf(key), key };
      });
      await rows.insert(
        made.map((key) => ({ ...key, subject: null })),
        new Date().toISOString(),
      );
      spares.push(...made);
    })().finally(() => (making = null));
    return making;
  }

  /**
   * A key for a subject that had none: the one another write about it was handed meanwhile, or a
   * spare (its handing-out, when the rows write it asynchronously, added to `writes`). None when no spare is left.
   */
  function handOut(subject: string, writes: Promise<void>[]): SubjectKey | undefined {
    const known = cache.get(subject);
    if (known?.erased) throw subjectErased([subject]);
    if (known?.latest) return known.latest;
    const spare = spares.shift();
    if (!spare) return undefined;
    // The next spares are made while these last, so that no write waits for their durable write;
    // a failure to make them shows when a write needs one and there is none.
    if (spares.length === SPARES_AHEAD) makeSpares().catch(() => undefined);
    const at = Date.now();
    cache.set(subject, { keys: new Map([[spare.id, spare.key]]), latest: spare, at, erased: false });
    const writing = rows.assign(subject, spare, at);
    if (writing) writes.push(writing);
    return spare;
  }

  return {
    seal: (values) =>
      values.map(({ value, subject, key, erasedAs }) => seal(value, subject, key, erasedAs, ivs(IV_SIZE))),
    keysOf: async (subjects, { remember = true } = {}) =>
      remember ? keysBySubject(await lookUp(subjects)) : keysByRow(await rows.of([...subjects])),
    async keysNamed(wanted) {
      const found = await lookUp(wanted.keys(), { fresh: true });
      const lost = [...wanted].flatMap(([subject, ids]) =>
        [...ids].filter((id) => !found.get(subject)?.keys.has(id)).map((id) => ({ subject, id })),
      );
      if (lost.length === 0) return keysBySubject(found);
      // Handed out since the look (the rows may write a handing-out a while later), or spares whose
      // handing-out a crash lost: those are given back to the subject their values name.
      const at = Date.now();
      for (const key of await rows.named(lost)) {
        const subject = key.subject ?? (lost.find(({ id }) => id === key.id) as { subject: string }).subject;
        const known = found.get(subject);
        if (!known || known.erased) continue;
        if (key.subject === null) await rows.assign(subject, key, at);
        known.keys.set(key.id, key.key);
        known.latest = { id: key.id, key: key.key };
      }
      return keysBySubject(found);
    },
    async sealingKeys(subjects, { withoutKeys = [] } = {}) {
      const toLookUp = new Set(subjects);
      for (const subject of withoutKeys) toLookUp.delete(subject);
      // Nothing to look up (a write about the stream it creates): no turn to wait, whatever the cache holds.
      const found = toLookUp.size > 0 ? await lookUp(toLookUp) : new Map<string, Remembered>();
      const sealing = new Map<string, SubjectKey>();
      const writes: Promise<void>[] = [];
      const erased = [...new Set(subjects)].filter((subject) => found.get(subject)?.erased);
      if (erased.length > 0) throw subjectErased(erased);
      for (const subject of subjects) {
        if (sealing.has(subject)) continue;
        let key = found.get(subject)?.latest ?? handOut(subject, writes);
        while (!key) {
          await makeSpares();
          key = handOut(subject, writes);
        }
        sealing.set(subject, key);
      }
      if (writes.length > 0) await Promise.all(writes);
      return sealing;
    },
    async erase(subject, keyIds = []) {
      // Forgotten first: no write of this process is handed its key from here on.
      cache.set(subject, ERASED);
      await rows.erase(subject, [...keyIds]);
    },
    async allKeys() {
      const own = new Set(spares.map(({ id }) => id));
      return (await rows.all()).filter(({ id }) => !own.has(id));
    },
    async keep(keys) {
      await rows.insert(keys, new Date().toISOString());
      for (const { subject } of keys) if (subject && !cache.get(subject)?.erased) cache.delete(subject);
    },
    close: async () => {
      await making?.catch(() => undefined);
      const unused = spares.splice(0).map(({ id }) => id);
      if (unused.length > 0) await rows.drop(unused);
      await rows.close();
    },
  };
}

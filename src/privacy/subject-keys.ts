import { KEY_BYTES, type SubjectKey } from './sealed-value';

/** Random bytes: the system's, or a seeded generator's for the demo data (the same log on every first start). */
export type RandomBytes = (size: number) => Buffer;

/**
 * The data subjects' keys, kept outside the log: erasing a subject deletes its keys, and what was
 * sealed under them can no longer be read. A subject written to after its erasure gets a new key:
 * its new data is readable, the old stays erased.
 */
export interface SubjectKeyStore {
  /**
   * The keys that open values sealed for each subject (by key id); none once it was erased. `fresh`:
   * looked up again, not as this process remembers them (a value sealed under a key it does not know).
   */
  keysOf(subjects: Iterable<string>, options?: { fresh?: boolean }): Promise<KeysBySubject>;
  /** The key to seal new values of each subject with, made (durably) for those that have none. */
  sealingKeys(subjects: readonly string[]): Promise<ReadonlyMap<string, SubjectKey>>;
  /** Deletes every key of the subject, so that nothing left of the store holds them. */
  erase(subject: string): Promise<void>;
  /** Every key there is (`suite replay` copies them with the log). */
  allKeys(): Promise<KeptKey[]>;
  /** Keeps keys made elsewhere (a copy of the log's); a key kept already stays as it is. */
  keep(keys: readonly KeptKey[]): Promise<void>;
  close(): Promise<void>;
}

export type KeptKey = SubjectKey & { subject: string };

export type KeysBySubject = ReadonlyMap<string, ReadonlyMap<string, Buffer>>;

/** Where a key store keeps its keys: the embedded file, or a MongoDB collection. */
export interface KeyRows {
  /** The subjects' keys, each subject's oldest first. */
  of(subjects: readonly string[]): Promise<KeptKey[]>;
  /** Writes the keys durably (a key lost in a crash would be data lost); a key there already stays. */
  insert(keys: readonly KeptKey[], createdAt: string): Promise<void>;
  /** Deletes the subject's keys, leaving no copy in the store's files. */
  erase(subject: string): Promise<void>;
  all(): Promise<KeptKey[]>;
  close(): Promise<void>;
}

const KEY_ID_BYTES = 8;
/** Subjects whose keys a process keeps in memory (about 10 MB); beyond, it forgets them all and starts again. */
const CACHED_SUBJECTS = 50_000;
/**
 * How long a process trusts the keys it remembers: another process's erasure is seen within this
 * while even by a process that does not follow the log (a module's API, whose commands read streams).
 */
const CACHED_MS = 1_000;

/**
 * A key store over its rows. It remembers the keys of the subjects it used for a second, and makes
 * new keys in groups, one at a time: the subjects that lack a key when a group starts get one each,
 * written (and fsynced) together, however many writes asked meanwhile, so that two writes about a new
 * subject never make it two keys in one process. (Two processes may: both keys are kept, and a value
 * sealed under a key this process does not know yet makes it look again.)
 */
export function cachedKeyStore(rows: KeyRows, randomBytes: RandomBytes): SubjectKeyStore {
  const cache = new Map<string, { keys: Map<string, Buffer>; at: number }>();
  let making: Promise<void> = Promise.resolve();
  let waiting: Set<string> | null = null;

  async function keysOf(
    subjects: Iterable<string>,
    { fresh = false } = {},
  ): Promise<Map<string, Map<string, Buffer>>> {
    const now = Date.now();
    const found = new Map<string, Map<string, Buffer>>();
    const missing: string[] = [];
    for (const subject of subjects) {
      const cached = cache.get(subject);
      if (cached && !fresh && now - cached.at < CACHED_MS) found.set(subject, cached.keys);
      else missing.push(subject);
    }
    // Awaited even when everything was remembered: the same turns of the event loop whatever the cache
    // holds, so that concurrent writes interleave the same way (the demo data is the same every time).
    const rowsOfMissing = await rows.of(missing);
    if (missing.length === 0) return found;
    const loaded = new Map(missing.map((subject) => [subject, new Map<string, Buffer>()]));
    for (const { subject, id, key } of rowsOfMissing) loaded.get(subject)?.set(id, key);
    // Forgetting everything at once: evicting one by one from the front of a Map costs more each time.
    if (cache.size + missing.length > CACHED_SUBJECTS) cache.clear();
    for (const [subject, keys] of loaded) {
      cache.set(subject, { keys, at: now });
      found.set(subject, keys);
    }
    return found;
  }

  /** Makes a key for each of the subjects that still has none, with the others waiting now. */
  function makeKeys(subjects: Iterable<string>): Promise<void> {
    if (!waiting) {
      const group = (waiting = new Set<string>());
      making = making.then(async () => {
        waiting = null;
        const known = await keysOf(group, { fresh: true });
        const made: KeptKey[] = [...known]
          .filter(([, keys]) => keys.size === 0)
          .map(([subject]) => ({
            subject,
            id: randomBytes(KEY_ID_BYTES).toString('hex'),
            key: randomBytes(KEY_BYTES),
          }));
        if (made.length === 0) return;
        await rows.insert(made, new Date().toISOString());
        for (const { subject, id, key } of made) known.get(subject)?.set(id, key);
      });
    }
    for (const subject of subjects) waiting.add(subject);
    return making;
  }

  return {
    keysOf,
    async sealingKeys(subjects) {
      let known = await keysOf(new Set(subjects));
      const lacking = [...known].filter(([, keys]) => keys.size === 0).map(([subject]) => subject);
      if (lacking.length > 0) {
        await makeKeys(lacking);
        known = await keysOf(new Set(subjects));
      }
      const sealing = new Map<string, SubjectKey>();
      for (const [subject, keys] of known) {
        const latest = [...keys].at(-1);
        if (!latest) throw new Error(`no key could be made for ${subject}`);
        sealing.set(subject, { id: latest[0], key: latest[1] });
      }
      return sealing;
    },
    async erase(subject) {
      await rows.erase(subject);
      cache.delete(subject);
    },
    allKeys: () => rows.all(),
    async keep(keys) {
      await rows.insert(keys, new Date().toISOString());
      for (const { subject } of keys) cache.delete(subject);
    },
    close: async () => {
      await making.catch(() => undefined);
      await rows.close();
    },
  };
}

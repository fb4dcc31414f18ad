import type { ErasedAs, SubjectKey } from './sealed-value';
import type { HandedOut, SqliteKeyRows } from './sqlite-key-rows';
import type { KeptKey, ToSeal } from './subject-keys';

/**
 * A key as it crosses between threads: its bytes as a latin1 string. A message copies a string as it
 * is, where it copies the whole memory a Buffer views (a small Buffer views a shared 8 KiB pool).
 */
export type WireKey<Key extends SubjectKey = SubjectKey> = Omit<Key, 'key'> & { key: string };

export const toWire = <Key extends SubjectKey>(given: Key): WireKey<Key> => ({
  ...given,
  key: given.key.toString('latin1'),
});

export const fromWire = <Key extends SubjectKey>(wire: WireKey<Key>): Key =>
  ({ ...wire, key: Buffer.from(wire.key, 'latin1') }) as unknown as Key;

/**
 * Values to seal as they cross to the thread: five strings a value (its subject, its key's id and
 * bytes, what it reads once erased, its JSON) in one flat array, which a message copies in a fraction
 * of the time an object a value takes (the names of its fields are copied with each).
 */
export type SealWire = string[];
const WIRE_FIELDS = 5;

/** Adds the values to the wire, after those on it already. */
export function addToSealWire(wire: SealWire, values: readonly ToSeal[]): void {
  for (const { subject, key, erasedAs, value } of values) {
    wire.push(subject, key.id, key.key.toString('latin1'), erasedAs, JSON.stringify(value));
  }
}

/** A value as it crossed to be sealed: its JSON as it was written, not parsed to be written again. */
export interface OnSealWire {
  subject: string;
  key: SubjectKey;
  erasedAs: ErasedAs;
  json: string;
}

export function fromSealWire(wire: SealWire): OnSealWire[] {
  const values: OnSealWire[] = [];
  for (let at = 0; at + WIRE_FIELDS <= wire.length; at += WIRE_FIELDS) {
    const [subject, id, key, erasedAs, json] = wire.slice(at, at + WIRE_FIELDS) as [
      string,
      string,
      string,
      ErasedAs,
      string,
    ];
    values.push({ subject, key: { id, key: Buffer.from(key, 'latin1') }, erasedAs, json });
  }
  return values;
}

/**
 * What the key thread does for a key store: keys.db's writes (and reads of keys by id, answered after
 * them), with keys on the wire. The subjects' keys are read on the event loop.
 */
export interface KeyThreadWork {
  named(keys: readonly { subject: string; id: string }[]): Promise<WireKey<KeptKey>[]>;
  insert(keys: readonly WireKey<KeptKey>[], createdAt: string): Promise<void>;
  /** The handing-outs of a while, written together (only the key ids: the spares' rows hold the keys). */
  assign(handed: readonly HandedOut[]): void;
  erase(subject: string, keyIds: readonly string[]): Promise<void>;
  drop(keyIds: readonly string[]): Promise<void>;
  all(): Promise<WireKey<KeptKey>[]>;
  close(): Promise<void>;
}

/** A call of one of its methods by a key store (its own connection to its file), as it crosses to the thread. */
export type KeyThreadCall = {
  [Method in keyof KeyThreadWork]: {
    id: number;
    store: number;
    file: string;
    method: Method;
    args: Parameters<KeyThreadWork[Method]>;
  };
}[keyof KeyThreadWork];

export type KeyThreadReply = { id: number } & ({ ok: true; value: unknown } | { ok: false; message: string });

/**
 * What crosses to the thread in one message: the calls of a turn of the event loop, and every value
 * the turn's writes asked to seal, whichever key store asked (sealing uses the keys it is given).
 */
export interface KeyThreadMessage {
  calls: KeyThreadCall[];
  sealing: SealWire;
}

/** The thread's answer to a message: its calls' replies, and the values sealed in order (or why none were). */
export interface KeyThreadAnswer {
  replies: KeyThreadReply[];
  sealed: string[] | { failed: string };
}

/** The thread's work over a key store's rows. */
export function keyThreadWork(rows: SqliteKeyRows): KeyThreadWork {
  return {
    named: async (keys) => (await rows.named(keys)).map(toWire),
    insert: (keys, createdAt) => rows.insert(keys.map(fromWire), createdAt),
    assign: (handed) => rows.assignAll(handed),
    erase: (subject, keyIds) => rows.erase(subject, keyIds),
    drop: (keyIds) => rows.drop(keyIds),
    all: async () => (await rows.all()).map(toWire),
    close: () => rows.close(),
  };
}

import type { SubjectKey } from './sealed-value';
import type { HandedOut, SqliteKeyRows } from './sqlite-key-rows';
import type { KeptKey } from './subject-keys';

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
 * What the key thread does for the process: keys.db's writes (and reads of keys by id, answered
 * after them), with keys on the wire. The subjects' keys are read, and values sealed, on the event loop.
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

/** The thread's work over the rows. */
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

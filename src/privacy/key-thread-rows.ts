import type { Worker } from 'node:worker_threads';
import { startThread } from '../threads';
import {
  addToSealWire,
  fromWire,
  toWire,
  type KeyThreadAnswer,
  type KeyThreadCall,
  type KeyThreadMessage,
  type KeyThreadWork,
} from './key-thread-protocol';
import { sqliteKeyReader, type HandedOut } from './sqlite-key-rows';
import type { KeyRows, SealValues, ToSeal } from './subject-keys';

/**
 * How long handing spares to subjects waits to be sent to the thread, with the others of that while:
 * waking the thread costs tens of microseconds on each side, and its commit as much as the rest of
 * the write. Until it is written the spare stays a spare, as after a crash.
 */
const HANDING_OUT_MS = 50;

type Waiting = { resolve(value: unknown): void; reject(error: Error): void };
/** A seal call waiting for its `count` values, which follow those of the calls before it in its message. */
type SealWaiting = { count: number; resolve(sealed: string[]): void; reject(error: Error): void };

/**
 * The process's key thread (`key-thread.ts`), started on first use and kept for every key store the
 * process opens (tests open many). The calls made in one turn of the event loop cross in one message,
 * with every value the turn asked to seal on one wire, and the thread answers them in order. It keeps
 * the process alive only while a call is waiting.
 */
function keyThread() {
  let thread: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, Waiting>();
  let queued: KeyThreadMessage = { calls: [], sealing: [] };
  let queuedSeals: SealWaiting[] = [];
  /** The seal calls of each message sent, oldest first: the thread answers messages in order. */
  const sentSeals: SealWaiting[][] = [];
  let sending = false;

  const anyWaiting = () => waiting.size > 0 || sentSeals.some((sealers) => sealers.length > 0);

  /** Fails the calls waiting for the thread; a thread that failed before (an error, then its exit) has none left. */
  function failAll(failed: Worker, error: Error): void {
    if (thread !== failed) return;
    thread = null;
    const askers = [...waiting.values(), ...sentSeals.splice(0).flat()];
    waiting.clear();
    for (const { reject } of askers) reject(error);
  }

  function answerSeals(sealed: KeyThreadAnswer['sealed']): void {
    const sealers = sentSeals.shift() ?? [];
    let next = 0;
    for (const sealer of sealers) {
      if (Array.isArray(sealed)) sealer.resolve(sealed.slice(next, (next += sealer.count)));
      else sealer.reject(new Error(sealed.failed));
    }
  }

  function start(): Worker {
    const started = startThread(__filename, 'key-thread', undefined);
    started
      .on('message', ({ replies, sealed }: KeyThreadAnswer) => {
        answerSeals(sealed);
        for (const reply of replies) {
          const asker = waiting.get(reply.id);
          waiting.delete(reply.id);
          if (reply.ok) asker?.resolve(reply.value);
          else asker?.reject(new Error(reply.message));
        }
        if (!anyWaiting()) started.unref();
      })
      .on('error', (error) => failAll(started, error))
      .on('exit', (code) => failAll(started, new Error(`The key thread exited with code ${code}`)));
    return started;
  }

  function send(): void {
    sending = false;
    const message = queued;
    sentSeals.push(queuedSeals);
    queued = { calls: [], sealing: [] };
    queuedSeals = [];
    const to = (thread ??= start());
    if (anyWaiting()) to.ref();
    to.postMessage(message);
  }

  /** Sends the turn's message once the turn is over (with what the rest of the turn asks). */
  function sendAfterTurn(): void {
    if (sending) return;
    sending = true;
    setImmediate(send);
  }

  /** Asks the thread; `waiter` is answered (a call without one, when the thread fails, is lost). */
  function ask(call: Omit<KeyThreadCall, 'id'>, waiter?: Waiting): void {
    const id = nextId++;
    if (waiter) waiting.set(id, waiter);
    queued.calls.push({ ...call, id } as KeyThreadCall);
    sendAfterTurn();
  }

  /** Seals the values on the thread, with the others asked this turn. */
  function seal(values: readonly ToSeal[]): Promise<string[]> {
    if (values.length === 0) return Promise.resolve([]);
    addToSealWire(queued.sealing, values);
    sendAfterTurn();
    return new Promise((resolve, reject) => queuedSeals.push({ count: values.length, resolve, reject }));
  }

  function call<Method extends keyof KeyThreadWork>(
    store: { store: number; file: string },
    method: Method,
    args: Parameters<KeyThreadWork[Method]>,
  ): Promise<Awaited<ReturnType<KeyThreadWork[Method]>>> {
    return new Promise((resolve, reject) =>
      ask({ ...store, method, args } as Omit<KeyThreadCall, 'id'>, {
        resolve: resolve as (value: unknown) => void,
        reject,
      }),
    );
  }

  return { ask, call, seal };
}

let processThread: ReturnType<typeof keyThread> | undefined;
let storesOpened = 0;

/**
 * keys.db's rows and the sealing of values: keys.db's writes and AES-GCM's work done by the process's
 * key thread, off the event loop; the subjects' keys read here (`sqliteKeyReader`). Handing-outs are
 * gathered here and sent together, HANDING_OUT_MS after the first of them, or before any other call
 * about the rows: an erasure follows every handing-out asked before it.
 */
export function keyThreadRows(file: string): KeyRows & { seal: SealValues } {
  const thread = (processThread ??= keyThread());
  const store = { store: storesOpened++, file };
  // A store that asked nothing has nothing open in the thread to close (nor a thread to start for it).
  let used = false;
  let reader: ReturnType<typeof sqliteKeyReader> | undefined;
  let handedOut: HandedOut[] = [];
  let sending: NodeJS.Timeout | undefined;

  /** Asks the thread to write the handing-outs gathered so far (answered by nothing: nothing waits for them). */
  function sendHandedOut(): void {
    clearTimeout(sending);
    sending = undefined;
    if (handedOut.length === 0) return;
    thread.ask({ ...store, method: 'assign', args: [handedOut] });
    handedOut = [];
  }
  const call = <Method extends keyof KeyThreadWork>(
    method: Method,
    args: Parameters<KeyThreadWork[Method]>,
  ) => {
    used = true;
    sendHandedOut();
    return thread.call(store, method, args);
  };
  return {
    of: async (subjects) => (subjects.length === 0 ? [] : (reader ??= sqliteKeyReader(file)).of(subjects)),
    erasedAmong: async (subjects) =>
      subjects.length === 0 ? [] : (reader ??= sqliteKeyReader(file)).erasedAmong(subjects),
    named: async (keys) => (await call('named', [keys])).map(fromWire),
    insert: (keys, createdAt) => call('insert', [keys.map(toWire), createdAt]),
    assign(subject, { id }, at) {
      used = true;
      handedOut.push({ subject, id, at });
      sending ??= setTimeout(sendHandedOut, HANDING_OUT_MS).unref();
    },
    erase: (subject, keyIds) => call('erase', [subject, keyIds]),
    drop: (keyIds) => call('drop', [keyIds]),
    all: async () => (await call('all', [])).map(fromWire),
    // Sealing comes after nothing: it uses keys in hand, written or not.
    seal: thread.seal,
    close: async () => {
      reader?.close();
      if (used) await call('close', []);
    },
  };
}

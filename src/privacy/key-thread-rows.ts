import type { Worker } from 'node:worker_threads';
import { startThread } from '../threads';
import {
  fromWire,
  toWire,
  type KeyThreadCall,
  type KeyThreadReply,
  type KeyThreadWork,
} from './key-thread-protocol';
import { sqliteKeyReader } from './sqlite-key-rows';
import type { KeyRows, SealValues } from './subject-keys';

type Waiting = { resolve(value: unknown): void; reject(error: Error): void };

/**
 * The process's key thread (`key-thread.ts`), started on first use and kept for every key store the
 * process opens (tests open many). The calls made in one turn of the event loop cross in one message,
 * and the thread answers them in order. It keeps the process alive only while a call is waiting.
 */
function keyThread() {
  let thread: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, Waiting>();
  let queued: KeyThreadCall[] = [];

  /** Fails the calls waiting for the thread; a thread that failed before (an error, then its exit) has none left. */
  function failAll(failed: Worker, error: Error): void {
    if (thread !== failed) return;
    thread = null;
    const askers = [...waiting.values()];
    waiting.clear();
    for (const { reject } of askers) reject(error);
  }

  function start(): Worker {
    const started = startThread(__filename, 'key-thread', undefined);
    started
      .on('message', (replies: KeyThreadReply[]) => {
        for (const reply of replies) {
          const asker = waiting.get(reply.id);
          waiting.delete(reply.id);
          if (reply.ok) asker?.resolve(reply.value);
          else asker?.reject(new Error(reply.message));
        }
        if (waiting.size === 0) started.unref();
      })
      .on('error', (error) => failAll(started, error))
      .on('exit', (code) => failAll(started, new Error(`The key thread exited with code ${code}`)));
    return started;
  }

  function send(): void {
    const calls = queued;
    queued = [];
    const to = (thread ??= start());
    if (waiting.size > 0) to.ref();
    to.postMessage(calls);
  }

  /** Asks the thread; `waiter` is answered (a call without one, when the thread fails, is lost). */
  function ask(call: Omit<KeyThreadCall, 'id'>, waiter?: Waiting): void {
    const id = nextId++;
    if (waiter) waiting.set(id, waiter);
    if (queued.push({ ...call, id } as KeyThreadCall) === 1) setImmediate(send);
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

  return { ask, call };
}

let processThread: ReturnType<typeof keyThread> | undefined;
let storesOpened = 0;

/**
 * keys.db's rows and the sealing of values: keys.db's writes and AES-GCM's work done by the process's
 * key thread, off the event loop; the subjects' keys read here (`sqliteKeyReader`). An erasure follows
 * every handing-out asked before it.
 */
export function keyThreadRows(file: string): KeyRows & { seal: SealValues } {
  const thread = (processThread ??= keyThread());
  const store = { store: storesOpened++, file };
  // A store that asked nothing has nothing open in the thread to close (nor a thread to start for it).
  let used = false;
  let reader: ReturnType<typeof sqliteKeyReader> | undefined;
  const call = <Method extends keyof KeyThreadWork>(
    method: Method,
    args: Parameters<KeyThreadWork[Method]>,
  ) => {
    used = true;
    return thread.call(store, method, args);
  };
  return {
    of: async (subjects) => (subjects.length === 0 ? [] : (reader ??= sqliteKeyReader(file)).of(subjects)),
    spares: async (keyIds) => (await call('spares', [keyIds])).map(fromWire),
    insert: (keys, createdAt) => call('insert', [keys.map(toWire), createdAt]),
    // Answered by nothing: the thread writes it later, after any call asked before it.
    assign(subject, key, at) {
      used = true;
      thread.ask({ ...store, method: 'assign', args: [subject, toWire(key), at] });
    },
    erase: (subject, keyIds) => call('erase', [subject, keyIds]),
    drop: (keyIds) => call('drop', [keyIds]),
    all: async () => (await call('all', [])).map(fromWire),
    seal: (values) => call('seal', [values.map((value) => ({ ...value, key: toWire(value.key) }))]),
    close: async () => {
      reader?.close();
      if (used) await call('close', []);
    },
  };
}

import { randomBytes } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import {
  fromSealWire,
  keyThreadWork,
  type KeyThreadAnswer,
  type KeyThreadCall,
  type KeyThreadMessage,
  type KeyThreadReply,
  type KeyThreadWork,
} from './key-thread-protocol';
import { sqliteKeyRows } from './sqlite-key-rows';
import { IV_SIZE, sealJson } from './sealed-value';
import { drawnInBulk } from './subject-keys';

/** The work on a key file, or why it could not be opened: each call is answered with that. */
function openWork(file: string): KeyThreadWork | Error {
  try {
    return keyThreadWork(sqliteKeyRows(file));
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The work of each key store of the process, opened on its first call. */
const opened = new Map<number, KeyThreadWork | Error>();
/** IVs for the values sealed here, drawn from the system's generator many at a time. */
const ivs = drawnInBulk(randomBytes);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function answer({ store, file, method, args }: KeyThreadCall): Promise<unknown> {
  let work = opened.get(store);
  if (!work) opened.set(store, (work = openWork(file)));
  if (method === 'close') opened.delete(store);
  if (work instanceof Error) {
    if (method === 'close') return undefined;
    throw work;
  }
  return (work[method] as (...given: typeof args) => unknown)(...args);
}

function sealAll(sealing: KeyThreadMessage['sealing']): KeyThreadAnswer['sealed'] {
  try {
    return fromSealWire(sealing).map(({ json, subject, key, erasedAs }) =>
      sealJson(json, subject, key, erasedAs, ivs(IV_SIZE)),
    );
  } catch (error) {
    return { failed: messageOf(error) };
  }
}

// A message's values sealed first (writes wait for them), then its calls in order, each done before
// the next: the rows answer without waiting on anything, so no later message is taken in between either.
parentPort?.on('message', async ({ calls, sealing }: KeyThreadMessage) => {
  const sealed = sealAll(sealing);
  const replies: KeyThreadReply[] = [];
  for (const call of calls) {
    try {
      replies.push({ id: call.id, ok: true, value: await answer(call) });
    } catch (error) {
      replies.push({ id: call.id, ok: false, message: messageOf(error) });
    }
  }
  parentPort?.postMessage({ replies, sealed } satisfies KeyThreadAnswer);
});

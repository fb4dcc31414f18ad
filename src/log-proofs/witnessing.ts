import type { Logger } from 'pino';
import { checkCosignature } from './cosignature';
import { consistencyProof } from './merkle';
import { treeReader, type KeptCheckpoint, type TreeStore } from './tree-store';

/** A witness the suite sends its checkpoints to (SUITE_WITNESSES): where, and the key it cosigns with. */
export interface WitnessConfig {
  url: string;
  /** `<name>+<key id>+base64(0x04 ‖ public key)`. */
  key: string;
}

/** What the suite knows of a witness, as health reports it. */
export interface WitnessState {
  url: string;
  key: string;
  /** `pending` until it was first asked; `down`: it did not answer; `refused`: it answered, not a cosignature. */
  status: 'pending' | 'ok' | 'down' | 'refused';
  /** The size of the latest checkpoint it cosigned for the suite, as far as the suite knows. */
  cosigned_size: number | null;
  error?: string;
}

export interface Witnessing {
  /** Sends a new checkpoint to every witness, in the background: nothing waits for them. */
  submit(checkpoint: KeptCheckpoint): void;
  states(): WitnessState[];
  stop(): Promise<void>;
}

/** A witness that does not answer within this is down for this checkpoint. */
const ANSWER_MS = 5_000;
/** How often a witness that has not cosigned the latest checkpoint is asked again. */
export const RETRY_MS = 10_000;
/** The most of a witness's answer read, and quoted in an error. */
const ANSWER_BYTES = 16 * 1024;
const QUOTED = 200;

export interface WitnessingOptions {
  store: TreeStore;
  witnesses: readonly WitnessConfig[];
  logger: Logger;
  fetch?: typeof globalThis.fetch;
  retryMs?: number;
}

/** The add-checkpoint body (C2SP tlog-witness): `old <size>`, the proof's hashes, a blank line, the note. */
export function addCheckpointBody(old: number, proof: readonly Buffer[], note: string): string {
  return `old ${old}\n${proof.map((hash) => `${hash.toString('base64')}\n`).join('')}\n${note}`;
}

/**
 * Gathers the witnesses' cosignatures (C2SP tlog-witness, tlog-cosignature) onto the checkpoints the
 * suite signs: each witness is sent the latest, with a consistency proof from the size it last
 * cosigned (learnt from its 409 when unknown), and the cosignature line it answers is kept with the
 * checkpoint once it verifies with the witness's key. One request per witness at a time; a witness
 * that is down is asked again every `retryMs`, with the latest checkpoint.
 */
export function witnessing({
  store,
  witnesses,
  logger,
  fetch = globalThis.fetch,
  retryMs = RETRY_MS,
}: WitnessingOptions): Witnessing {
  const states: WitnessState[] = witnesses.map(({ url, key }) => ({
    url,
    key,
    status: 'pending',
    cosigned_size: null,
  }));
  /** The size each witness last cosigned, as its answers told; undefined until one did. */
  const known = new Map<WitnessState, number>();
  const busy = new Set<WitnessState>();
  const stopping = new AbortController();
  let latest = store.latestCheckpoint();

  function keep(state: WitnessState, checkpoint: KeptCheckpoint, line: string): void {
    const kept = store.checkpointOfSize(checkpoint.size);
    if (!kept) return;
    const others = kept.cosignatures
      .split(/(?<=\n)/)
      .filter((other) => other !== '' && checkCosignature(kept.note + other, state.key).status === 'absent');
    store.keepCosignatures(checkpoint.size, [...others, line].join(''));
  }

  async function ask(state: WitnessState, checkpoint: KeptCheckpoint, old: number) {
    const proof =
      old > 0 && old < checkpoint.size ? consistencyProof(old, checkpoint.size, treeReader(store)) : [];
    const response = await fetch(
      new URL('add-checkpoint', state.url.endsWith('/') ? state.url : `${state.url}/`),
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: addCheckpointBody(old, proof, checkpoint.note),
        signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(ANSWER_MS)]),
      },
    );
    const text = (await response.text()).slice(0, ANSWER_BYTES);
    return { status: response.status, type: response.headers.get('content-type') ?? '', text };
  }

  /** Asks one witness to cosign `checkpoint`: once, or twice when its 409 tells the size it holds. */
  async function cosign(state: WitnessState, checkpoint: KeptCheckpoint): Promise<void> {
    let old = known.get(state) ?? 0;
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await ask(state, checkpoint, old);
      if (answer.status === 200) {
        const line = answer.text
          .split(/(?<=\n)/)
          .find((candidate) => checkCosignature(checkpoint.note + candidate, state.key).status === 'valid');
        if (!line) return refused(state, 'its answer holds no valid cosignature by its key');
        keep(state, checkpoint, line);
        known.set(state, checkpoint.size);
        Object.assign(state, { status: 'ok', cosigned_size: checkpoint.size, error: undefined });
        return;
      }
      const size = answer.type.startsWith('text/x.tlog.size') ? /^(0|[1-9]\d*)\n$/.exec(answer.text) : null;
      if (answer.status === 409 && size && Number(size[1]) !== old && Number(size[1]) <= checkpoint.size) {
        old = Number(size[1]);
        known.set(state, old);
        if (old > 0) state.cosigned_size = old;
        continue;
      }
      return refused(state, `${answer.status}: ${answer.text.slice(0, QUOTED).trim()}`);
    }
  }

  function refused(state: WitnessState, error: string): void {
    if (state.status !== 'refused' || state.error !== error) {
      logger.warn({ witness: state.url, error }, 'a witness refused to cosign the checkpoint');
    }
    Object.assign(state, { status: 'refused', error });
  }

  async function send(state: WitnessState): Promise<void> {
    if (busy.has(state)) return;
    busy.add(state);
    try {
      for (let checkpoint = latest; checkpoint && state.cosigned_size !== checkpoint.size;) {
        try {
          await cosign(state, checkpoint);
        } catch (error) {
          if (stopping.signal.aborted) return;
          if (state.status !== 'down') logger.warn({ witness: state.url, err: error }, 'a witness is down');
          Object.assign(state, {
            status: 'down',
            error: error instanceof Error ? error.message : String(error),
          });
        }
        if (state.status !== 'ok' || latest === checkpoint) return;
        checkpoint = latest;
      }
    } finally {
      busy.delete(state);
    }
  }

  const sendAll = () => {
    for (const state of states) void send(state);
  };
  const retrying = setInterval(sendAll, retryMs);
  retrying.unref();
  sendAll();

  return {
    submit(checkpoint) {
      latest = checkpoint;
      sendAll();
    },
    states: () => states.map((state) => ({ ...state })),
    async stop() {
      clearInterval(retrying);
      stopping.abort();
    },
  };
}

import type { Worker } from 'node:worker_threads';
import { startThread } from '../threads';
import { CheckpointConflict, type CheckpointMove } from './read-store';
import type { CommitVocabulary, SerializedChange } from './sqlite-document-writer';
import type { WriteMessage, WriteReply } from './sqlite-writer-thread';

/** How long the thread waits for the next large commit before it ends (it starts again on demand). */
const IDLE_MS = 1_000;

export interface WriterThread {
  /** Writes in the thread, one commit after the other; resolves once committed. */
  write(
    changes: SerializedChange[],
    checkpoints: Map<string, CheckpointMove>,
    vocabulary: CommitVocabulary,
  ): Promise<void>;
  close(): Promise<void>;
}

function replyError(reply: WriteReply): Error | null {
  if (reply.ok) return null;
  return reply.conflict === undefined ? new Error(reply.message) : new CheckpointConflict(reply.conflict);
}

/**
 * The read store's writer thread (`sqlite-writer-thread.ts`), started on first use. It keeps the
 * process alive only while a commit is in flight.
 */
export function writerThread(file: string): WriterThread {
  let worker: Worker | null = null;
  let previous: Promise<unknown> = Promise.resolve();
  let idle: NodeJS.Timeout | null = null;

  /** Ends an idle thread: a catch-up's large commits leave its heap grown, and it holds on to it. */
  function endWhenIdle(thread: Worker): void {
    idle = setTimeout(() => {
      if (worker !== thread) return;
      worker = null;
      void thread.terminate();
    }, IDLE_MS);
    idle.unref();
  }

  function start(): Worker {
    const started = startThread(__filename, 'sqlite-writer-thread', { file });
    started.unref();
    return started;
  }

  function send(message: WriteMessage): Promise<void> {
    if (idle) clearTimeout(idle);
    const thread = (worker ??= start());
    thread.ref();
    return new Promise((resolve, reject) => {
      const settle = (error: Error | null) => {
        thread.off('message', onReply).off('error', onError).off('exit', onExit).unref();
        endWhenIdle(thread);
        if (error) reject(error);
        else resolve();
      };
      const onReply = (reply: WriteReply) => settle(replyError(reply));
      const onError = (error: Error) => {
        worker = null;
        settle(error);
      };
      const onExit = (code: number) => {
        worker = null;
        settle(new Error(`The read store's writer thread exited with code ${code}`));
      };
      thread.on('message', onReply).on('error', onError).on('exit', onExit);
      thread.postMessage(message);
    });
  }

  return {
    write(changes, checkpoints, vocabulary) {
      const written = previous.then(() => send({ changes, checkpoints, vocabulary }));
      previous = written.catch(() => undefined);
      return written;
    },
    async close() {
      await previous;
      await worker?.terminate();
      worker = null;
    },
  };
}

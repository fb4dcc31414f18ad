import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { CheckpointConflict, type CheckpointMove } from './read-store';
import { documentWriter, type CommitVocabulary, type SerializedChange } from './sqlite-document-writer';

/** The read store's writer thread: its own connection, writing the large commits the store sends it. */
export interface WriteMessage {
  changes: SerializedChange[];
  checkpoints: Map<string, CheckpointMove>;
  vocabulary: CommitVocabulary;
}

/** `conflict`: the checkpoint a `CheckpointConflict` names, which the store throws again. */
export type WriteReply = { ok: true } | { ok: false; message: string; conflict?: string };

const db = new Database((workerData as { file: string }).file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
// As the store's own connection: nothing replaced is left readable in the file (an erasure's subject).
db.pragma('secure_delete = ON');
const write = documentWriter(db);

parentPort?.on('message', ({ changes, checkpoints, vocabulary }: WriteMessage) => {
  let reply: WriteReply = { ok: true };
  try {
    write(changes, checkpoints, vocabulary);
  } catch (error) {
    const conflict = error instanceof CheckpointConflict ? error.checkpoint : undefined;
    reply = { ok: false, message: error instanceof Error ? error.message : String(error), conflict };
  }
  parentPort?.postMessage(reply);
});

import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files';

/**
 * What a witness keeps on disk: per log (by origin), the latest checkpoint it cosigned, and every
 * refusal that may be a log's misbehaviour, with the checkpoints it is about, as evidence.
 */
export interface WitnessState {
  /** The latest checkpoint cosigned for the origin (the signed note as received), if any. */
  latest(origin: string): string | undefined;
  /** Records `note` as the latest cosigned for its origin, durably, before the cosignature is answered. */
  keep(origin: string, note: string): void;
  /** Keeps the evidence of a refusal: the file it is written to. */
  keepEvidence(evidence: RefusalEvidence): string;
}

export interface RefusalEvidence {
  origin: string;
  /** When it was refused (RFC 3339). */
  at: string;
  reason: string;
  /** The checkpoint the witness had cosigned. */
  cosigned: string | undefined;
  /** The request refused, whole: old size, proof and the submitted checkpoint. */
  submitted: string;
}

const fileName = (origin: string) => createHash('sha256').update(origin).digest('hex').slice(0, 32);

/** Writes a file whole: a copy flushed, then renamed over the old one, so a crash leaves one or the other. */
function writeWhole(file: string, text: string): void {
  const written = `${file}.new`;
  const fd = openSync(written, 'w', PRIVATE_FILE);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(written, file);
  const directory = openSync(path.dirname(file), 'r');
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
}

/**
 * The state in a directory: `cosigned/<hash of the origin>` holds the latest cosigned note of each
 * log, `refused/<origin hash>-<hash of the pair>.txt` the evidence of each refusal, once per pair of
 * checkpoints (the first time it was refused). Read and written synchronously, so
 * one process checks and updates a log's state atomically (C2SP tlog-witness asks for it).
 */
export function fileWitnessState(dir: string): WitnessState {
  const cosigned = path.join(dir, 'cosigned');
  const refused = path.join(dir, 'refused');
  for (const sub of [dir, cosigned, refused]) mkdirSync(sub, { recursive: true, mode: PRIVATE_DIR });
  return {
    latest(origin) {
      try {
        return readFileSync(path.join(cosigned, fileName(origin)), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    keep(origin, note) {
      writeWhole(path.join(cosigned, fileName(origin)), note);
    },
    keepEvidence({ origin, at, reason, cosigned: held, submitted }) {
      // One file per pair of checkpoints: the same request refused again adds nothing.
      const pair = createHash('sha256').update(`${held}\n${submitted}`).digest('hex').slice(0, 16);
      const file = path.join(refused, `${fileName(origin).slice(0, 8)}-${pair}.txt`);
      if (existsSync(file)) return file;
      const text =
        `origin: ${origin}\nrefused at: ${at}\nreason: ${reason}\n\n` +
        `--- the checkpoint cosigned before ---\n${held ?? '(none)\n'}\n` +
        `--- the request refused ---\n${submitted}`;
      writeWhole(file, text);
      return file;
    },
  };
}

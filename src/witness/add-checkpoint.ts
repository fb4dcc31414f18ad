import { isoTimestamp } from '../clock';
import { decodeBase64 } from '../log-proofs/base64';
import { noteText, parseCheckpoint, type Checkpoint } from '../log-proofs/checkpoint';
import type { Cosigner } from '../log-proofs/cosignature';
import { verifyConsistency } from '../log-proofs/merkle';
import { NoteError, openNote } from '../log-proofs/note';
import type { WitnessState } from './witness-state';

/** What the witness answers: a status and a text of a media type. */
export interface WitnessAnswer {
  status: number;
  mediaType: string;
  text: string;
}

export interface Witness {
  /** The verifier keys the witness trusts, by the origin of the log they sign. */
  logs: ReadonlyMap<string, readonly string[]>;
  cosigner: Cosigner;
  state: WitnessState;
  now(): Date;
}

/** C2SP tlog-witness: at most this many consistency proof lines. */
const MAX_PROOF_LINES = 63;

const plain = (status: number, text: string): WitnessAnswer => ({
  status,
  mediaType: 'text/plain; charset=utf-8',
  text: `${text}\n`,
});

/** 409 with the size of the latest checkpoint cosigned, as `text/x.tlog.size`. */
const conflict = (size: number): WitnessAnswer => ({
  status: 409,
  mediaType: 'text/x.tlog.size',
  text: `${size}\n`,
});

type Request = { old: number; proof: Buffer[]; note: string; checkpoint: Checkpoint };

/** The request body taken apart: `old <size>`, up to 63 base64 hashes, a blank line, a checkpoint note. */
function parseRequest(body: string): Request | string {
  const lines = body.split('\n');
  const sizeLine = /^old (0|[1-9]\d*)$/.exec(lines[0] ?? '');
  const old = Number(sizeLine?.[1]);
  if (!sizeLine || !Number.isSafeInteger(old))
    return 'the first line must be "old <size>", in decimal without leading zeros';
  const blank = lines.indexOf('', 1);
  if (blank < 0) return 'no blank line between the proof and the checkpoint';
  const proofLines = lines.slice(1, blank);
  if (proofLines.length > MAX_PROOF_LINES) return `more than ${MAX_PROOF_LINES} consistency proof lines`;
  const proof = proofLines.map((line) => decodeBase64(line));
  if (proof.some((hash) => hash?.length !== 32))
    return 'a consistency proof line is not a base64 SHA-256 hash';
  const note = lines.slice(blank + 1).join('\n');
  try {
    return { old, proof: proof as Buffer[], note, checkpoint: parseCheckpoint(noteText(note)) };
  } catch (error) {
    return error instanceof NoteError ? `the checkpoint: ${error.message}` : String(error);
  }
}

/** Whether one of the keys signed the note (signatures of other keys are ignored). */
function signedByOneOf(note: string, keys: readonly string[]): boolean {
  return keys.some((key) => {
    try {
      openNote(note, key);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * `POST /add-checkpoint` (c2sp.org/tlog-witness): cosigns a checkpoint of a log it knows, signed by
 * that log's key, once it is proven consistent with the latest it cosigned for that log; answers the
 * cosignature line. A checkpoint that forks the log (another root at the same size, or a proof that
 * fails) is refused, and both checkpoints are kept as evidence. Synchronous from the check to the
 * state kept, so two requests cannot both pass on the same old size.
 */
export function addCheckpoint(witness: Witness, body: string): WitnessAnswer {
  const request = parseRequest(body);
  if (typeof request === 'string') return plain(400, `malformed request: ${request}`);
  const { old, proof, note, checkpoint } = request;
  const keys = witness.logs.get(checkpoint.origin);
  if (!keys) return plain(404, `unknown log: ${checkpoint.origin}`);
  if (!signedByOneOf(note, keys)) return plain(403, `no valid signature by a key of ${checkpoint.origin}`);
  if (old > checkpoint.size)
    return plain(400, `the old size ${old} is larger than the checkpoint's ${checkpoint.size}`);
  const cosigned = witness.state.latest(checkpoint.origin);
  const held = cosigned === undefined ? undefined : parseCheckpoint(noteText(cosigned));
  const heldSize = held?.size ?? 0;
  if (old !== heldSize) return conflict(heldSize);
  if (old === 0 && proof.length > 0) return plain(400, 'a consistency proof from size 0 must be empty');
  const refuse = (answer: WitnessAnswer, reason: string) => {
    witness.state.keepEvidence({
      origin: checkpoint.origin,
      at: isoTimestamp(witness.now()),
      reason,
      cosigned,
      submitted: body,
    });
    return answer;
  };
  if (held && old === checkpoint.size && !held.root.equals(checkpoint.root)) {
    return refuse(conflict(heldSize), `a root at size ${old} other than the one cosigned: a fork`);
  }
  if (
    held &&
    old < checkpoint.size &&
    !verifyConsistency(old, checkpoint.size, held.root, checkpoint.root, proof)
  ) {
    return refuse(
      plain(422, `the consistency proof from ${old} to ${checkpoint.size} does not verify`),
      `the consistency proof from ${old} to ${checkpoint.size} does not verify: a fork, or a wrong proof`,
    );
  }
  witness.state.keep(checkpoint.origin, note);
  const timestamp = Math.floor(witness.now().getTime() / 1000);
  return plain(200, witness.cosigner.cosign(noteText(note), timestamp).trimEnd());
}

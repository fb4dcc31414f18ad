import { decodeBase64 } from './base64';
import { NoteError } from './note';

/** The head of the log's Merkle tree at one size, the text of a signed note (c2sp.org/tlog-checkpoint). */
export interface Checkpoint {
  /** The log's name, the first line. */
  origin: string;
  /** Leaves (events) in the tree. */
  size: number;
  /** The tree's 32-byte root hash (RFC 9162). */
  root: Buffer;
}

/** `<origin>\n<size>\n<base64 root>\n`; throws for what `parseCheckpoint` would refuse. */
export function checkpointText({ origin, size, root }: Checkpoint): string {
  const text = `${origin}\n${size}\n${root.toString('base64')}\n`;
  parseCheckpoint(text);
  return text;
}

/**
 * The checkpoint a note text holds. Extension lines, which the spec allows after the root, are refused:
 * the suite writes none, so a checkpoint with some is not the suite's.
 */
export function parseCheckpoint(text: string): Checkpoint {
  const lines = text.split('\n');
  if (lines.length !== 4 || lines[3] !== '') {
    throw new NoteError('not a checkpoint: three lines (origin, size, root hash), each ending in a newline');
  }
  const [origin = '', sizeLine = '', rootLine = ''] = lines;
  const size = Number(sizeLine);
  const root = decodeBase64(rootLine);
  if (origin === '') throw new NoteError('not a checkpoint: an empty origin');
  if (!/^(0|[1-9]\d*)$/.test(sizeLine) || !Number.isSafeInteger(size)) {
    throw new NoteError('not a checkpoint: the size is not a whole number without leading zeros');
  }
  if (root?.length !== 32) throw new NoteError('not a checkpoint: the root hash is not 32 bytes in base64');
  return { origin, size, root };
}

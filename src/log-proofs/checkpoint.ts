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
  /** The lines after the root, each non-empty: opaque to clients that do not know them. */
  extensions?: readonly string[];
}

/**
 * The extension line that says when the suite signed a checkpoint: `suite.local/log time <RFC 3339>`.
 * Its key names the suite's extension, not the log, so it is the same whatever the origin.
 */
export const timeExtension = (time: string): string => `suite.local/log time ${time}`;

/** `<origin>\n<size>\n<base64 root>\n`, then each extension line; throws for what `parseCheckpoint` would refuse. */
export function checkpointText({ origin, size, root, extensions = [] }: Checkpoint): string {
  const text = [origin, String(size), root.toString('base64'), ...extensions, ''].join('\n');
  parseCheckpoint(text);
  return text;
}

/** The checkpoint a note text holds: three lines (origin, size, root), then any extension lines. */
export function parseCheckpoint(text: string): Checkpoint {
  const lines = text.split('\n');
  if (lines.length < 4 || lines.at(-1) !== '') {
    throw new NoteError('not a checkpoint: three lines (origin, size, root hash), each ending in a newline');
  }
  const [origin = '', sizeLine = '', rootLine = '', ...rest] = lines;
  const extensions = rest.slice(0, -1);
  const size = Number(sizeLine);
  const root = decodeBase64(rootLine);
  if (origin === '') throw new NoteError('not a checkpoint: an empty origin');
  if (!/^(0|[1-9]\d*)$/.test(sizeLine) || !Number.isSafeInteger(size)) {
    throw new NoteError('not a checkpoint: the size is not a whole number without leading zeros');
  }
  if (root?.length !== 32) throw new NoteError('not a checkpoint: the root hash is not 32 bytes in base64');
  if (extensions.includes('')) throw new NoteError('not a checkpoint: an empty extension line');
  return extensions.length === 0 ? { origin, size, root } : { origin, size, root, extensions };
}

/** The text of a signed note: everything up to the blank line before its signatures. */
export function noteText(signedNote: string): string {
  return signedNote.slice(0, signedNote.indexOf('\n\n') + 1);
}

/**
 * Signed checkpoints (c2sp.org/tlog-checkpoint) and the RFC 9162 §2.1.4.2 consistency check, run in the
 * browser so that an auditor need not trust the server's word that the log extends what they kept.
 */
export interface Checkpoint {
  origin: string;
  size: number;
  root: Uint8Array;
}

/** The checkpoint a signed note holds: its text is the note up to the blank line before the signatures. */
export function parseCheckpoint(note: string): Checkpoint {
  const text = note.replace(/\r\n?/g, '\n').trim();
  const [body = ''] = text.split('\n\n');
  const [origin = '', sizeLine = '', rootLine = ''] = body.split('\n');
  if (origin === '' || !/^(0|[1-9]\d*)$/.test(sizeLine)) {
    throw new Error('Not a checkpoint: it starts with the log name, then the tree size on its own line');
  }
  let root: Uint8Array;
  try {
    root = Uint8Array.from(atob(rootLine), (char) => char.charCodeAt(0));
  } catch {
    throw new Error('Not a checkpoint: the third line is not a base64 root hash');
  }
  if (root.length !== 32) throw new Error('Not a checkpoint: the root hash is not 32 bytes');
  return { origin, size: Number(sizeLine), root };
}

export const fromHex = (hex: string): Uint8Array =>
  Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** SHA-256(0x01 || left || right): an inner node of the tree. */
async function nodeHash(left: Uint8Array, right: Uint8Array): Promise<Uint8Array> {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 1;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', input));
}

const isOdd = (value: number) => value % 2 === 1;
const half = (value: number) => Math.floor(value / 2);

function isPowerOfTwo(value: number): boolean {
  while (value > 1 && !isOdd(value)) value = half(value);
  return value === 1;
}

/** Whether `proof` shows the tree of `to` leaves (root `newRoot`) extends the tree of `from` leaves (`oldRoot`). */
export async function verifyConsistency(
  from: number,
  to: number,
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
  proof: readonly Uint8Array[],
): Promise<boolean> {
  if (from < 1 || from > to) return false;
  if (from === to) return proof.length === 0 && equal(oldRoot, newRoot);
  if (proof.length === 0) return false;
  // The old root is left out of the proof when the old tree is a complete subtree of the new one.
  const [first, ...rest] = isPowerOfTwo(from) ? [oldRoot, ...proof] : proof;
  let fn = from - 1;
  let sn = to - 1;
  while (isOdd(fn)) [fn, sn] = [half(fn), half(sn)];
  let fr = first as Uint8Array;
  let sr = fr;
  for (const c of rest) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = await nodeHash(c, fr);
      sr = await nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      sr = await nodeHash(sr, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && equal(fr, oldRoot) && equal(sr, newRoot);
}

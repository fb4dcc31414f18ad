import { createHash } from 'node:crypto';

/**
 * An independent RFC 9162 Merkle tree for tests: the tree hash, audit path and consistency proof are
 * the RFC's recursive definitions over the list of leaf inputs (§2.1.1, §2.1.3.1, §2.1.4.1), and the
 * verifiers rebuild the roots a proof leads to by the same recursion. It shares no code with
 * src/log-proofs, so each can check the other. Slow by design: every subtree is hashed from its leaves.
 */

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

export const leafHash = (input: Buffer) => sha256(Buffer.of(0x00), input);
const nodeHash = (left: Buffer, right: Buffer) => sha256(Buffer.of(0x01), left, right);

/** The largest power of two smaller than n (n > 1): where the RFC splits a list of n leaves. */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]), §2.1.1. */
export function mth(leafInputs: Buffer[]): Buffer {
  const [first] = leafInputs;
  if (first === undefined) return sha256();
  if (leafInputs.length === 1) return leafHash(first);
  const k = split(leafInputs.length);
  return nodeHash(mth(leafInputs.slice(0, k)), mth(leafInputs.slice(k)));
}

/** PATH(m, D[n]), §2.1.3.1: the inclusion proof of leaf m. */
export function path(m: number, leafInputs: Buffer[]): Buffer[] {
  const n = leafInputs.length;
  if (!Number.isInteger(m) || m < 0 || m >= n) throw new RangeError(`PATH(${m}, D[${n}]) is not defined`);
  if (n === 1) return [];
  const k = split(n);
  const [left, right] = [leafInputs.slice(0, k), leafInputs.slice(k)];
  return m < k ? [...path(m, left), mth(right)] : [...path(m - k, right), mth(left)];
}

/** PROOF(m, D[n]), §2.1.4.1: the consistency proof from the first m leaves to all n. */
export function proof(m: number, leafInputs: Buffer[]): Buffer[] {
  const n = leafInputs.length;
  if (!Number.isInteger(m) || m < 1 || m > n) throw new RangeError(`PROOF(${m}, D[${n}]) is not defined`);
  return subproof(m, leafInputs, true);
}

function subproof(m: number, leafInputs: Buffer[], b: boolean): Buffer[] {
  if (m === leafInputs.length) return b ? [] : [mth(leafInputs)];
  const k = split(leafInputs.length);
  const [left, right] = [leafInputs.slice(0, k), leafInputs.slice(k)];
  return m <= k ? [...subproof(m, left, b), mth(right)] : [...subproof(m - k, right, false), mth(left)];
}

const isSize = (value: number) => Number.isSafeInteger(value) && value >= 0;

/** Whether `hashes` is PATH(index, D[size]) for a leaf whose hash is `leaf`, in the tree whose root is `root`. */
export function verifyInclusion(
  leaf: Buffer,
  index: number,
  size: number,
  hashes: readonly Buffer[],
  root: Buffer,
): boolean {
  if (!isSize(index) || !isSize(size) || index >= size) return false;
  return rootFromPath(index, size, leaf, hashes)?.equals(root) ?? false;
}

/** The root PATH(m, D[n]) leads to from the leaf hash, read from its last element (the root's child) down. */
function rootFromPath(m: number, n: number, leaf: Buffer, hashes: readonly Buffer[]): Buffer | undefined {
  if (n === 1) return hashes.length === 0 ? leaf : undefined;
  const sibling = hashes.at(-1);
  if (sibling === undefined) return undefined;
  const k = split(n);
  const below = hashes.slice(0, -1);
  if (m < k) {
    const left = rootFromPath(m, k, leaf, below);
    return left && nodeHash(left, sibling);
  }
  const right = rootFromPath(m - k, n - k, leaf, below);
  return right && nodeHash(sibling, right);
}

/** Whether `hashes` is PROOF(from, D[to]) between the trees whose roots are `oldRoot` and `newRoot`. */
export function verifyConsistency(
  from: number,
  to: number,
  oldRoot: Buffer,
  newRoot: Buffer,
  hashes: readonly Buffer[],
): boolean {
  if (!isSize(from) || !isSize(to) || from < 1 || from > to) return false;
  const roots = rootsFromSubproof(from, to, true, hashes, oldRoot);
  return roots !== undefined && roots.old.equals(oldRoot) && roots.new.equals(newRoot);
}

type Roots = { old: Buffer; new: Buffer };

/**
 * The roots of the old and new subtrees SUBPROOF(m, D[n], b) leads to, read from its last element down.
 * Where b is true the subtree is the whole old tree, which the proof leaves out: `oldRoot` stands for it.
 */
function rootsFromSubproof(
  m: number,
  n: number,
  b: boolean,
  hashes: readonly Buffer[],
  oldRoot: Buffer,
): Roots | undefined {
  if (m === n) {
    if (b) return hashes.length === 0 ? { old: oldRoot, new: oldRoot } : undefined;
    const [subtree] = hashes;
    return subtree && hashes.length === 1 ? { old: subtree, new: subtree } : undefined;
  }
  const sibling = hashes.at(-1);
  if (sibling === undefined) return undefined;
  const k = split(n);
  const below = hashes.slice(0, -1);
  if (m <= k) {
    const left = rootsFromSubproof(m, k, b, below, oldRoot);
    return left && { old: left.old, new: nodeHash(left.new, sibling) };
  }
  const right = rootsFromSubproof(m - k, n - k, false, below, oldRoot);
  return right && { old: nodeHash(sibling, right.old), new: nodeHash(sibling, right.new) };
}

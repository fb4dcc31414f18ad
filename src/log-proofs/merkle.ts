import { EMPTY_ROOT, HASH_BYTES, nodeHash, type Hash } from './merkle-hash';

export { EMPTY_ROOT, leafHash, nodeHash, type Hash } from './merkle-hash';
export { verifyConsistency, verifyInclusion } from './merkle-verify';

/**
 * The RFC 9162 tree over the log, built from the stored hashes of its complete perfect subtrees.
 *
 * Node (level, index) is the perfect subtree over leaves [index·2^level, (index+1)·2^level). The RFC
 * tree of n leaves (§2.1.1) is the perfect tree over the next power of two with the missing leaves
 * removed and every node left with one child replaced by that child. So each of its nodes is either a
 * complete perfect subtree, one read, or lies on the right edge over leaves [start, n), hashed from the
 * perfect subtrees that partition that range: at most one read per level.
 */

/** Reads the hash of a complete perfect subtree (level, index); level 0 = leaf hashes. */
export type NodeReader = (level: number, index: number) => Hash;

/** A complete perfect subtree: (level, index) covers leaves [index·2^level, (index+1)·2^level); level 0 is a leaf. */
export type TreeNode = { level: number; index: number; hash: Hash };

type LeafRange = { start: number; end: number };

const width = (level: number) => 2 ** level;

/**
 * The right edge of a growing tree: the complete perfect subtrees that partition its leaves, largest
 * first (one per 1 bit of the size). Appending a leaf merges it with the subtrees of its own size: the
 * inner nodes it completes. The root folds them from the right.
 */
export class Frontier {
  private constructor(
    private readonly nodes: TreeNode[],
    private leaves: number,
  ) {}

  /** The frontier of the tree of `size` leaves whose nodes `read` gives (one read per 1 bit of `size`). */
  static of(size: number, read: NodeReader): Frontier {
    assertCount('tree size', size);
    const nodes = perfectSubtrees({ start: 0, end: size }).map(({ level, index }) => ({
      level,
      index,
      hash: read(level, index),
    }));
    return new Frontier(nodes, size);
  }

  static empty(): Frontier {
    return new Frontier([], 0);
  }

  get size(): number {
    return this.leaves;
  }

  /** Adds the next leaf (its hash); answers the inner nodes it completes, bottom up. */
  append(leaf: Hash): TreeNode[] {
    if (leaf.length !== HASH_BYTES)
      throw new RangeError(`a leaf hash has ${HASH_BYTES} bytes, not ${leaf.length}`);
    let node: TreeNode = { level: 0, index: this.leaves++, hash: leaf };
    const completed: TreeNode[] = [];
    for (let left = this.nodes.at(-1); left?.level === node.level; left = this.nodes.at(-1)) {
      this.nodes.pop();
      node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      completed.push(node);
    }
    this.nodes.push(node);
    return completed;
  }

  /** MTH of the leaves so far. */
  root(): Hash {
    const hashes = this.nodes.map(({ hash }) => hash);
    return hashes.length === 0 ? EMPTY_ROOT : hashes.reduceRight((right, left) => nodeHash(left, right));
  }
}

/** MTH of the first `size` leaves (§2.1.1): one read per 1 bit of `size`. */
export function treeRoot(size: number, read: NodeReader): Hash {
  assertCount('tree size', size);
  return size === 0 ? EMPTY_ROOT : rangeHash({ start: 0, end: size }, read);
}

/** The inclusion proof of leaf `index` in the tree of `size` leaves, in §2.1.3.1 order (leaf to root). */
export function inclusionProof(index: number, size: number, read: NodeReader): Hash[] {
  assertCount('leaf index', index);
  assertCount('tree size', size);
  if (index >= size) throw new RangeError(`leaf index ${index} is outside a tree of ${size} leaves`);
  return siblingsUpToRoot(0, index, size).map((range) => rangeHash(range, read));
}

/**
 * The consistency proof between sizes `from` and `to` (§2.1.4.1); empty when from = to.
 *
 * §2.1.4.1 defines it recursively; in closed form it is the largest subtree that ends where the old
 * tree ends (left out when it is the whole old tree, which the verifier holds), then that subtree's
 * path to the new root.
 */
export function consistencyProof(from: number, to: number, read: NodeReader): Hash[] {
  assertCount('old tree size', from);
  assertCount('new tree size', to);
  if (from === 0 || from > to) {
    throw new RangeError(`a consistency proof needs 0 < from <= to, not from ${from} and to ${to}`);
  }
  if (from === to) return [];
  const level = trailingZeros(from);
  const index = from / width(level) - 1;
  const path = siblingsUpToRoot(level, index, to);
  const ranges = index === 0 ? path : [{ start: index * width(level), end: from }, ...path];
  return ranges.map((range) => rangeHash(range, read));
}

/**
 * The leaf ranges of the siblings met going up from node (level, index) to the root of the tree of
 * `size` leaves. A sibling wholly past the last leaf does not exist: the parent is the node itself.
 */
function siblingsUpToRoot(level: number, index: number, size: number): LeafRange[] {
  const siblings: LeafRange[] = [];
  for (; width(level) < size; level++, index = Math.floor(index / 2)) {
    const start = (index % 2 === 0 ? index + 1 : index - 1) * width(level);
    if (start < size) siblings.push({ start, end: Math.min(start + width(level), size) });
  }
  return siblings;
}

/** The hash of the RFC subtree over `range`, a node of the tree: its start is a multiple of a power of two at least its width. */
function rangeHash(range: LeafRange, read: NodeReader): Hash {
  const hashes = perfectSubtrees(range).map(({ level, index }) => read(level, index));
  return hashes.reduceRight((right, left) => nodeHash(left, right));
}

/** The perfect subtrees that partition `range`, largest (leftmost) first. */
function perfectSubtrees({ start, end }: LeafRange): { level: number; index: number }[] {
  const subtrees = [];
  for (let level = highestLevelWithin(end - start); start < end; level--) {
    if (start + width(level) <= end) {
      subtrees.push({ level, index: start / width(level) });
      start += width(level);
    }
  }
  return subtrees;
}

const highestLevelWithin = (count: number) => {
  let level = 0;
  while (width(level + 1) <= count) level++;
  return level;
};

const trailingZeros = (count: number) => {
  let level = 0;
  while (count % width(level + 1) === 0) level++;
  return level;
};

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number of 0 or more, not ${value}`);
  }
}

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
export type NodeReader = (level: number, index: number) => Promise<Hash>;

export type StoredNode = { level: number; index: number; hash: Hash };

type LeafRange = { start: number; end: number };

const width = (level: number) => 2 ** level;

/**
 * The nodes, level 0 included, that leaf `index` (hash `leaf`) completes, bottom up: each is the right
 * child of the next, whose left child `read` gives. One read per trailing 1 bit of `index`.
 */
export async function nodesCompletedBy(index: number, leaf: Hash, read: NodeReader): Promise<StoredNode[]> {
  assertCount('leaf index', index);
  if (leaf.length !== HASH_BYTES)
    throw new RangeError(`a leaf hash has ${HASH_BYTES} bytes, not ${leaf.length}`);
  let node: StoredNode = { level: 0, index, hash: leaf };
  const nodes = [node];
  while (node.index % 2 === 1) {
    const left = await read(node.level, node.index - 1);
    node = { level: node.level + 1, index: (node.index - 1) / 2, hash: nodeHash(left, node.hash) };
    nodes.push(node);
  }
  return nodes;
}

/** MTH of the first `size` leaves (§2.1.1): one read per 1 bit of `size`. */
export async function treeRoot(size: number, read: NodeReader): Promise<Hash> {
  assertCount('tree size', size);
  return size === 0 ? EMPTY_ROOT : rangeHash({ start: 0, end: size }, read);
}

/** The inclusion proof of leaf `index` in the tree of `size` leaves, in §2.1.3.1 order (leaf to root). */
export async function inclusionProof(index: number, size: number, read: NodeReader): Promise<Hash[]> {
  assertCount('leaf index', index);
  assertCount('tree size', size);
  if (index >= size) throw new RangeError(`leaf index ${index} is outside a tree of ${size} leaves`);
  return Promise.all(siblingsUpToRoot(0, index, size).map((range) => rangeHash(range, read)));
}

/**
 * The consistency proof between sizes `from` and `to` (§2.1.4.1); empty when from = to.
 *
 * §2.1.4.1 defines it recursively; in closed form it is the largest subtree that ends where the old
 * tree ends (left out when it is the whole old tree, which the verifier holds), then that subtree's
 * path to the new root.
 */
export async function consistencyProof(from: number, to: number, read: NodeReader): Promise<Hash[]> {
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
  return Promise.all(ranges.map((range) => rangeHash(range, read)));
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
async function rangeHash(range: LeafRange, read: NodeReader): Promise<Hash> {
  const hashes = await Promise.all(perfectSubtrees(range).map(({ level, index }) => read(level, index)));
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

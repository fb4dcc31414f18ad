import { createHash } from 'node:crypto';
import {
  consistencyProof,
  EMPTY_ROOT,
  inclusionProof,
  leafHash,
  nodeHash,
  Frontier,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
  type Hash,
  type NodeReader,
} from '../../src/log-proofs/merkle';
import * as rfc from '../support/rfc9162';

/**
 * The tree of src/log-proofs checked against the independent RFC 9162 implementation of
 * test/support/rfc9162: every size up to 70 exhaustively, larger ones on samples.
 */

const SMALL_SIZES = Array.from({ length: 70 }, (_, i) => i + 1);
const LARGE_SIZES = [127, 128, 129, 1000];
const SIZES = [...SMALL_SIZES, ...LARGE_SIZES];
/** Leaves held: a little past the largest size, so that a size one past it can be proved too. */
const LEAVES = 1024;

// Leaf inputs of several lengths, the empty one included.
const leafInputs = Array.from({ length: LEAVES }, (_, i) =>
  i === 0
    ? Buffer.alloc(0)
    : createHash('sha256')
        .update(`event ${i}`)
        .digest()
        .subarray(0, 1 + (i % 40)),
);
const leaves = leafInputs.map(leafHash);

const hex = (hashes: readonly Buffer[]) => hashes.map((hash) => hash.toString('hex'));
const width = (level: number) => 2 ** level;
/** A copy of `hash` with one byte changed. */
const flipped = (hash: Buffer, at = 0) => {
  const copy = Buffer.from(hash);
  const byte = at % copy.length;
  copy[byte] = (copy[byte] ?? 0) ^ 0x01;
  return copy;
};
const FOREIGN = createHash('sha256').update('not in the tree').digest();

/** The stored nodes: the leaves, and the inner nodes a Frontier completes as they are appended, as the log tree grows. */
const nodes = new Map<string, Hash>();
const key = (level: number, index: number) => `${level}:${index}`;
const stored: NodeReader = (level, index) => {
  const hash = nodes.get(key(level, index));
  if (!hash) throw new RangeError(`no node (${level}, ${index}) is stored`);
  return hash;
};
/** The nodes as a tree of `size` leaves holds them: a node over a leaf past the last is an error. */
const readerOf =
  (size: number): NodeReader =>
  (level, index) => {
    if ((index + 1) * width(level) > size)
      throw new RangeError(`node (${level}, ${index}) is not in a tree of ${size}`);
    return stored(level, index);
  };
/** A reader of the first `size` leaves that counts its reads. */
function countingReader(size: number): { read: NodeReader; reads: () => number } {
  let reads = 0;
  const inner = readerOf(size);
  return {
    read: (level, index) => {
      reads += 1;
      return inner(level, index);
    },
    reads: () => reads,
  };
}

const popCount = (value: number) => [...value.toString(2)].filter((bit) => bit === '1').length;
const trailingOnes = (value: number) =>
  value.toString(2).length - value.toString(2).replace(/1+$/, '').length;

/** Every index below `size` when small; otherwise the edges, the powers of two around and a spread. */
function samples(size: number): number[] {
  if (size <= 70) return Array.from({ length: size }, (_, i) => i);
  const picked = [0, 1, 2, Math.floor(size / 2), size - 3, size - 2, size - 1];
  for (let power = 2; power < size; power *= 2) picked.push(power - 1, power, power + 1);
  for (let k = 1; k <= 12; k++) picked.push((k * 389) % size);
  return [...new Set(picked)].filter((i) => i >= 0 && i < size).sort((a, b) => a - b);
}

const roots = new Map<number, Buffer>();
/** MTH(D[size]) by the reference, computed once per size. */
function rootOf(size: number): Buffer {
  const root = roots.get(size) ?? rfc.mth(leafInputs.slice(0, size));
  roots.set(size, root);
  return root;
}

beforeAll(() => {
  const frontier = Frontier.empty();
  for (const [index, leaf] of leaves.entries()) {
    nodes.set(key(0, index), leaf);
    for (const node of frontier.append(leaf)) nodes.set(key(node.level, node.index), node.hash);
  }
});

describe('leaf and node hashes', () => {
  it('hash a leaf as SHA-256(0x00 ‖ input) and a node as SHA-256(0x01 ‖ left ‖ right), as RFC 9162 does', () => {
    for (const input of leafInputs.slice(0, 50)) expect(leafHash(input)).toEqual(rfc.leafHash(input));
    const [left = FOREIGN, right = FOREIGN] = leaves;
    expect(nodeHash(left, right)).toEqual(rfc.mth(leafInputs.slice(0, 2)));
    expect(EMPTY_ROOT.toString('hex')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });
});

describe('Frontier', () => {
  it('stores every complete perfect subtree, each the MTH of the leaves it covers', () => {
    let expected = 0;
    for (let level = 0; width(level) <= LEAVES; level++) {
      const count = Math.floor(LEAVES / width(level));
      expected += count;
      for (let index = 0; index < count; index++) {
        const covered = leafInputs.slice(index * width(level), (index + 1) * width(level));
        expect(nodes.get(key(level, index))?.toString('hex')).toBe(rfc.mth(covered).toString('hex'));
      }
    }
    expect(nodes.size).toBe(expected);
  });

  it('completes one node per trailing 1 bit of the new leaf index, bottom up', () => {
    for (const index of [0, 1, 2, 3, 6, 7, 8, 15, 62, 63, 127, 128, 511, 1000, 1023]) {
      const frontier = Frontier.of(index, readerOf(index));
      const completed = frontier.append(leaves[index] as Hash);
      expect(completed.map(({ level, index: at }) => [level, at])).toEqual(
        Array.from({ length: trailingOnes(index) }, (_, below) => [
          below + 1,
          Math.floor(index / width(below + 1)),
        ]),
      );
      for (const node of completed) expect(node.hash).toEqual(nodes.get(key(node.level, node.index)));
    }
  });

  it('is read from a stored tree with one read per 1 bit of its size, and gives its root', () => {
    for (const size of [0, 1, 5, 64, 100, 1000, 1023]) {
      const { read, reads } = countingReader(size);
      const frontier = Frontier.of(size, read);
      expect(reads()).toBe(popCount(size));
      expect(frontier.size).toBe(size);
      expect(frontier.root()).toEqual(rootOf(size));
    }
  });
});

describe('treeRoot', () => {
  it('is MTH(D[n]) of RFC 9162 §2.1.1 for every size, reading one stored node per 1 bit of the size', () => {
    for (const size of SIZES) {
      const { read, reads } = countingReader(size);
      expect(treeRoot(size, read).toString('hex')).toBe(rootOf(size).toString('hex'));
      expect(reads()).toBe(popCount(size));
    }
  });

  it('of the empty tree is the hash of nothing, without reading anything', () => {
    const { read, reads } = countingReader(0);
    expect(treeRoot(0, read)).toEqual(rfc.mth([]));
    expect(EMPTY_ROOT).toEqual(rfc.mth([]));
    expect(reads()).toBe(0);
  });
});

interface InclusionClaim {
  leaf: Hash;
  index: number;
  size: number;
  proof: readonly Hash[];
  root: Hash;
}

interface ConsistencyClaim {
  from: number;
  to: number;
  oldRoot: Hash;
  newRoot: Hash;
  proof: readonly Hash[];
}

/** The honest proofs src builds: of the sampled leaves of every size, and between sampled sizes. */
function inclusionClaims(): InclusionClaim[] {
  const claims = [];
  for (const size of SIZES) {
    for (const index of samples(size)) {
      const proof = inclusionProof(index, size, readerOf(size));
      claims.push({ leaf: leaves[index] as Hash, index, size, proof, root: rootOf(size) });
    }
  }
  return claims;
}

function consistencyClaims(): ConsistencyClaim[] {
  const claims = [];
  for (const to of SIZES) {
    for (const from of samples(to).map((index) => index + 1)) {
      const proof = consistencyProof(from, to, readerOf(to));
      claims.push({ from, to, oldRoot: rootOf(from), newRoot: rootOf(to), proof });
    }
  }
  return claims;
}

/** Which verifiers, src's and the reference, accept a claim. */
function inclusionAcceptedBy({ leaf, index, size, proof, root }: InclusionClaim): string[] {
  return [
    ...(verifyInclusion(leaf, index, size, proof, root) ? ['src'] : []),
    ...(rfc.verifyInclusion(leaf, index, size, proof, root) ? ['rfc9162'] : []),
  ];
}

function consistencyAcceptedBy({ from, to, oldRoot, newRoot, proof }: ConsistencyClaim): string[] {
  return [
    ...(verifyConsistency(from, to, oldRoot, newRoot, proof) ? ['src'] : []),
    ...(rfc.verifyConsistency(from, to, oldRoot, newRoot, proof) ? ['rfc9162'] : []),
  ];
}

/**
 * The forgeries of each honest claim that a verifier accepts, named (a test expects none): collected
 * rather than asserted one by one, since the tests check some hundred thousand forgeries.
 */
function accepted<Claim>(
  honest: readonly Claim[],
  forge: (claim: Claim) => [string, Claim][],
  acceptedBy: (claim: Claim) => string[],
): string[] {
  return honest.flatMap((claim) =>
    forge(claim).flatMap(([what, forged]) =>
      acceptedBy(forged).map((verifier) => `${verifier} accepts ${what}`),
    ),
  );
}

describe('inclusion proofs', () => {
  let honest: InclusionClaim[];
  beforeAll(() => {
    honest = inclusionClaims();
  });
  const forgeries = (forge: (claim: InclusionClaim) => [string, InclusionClaim][]) =>
    accepted(honest, forge, inclusionAcceptedBy);

  it('are PATH(m, D[n]) of RFC 9162 §2.1.3.1, and both verifiers accept them', () => {
    for (const { index, size, proof } of honest) {
      expect(hex(proof)).toEqual(hex(rfc.path(index, leafInputs.slice(0, size))));
    }
    expect(honest.filter((claim) => inclusionAcceptedBy(claim).length !== 2)).toEqual([]);
  });

  it('are refused by both verifiers when a byte of the leaf, of any proof hash or of the root is changed', () => {
    const changed = forgeries((claim) => {
      const at = `leaf ${claim.index} of ${claim.size}`;
      return [
        [`${at} with a changed leaf`, { ...claim, leaf: flipped(claim.leaf, claim.index) }],
        [`${at} with a changed root`, { ...claim, root: flipped(claim.root, claim.size) }],
        ...claim.proof.map((hash, k): [string, InclusionClaim] => [
          `${at} with proof hash ${k} changed`,
          { ...claim, proof: claim.proof.with(k, flipped(hash, k + claim.index)) },
        ]),
      ];
    });
    expect(changed).toEqual([]);
  });

  it('are refused by both verifiers at any other index', () => {
    const moved = forgeries(({ index, size, ...claim }) => {
      // Every other leaf of the smaller trees; around the leaf, the mirrored leaf and the edges of the larger.
      const others =
        size <= 32 ? samples(size) : [index - 1, index + 1, index ^ 1, size - 1 - index, 0, size - 1];
      return [...others, size, size + 1, -1]
        .filter((other) => other !== index)
        .map((other): [string, InclusionClaim] => [
          `leaf ${index} of ${size} at ${other}`,
          { ...claim, size, index: other },
        ]);
    });
    expect(moved).toEqual([]);
  });

  it('are refused by both verifiers when a hash is missing or one too many', () => {
    const wrongLength = forgeries(({ proof, ...claim }) => {
      const at = `leaf ${claim.index} of ${claim.size}`;
      const forged: [string, readonly Hash[]][] = [
        ['a foreign hash appended', [...proof, FOREIGN]],
        ['a foreign hash prepended', [FOREIGN, ...proof]],
        ['the leaf appended', [...proof, claim.leaf]],
        ['the root appended', [...proof, claim.root]],
      ];
      if (proof.length > 0)
        forged.push(
          ['the first hash dropped', proof.slice(1)],
          ['the last hash dropped', proof.slice(0, -1)],
        );
      return forged.map(([what, hashes]) => [`${at} with ${what}`, { ...claim, proof: hashes }]);
    });
    expect(wrongLength).toEqual([]);
  });

  it('are refused by both verifiers against the root of another size', () => {
    const otherRoot = forgeries((claim) =>
      [claim.size - 1, claim.size + 1].map((other) => [
        `leaf ${claim.index} of ${claim.size} against the root of ${other}`,
        { ...claim, root: rootOf(other) },
      ]),
    );
    expect(otherRoot).toEqual([]);
  });

  it('are refused at a size that does not hold the leaf or whose proofs are of another length; the verifiers agree at every size', () => {
    // A proof does not name its size: where two sizes give a leaf paths of the same shape, the proof at one
    // checks at the other, in every RFC 9162 verifier (the reference's too): the proof of leaf 0 of 5 checks
    // as one of leaf 0 of 6 against the root of 5. The root is what binds the size.
    const disagreements = [];
    const wronglyAccepted = [];
    let refusable = 0;
    for (const claim of honest) {
      for (const other of [0, claim.index, claim.index + 1, claim.size - 1, claim.size + 1, 2 * claim.size]) {
        if (other === claim.size || other > LEAVES) continue;
        const what = `leaf ${claim.index} of ${claim.size} at size ${other}`;
        const by = inclusionAcceptedBy({ ...claim, size: other });
        if (by.length === 1) disagreements.push(`only ${by[0]} accepts ${what}`);
        const shapeDiffers =
          other <= claim.index ||
          inclusionProof(claim.index, other, readerOf(other)).length !== claim.proof.length;
        if (shapeDiffers) refusable += 1;
        if (shapeDiffers && by.length > 0) wronglyAccepted.push(what);
      }
    }
    expect(disagreements).toEqual([]);
    expect(wronglyAccepted).toEqual([]);
    expect(refusable).toBeGreaterThan(honest.length);
  });
});

describe('consistency proofs', () => {
  let honest: ConsistencyClaim[];
  beforeAll(() => {
    honest = consistencyClaims();
  });
  const forgeries = (forge: (claim: ConsistencyClaim) => [string, ConsistencyClaim][]) =>
    accepted(honest, forge, consistencyAcceptedBy);

  it('are PROOF(m, D[n]) of RFC 9162 §2.1.4.1 for 1 <= m <= n, and both verifiers accept them', () => {
    for (const { from, to, proof } of honest) {
      expect(hex(proof)).toEqual(hex(rfc.proof(from, leafInputs.slice(0, to))));
    }
    expect(honest.filter((claim) => consistencyAcceptedBy(claim).length !== 2)).toEqual([]);
  });

  it('between equal sizes are empty, and check only with equal roots and no hashes', () => {
    for (const size of SIZES) {
      const root = rootOf(size);
      expect(consistencyProof(size, size, readerOf(size))).toEqual([]);
      const claim = { from: size, to: size, oldRoot: root, newRoot: root, proof: [] };
      expect(consistencyAcceptedBy(claim)).toEqual(['src', 'rfc9162']);
      expect(consistencyAcceptedBy({ ...claim, newRoot: flipped(root) })).toEqual([]);
      expect(consistencyAcceptedBy({ ...claim, proof: [root] })).toEqual([]);
      expect(consistencyAcceptedBy({ ...claim, proof: [FOREIGN] })).toEqual([]);
    }
  });

  it('are refused by both verifiers when a byte of either root or of any proof hash is changed', () => {
    const changed = forgeries((claim) => {
      const at = `${claim.from} to ${claim.to}`;
      return [
        [`${at} with a changed old root`, { ...claim, oldRoot: flipped(claim.oldRoot, claim.from) }],
        [`${at} with a changed new root`, { ...claim, newRoot: flipped(claim.newRoot, claim.to) }],
        ...claim.proof.map((hash, k): [string, ConsistencyClaim] => [
          `${at} with proof hash ${k} changed`,
          { ...claim, proof: claim.proof.with(k, flipped(hash, k + claim.from)) },
        ]),
      ];
    });
    expect(changed).toEqual([]);
  });

  it('are refused by both verifiers with the roots swapped', () => {
    const swapped = forgeries((claim) =>
      claim.from === claim.to
        ? []
        : [
            [
              `${claim.from} to ${claim.to} swapped`,
              { ...claim, oldRoot: claim.newRoot, newRoot: claim.oldRoot },
            ],
          ],
    );
    expect(swapped).toEqual([]);
  });

  it('are refused by both verifiers when a hash is missing or one too many', () => {
    const wrongLength = forgeries(({ proof, ...claim }) => {
      const at = `${claim.from} to ${claim.to}`;
      const forged: [string, readonly Hash[]][] = [
        ['a foreign hash appended', [...proof, FOREIGN]],
        ['a foreign hash prepended', [FOREIGN, ...proof]],
        ['the old root prepended', [claim.oldRoot, ...proof]],
        ['the new root appended', [...proof, claim.newRoot]],
      ];
      if (proof.length > 0)
        forged.push(
          ['the first hash dropped', proof.slice(1)],
          ['the last hash dropped', proof.slice(0, -1)],
        );
      return forged.map(([what, hashes]) => [`${at} with ${what}`, { ...claim, proof: hashes }]);
    });
    expect(wrongLength).toEqual([]);
  });

  it('are refused at sizes whose proofs are of another length; the verifiers agree at every other pair of sizes', () => {
    // As with inclusion, a proof does not name its sizes: one of the same shape may check at other sizes.
    const disagreements = [];
    const wronglyAccepted = [];
    let refusable = 0;
    for (const claim of honest) {
      const { from, to } = claim;
      for (const [otherFrom, otherTo] of [
        [from - 1, to],
        [from + 1, to],
        [from, to - 1],
        [from, to + 1],
        [from - 1, to + 1],
        [to, from],
      ] as const) {
        if ((otherFrom === from && otherTo === to) || otherTo > LEAVES) continue;
        const what = `${from} to ${to} as ${otherFrom} to ${otherTo}`;
        const by = consistencyAcceptedBy({ ...claim, from: otherFrom, to: otherTo });
        if (by.length === 1) disagreements.push(`only ${by[0]} accepts ${what}`);
        const shapeDiffers =
          otherFrom < 1 ||
          otherFrom > otherTo ||
          consistencyProof(otherFrom, otherTo, readerOf(otherTo)).length !== claim.proof.length;
        if (shapeDiffers) refusable += 1;
        if (shapeDiffers && by.length > 0) wronglyAccepted.push(what);
      }
    }
    expect(disagreements).toEqual([]);
    expect(wronglyAccepted).toEqual([]);
    expect(refusable).toBeGreaterThan(honest.length);
  });
});

describe('arguments out of range', () => {
  const root = rootOf(8);
  const leaf = leaves[3] as Hash;

  it('are refused with a RangeError by the builders', () => {
    const read = readerOf(8);
    for (const [index, size] of [
      [8, 8],
      [9, 8],
      [0, 0],
      [-1, 8],
      [1.5, 8],
      [Number.NaN, 8],
      [0, Infinity],
    ]) {
      expect(() => inclusionProof(index as number, size as number, read)).toThrow(RangeError);
    }
    for (const [from, to] of [
      [0, 8],
      [0, 0],
      [9, 8],
      [-1, 8],
      [2.5, 8],
      [1, Number.NaN],
    ]) {
      expect(() => consistencyProof(from as number, to as number, read)).toThrow(RangeError);
    }
    for (const size of [-1, 0.5, Number.NaN, Infinity])
      expect(() => treeRoot(size, read)).toThrow(RangeError);
    expect(() => Frontier.of(-1, stored)).toThrow(RangeError);
    expect(() => Frontier.of(2.5, stored)).toThrow(RangeError);
    expect(() => Frontier.empty().append(leaf.subarray(1))).toThrow(RangeError);
  });

  it('make the verifiers answer false, without throwing', () => {
    const proof = inclusionProof(3, 8, readerOf(8));
    for (const [index, size] of [
      [8, 8],
      [9, 8],
      [0, 0],
      [-1, 8],
      [3.5, 8],
      [Number.NaN, 8],
      [3, Infinity],
    ]) {
      expect(verifyInclusion(leaf, index as number, size as number, proof, root)).toBe(false);
      expect(rfc.verifyInclusion(leaf, index as number, size as number, proof, root)).toBe(false);
    }
    const consistency = consistencyProof(3, 8, readerOf(8));
    const oldRoot = rootOf(3);
    for (const [from, to] of [
      [0, 8],
      [0, 0],
      [9, 8],
      [-1, 8],
      [3.5, 8],
      [3, Number.NaN],
    ]) {
      expect(verifyConsistency(from as number, to as number, oldRoot, root, consistency)).toBe(false);
      expect(rfc.verifyConsistency(from as number, to as number, oldRoot, root, consistency)).toBe(false);
    }
  });

  it('make the verifiers answer false for a leaf, root or proof hash that is not 32 bytes', () => {
    const proof = inclusionProof(3, 8, readerOf(8));
    const short = (hash: Buffer) => hash.subarray(1);
    expect(verifyInclusion(short(leaf), 3, 8, proof, root)).toBe(false);
    expect(verifyInclusion(leaf, 3, 8, proof, short(root))).toBe(false);
    expect(verifyInclusion(leaf, 3, 8, proof.with(0, short(proof[0] as Hash)), root)).toBe(false);
    const consistency = consistencyProof(4, 8, readerOf(8));
    expect(verifyConsistency(4, 8, short(rootOf(4)), root, consistency)).toBe(false);
    expect(
      verifyConsistency(4, 8, rootOf(4), root, [Buffer.concat([consistency[0] as Hash, Buffer.of(0)])]),
    ).toBe(false);
  });
});

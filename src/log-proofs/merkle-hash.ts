import { createHash } from 'node:crypto';

/** A SHA-256 digest: 32 bytes. */
export type Hash = Buffer;

export const HASH_BYTES = 32;

// RFC 9162 §2.1.1: the one-byte prefixes keep a leaf from being passed off as an inner node.
const LEAF_PREFIX = Buffer.of(0x00);
const NODE_PREFIX = Buffer.of(0x01);

export const leafHash = (input: Buffer): Hash =>
  createHash('sha256').update(LEAF_PREFIX).update(input).digest();

export const nodeHash = (left: Hash, right: Hash): Hash =>
  createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();

/** MTH({}), the root of the empty tree: SHA-256 of nothing (RFC 9162 §2.1.1). */
export const EMPTY_ROOT: Hash = createHash('sha256').digest();

import { createHash, hash } from 'node:crypto';

/** A SHA-256 digest: 32 bytes. */
export type Hash = Buffer;

export const HASH_BYTES = 32;

// RFC 9162 §2.1.1: the one-byte prefixes keep a leaf from being passed off as an inner node.
const LEAF_PREFIX = Buffer.of(0x00);
const NODE_PREFIX = Buffer.of(0x01);

// One-shot hashing: the tree hashes one or two small inputs per event, where a Hash object costs more.
const sha256 = (...parts: Buffer[]): Hash => hash('sha256', Buffer.concat(parts), 'buffer');

export const leafHash = (input: Buffer): Hash => sha256(LEAF_PREFIX, input);

export const nodeHash = (left: Hash, right: Hash): Hash => sha256(NODE_PREFIX, left, right);

/** MTH({}), the root of the empty tree: SHA-256 of nothing (RFC 9162 §2.1.1). */
export const EMPTY_ROOT: Hash = createHash('sha256').digest();

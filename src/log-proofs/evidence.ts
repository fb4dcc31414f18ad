import { z } from 'zod';
import type { EventMetadata, StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import { hashEvent } from '../events/hash-chain';
import {
  checkDisclosure,
  DisclosedKeySchema,
  disclosedKeys,
  type DisclosedKey,
  type DisclosedValue,
} from '../privacy/disclosed-keys';
import { servedEvents, type ServedEvent } from '../privacy/served-events';
import type { SubjectKeyStore } from '../privacy/subject-keys';
import { noteText, parseCheckpoint, type Checkpoint } from './checkpoint';
import { leafOf } from './log-against-tree';
import { rootsFromLog } from './log-tree';
import { consistencyProof, EMPTY_ROOT, inclusionProof, verifyConsistency, verifyInclusion } from './merkle';
import { openNote } from './note';
import { treeReader, type KeptCheckpoint, type TreeStore } from './tree-store';

/**
 * What an auditor keeps to prove one event was in the log, checkable with the file and the verifier
 * key alone: the event (as stored), its leaf, its inclusion proof and the signed checkpoint of that
 * tree. A bundle that discloses the keys of the subjects whose personal values the event holds
 * (`suite-inclusion-evidence/2`) adds them (`disclosed`) and the values opened beside the event's data
 * (`event.opened`): a verifier of the first format would accept it without checking either, so it
 * takes a format of its own.
 */
export interface EvidenceBundle {
  format: 'suite-inclusion-evidence/1' | 'suite-inclusion-evidence/2';
  event: ServedEvent;
  index: number;
  tree_size: number;
  leaf_hash: string;
  /** The inclusion proof, lowercase hex, in RFC 9162 §2.1.3.1 order. */
  hashes: string[];
  /** The signed checkpoint of the tree of `tree_size` leaves. */
  checkpoint: string;
  /** The second format's: one entry per subject and key id the event's sealed values name. */
  disclosed?: DisclosedKey[];
}

export const HexHash = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hash in lowercase hex');
export const Count = z.number().int().nonnegative();
/** An inclusion proof: at most one hash per level of a tree of 2^64 leaves. */
export const ProofHashes = z.array(HexHash).max(64);
/** A signed checkpoint note, bounded. */
export const CheckpointNote = z.string().max(64 * 1024);

/** A stored event as a bundle holds it. */
export const BundledEvent = z.object({
  event_id: z.string(),
  stream: z.string(),
  revision: Count,
  position: Count,
  type: z.string(),
  schema_version: Count,
  data: z.unknown(),
  metadata: z.custom<EventMetadata>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'an object',
  ),
  prev_hash: HexHash,
  hash: HexHash,
});

const ProofSchema = {
  index: Count,
  tree_size: Count,
  leaf_hash: HexHash,
  hashes: ProofHashes,
  checkpoint: CheckpointNote,
};

/** The shape of a bundle read from a file: whatever is not this is refused before anything is hashed. */
const BundleSchema = z.discriminatedUnion('format', [
  // What a bundle of the first format holds besides is ignored, as it always was, but never an
  // opened value or a disclosed key: those are checked in the second format only.
  z.object({
    format: z.literal('suite-inclusion-evidence/1'),
    event: BundledEvent.extend({ opened: z.never().optional() }),
    ...ProofSchema,
    disclosed: z.never().optional(),
  }),
  // Every member checked: a byte changed anywhere is refused, or reads the same.
  z.strictObject({
    format: z.literal('suite-inclusion-evidence/2'),
    event: BundledEvent.extend({ opened: z.record(z.string(), z.unknown()).optional() }).strict(),
    ...ProofSchema,
    disclosed: z.array(DisclosedKeySchema),
  }),
]);

export class EvidenceError extends Error {
  override name = 'EvidenceError';
}

/** The kept checkpoint of `treeSize` leaves (default: the latest); an `EvidenceError` naming the nearest kept if none. */
export function keptCheckpoint(store: TreeStore, treeSize?: number): KeptCheckpoint {
  const checkpoint = treeSize === undefined ? store.latestCheckpoint() : store.checkpointOfSize(treeSize);
  if (checkpoint) return checkpoint;
  const near = treeSize === undefined ? [] : store.checkpointSizesNear(treeSize);
  throw new EvidenceError(
    treeSize === undefined
      ? 'No checkpoint has been signed yet'
      : `No checkpoint of ${treeSize} leaves was kept; the nearest: ${near.join(', ') || 'none'}`,
  );
}

/** The inclusion proof of leaf `index` in the kept tree of `size` leaves, lowercase hex. */
export const proofHashes = (store: TreeStore, index: number, size: number): string[] =>
  inclusionProof(index, size, treeReader(store)).map((hash) => hash.toString('hex'));

/**
 * The evidence of the event at `position` (read from the log as stored) in the kept checkpoint of
 * `treeSize` (default: the latest); `disclose`: with the keys of the subjects its sealed values name,
 * from this key store (the second format).
 */
export async function evidenceBundle(
  store: TreeStore,
  eventStore: EventStore,
  position: number,
  treeSize?: number,
  disclose?: SubjectKeyStore,
): Promise<EvidenceBundle> {
  const checkpoint = keptCheckpoint(store, treeSize);
  const leaf = store.leafAt(position);
  const event = await eventStore.eventAt(position);
  if (!leaf || !event) throw new EvidenceError(`No event at position ${position} is in the tree`);
  if (leaf.index >= checkpoint.size) {
    throw new EvidenceError(
      `The event at position ${position} came after the checkpoint of ${checkpoint.size} leaves`,
    );
  }
  const proof = {
    index: leaf.index,
    tree_size: checkpoint.size,
    leaf_hash: leaf.hash.toString('hex'),
    hashes: proofHashes(store, leaf.index, checkpoint.size),
    checkpoint: checkpoint.note,
  };
  if (!disclose) return { format: 'suite-inclusion-evidence/1', event, ...proof };
  const [served] = await servedEvents([event], disclose);
  const disclosed = await disclosedKeys([event], disclose);
  return { format: 'suite-inclusion-evidence/2', event: served ?? event, ...proof, disclosed };
}

/** What a bundle proves: its event, and the personal values its disclosed keys open (none without). */
export interface BundleVerdict {
  problem?: string;
  event?: StoredEvent;
  disclosed: DisclosedValue[];
}

/**
 * Checks a bundle with nothing but its file and the verifier key: the checkpoint's signature, that the
 * event's content hashes to its hash and its hash to the leaf, and the inclusion proof against the
 * checkpoint's root; in the second format, the disclosed keys (see `checkDisclosure`). Answers what
 * failed, or nothing.
 */
export function bundleProblem(file: unknown, verifierKey: string): string | undefined {
  return bundleVerdict(file, verifierKey).problem;
}

/** `bundleProblem`, and what the bundle proves when it holds (the values its disclosed keys open). */
export function bundleVerdict(file: unknown, verifierKey: string): BundleVerdict {
  const parsed = BundleSchema.safeParse(file);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const problem = `not an evidence bundle: ${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'malformed'}`;
    return { problem, disclosed: [] };
  }
  const bundle = parsed.data;
  const signed = signedCheckpoint(bundle.checkpoint, verifierKey, bundle.tree_size);
  if (typeof signed === 'string') return { problem: signed, disclosed: [] };
  const included = inclusionProblem(bundle, signed.root);
  if (included) return { problem: included, disclosed: [] };
  const { event, disclosed } = bundle;
  if (!disclosed) return { event, disclosed: [] };
  const checked = checkDisclosure([{ ...event, place: `position ${event.position}` }], disclosed);
  if ('problem' in checked) return { problem: `the disclosed keys: ${checked.problem}`, disclosed: [] };
  return { event, disclosed: checked.values };
}

/**
 * The checkpoint a note holds, if `verifierKey` signed it and it is of `treeSize` leaves; otherwise
 * what failed.
 */
export function signedCheckpoint(note: string, verifierKey: string, treeSize: number): Checkpoint | string {
  let signed;
  try {
    signed = parseCheckpoint(openNote(note, verifierKey));
  } catch (error) {
    return `the checkpoint: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (signed.size !== treeSize) return `the checkpoint is of ${signed.size} leaves, not ${treeSize}`;
  return signed;
}

/** One event's proof, as a bundle holds it. */
export interface EventProof {
  /** The event as stored; its position, which its hash does not cover, is not needed. */
  event: Omit<StoredEvent, 'position'>;
  index: number;
  tree_size: number;
  leaf_hash: string;
  hashes: readonly string[];
}

/**
 * What fails of an event's proof against a signed root: that its content hashes to its hash, that its
 * hash gives the leaf, and the inclusion proof; nothing when it holds.
 */
export function inclusionProblem(proof: EventProof, root: Buffer): string | undefined {
  if (hashEvent(proof.event) !== proof.event.hash) return 'the event: its content does not match its hash';
  const leaf = leafOf(proof.event);
  if (leaf.toString('hex') !== proof.leaf_hash) return 'the leaf hash is not that of the event';
  const path = proof.hashes.map((hash) => Buffer.from(hash, 'hex'));
  if (!verifyInclusion(leaf, proof.index, proof.tree_size, path, root)) {
    return 'the inclusion proof does not lead to the checkpoint\u2019s root';
  }
  return undefined;
}

/** Whether the kept tree of `latest` extends the tree of `old` by its consistency proof; every tree extends the empty one. */
async function extendsCheckpoint(
  old: Checkpoint,
  latest: KeptCheckpoint,
  store: TreeStore,
): Promise<boolean> {
  if (old.size === 0) return old.root.equals(EMPTY_ROOT);
  const proof = old.size === latest.size ? [] : consistencyProof(old.size, latest.size, treeReader(store));
  return verifyConsistency(old.size, latest.size, old.root, latest.root, proof);
}

/**
 * Proves the log extends an old checkpoint: its signature, then the consistency proof from its tree to
 * the latest signed one, then the latest root recomputed from the events themselves. Answers what
 * failed, or nothing.
 */
export async function extensionProblem(
  oldCheckpoint: string,
  verifierKey: string,
  store: TreeStore,
  eventStore: EventStore,
): Promise<string | undefined> {
  let old;
  try {
    old = parseCheckpoint(openNote(oldCheckpoint, verifierKey));
  } catch (error) {
    return `the checkpoint: ${error instanceof Error ? error.message : String(error)}`;
  }
  const latest = store.latestCheckpoint();
  if (!latest || latest.size < old.size) {
    return `the log's latest checkpoint (${latest?.size ?? 0} leaves) is smaller than the old one (${old.size})`;
  }
  const { origin } = parseCheckpoint(noteText(latest.note));
  if (old.origin !== origin) return `the checkpoint is of the log ${old.origin}, not ${origin}`;
  if (!(await extendsCheckpoint(old, latest, store))) {
    return `the tree of ${latest.size} leaves does not extend the checkpoint of ${old.size}: history was rewritten`;
  }
  const recomputed = (await rootsFromLog(eventStore, [latest.size])).get(latest.size);
  if (!recomputed?.equals(latest.root)) {
    return `the events no longer hash to the root signed for ${latest.size} leaves: history was rewritten`;
  }
  return undefined;
}

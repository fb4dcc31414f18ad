import { z } from 'zod';
import { foldedSteps, recordStory, type HistorySources, type RecordRef } from '../audit/record-history';
import { strangerInStory } from '../audit/story-membership';
import type { SuiteCatalog } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import { GENESIS_HASH } from '../events/hash-chain';
import {
  checkDisclosure,
  DisclosedKeySchema,
  disclosedKeys,
  disclosedKeysBySubject,
  type DisclosedKey,
  type DisclosedValue,
} from '../privacy/disclosed-keys';
import { openValue } from '../privacy/personal-data';
import type { SubjectKeyStore } from '../privacy/subject-keys';
import type { Document, DocumentId } from '../projections/read-store';
import {
  BundledEvent,
  CheckpointNote,
  Count,
  EvidenceError,
  HexHash,
  inclusionProblem,
  keptCheckpoint,
  ProofHashes,
  proofHashes,
  signedCheckpoint,
} from './evidence';
import type { KeptCheckpoint, TreeStore } from './tree-store';

export const RECORD_EVIDENCE_FORMAT = 'suite-record-evidence/1';

/**
 * The events a record bundle holds: as stored (personal data sealed), without their position, which
 * neither their hash nor the tree covers (the leaf index is their proven place in the log).
 */
export type ProvenEvent = Omit<StoredEvent, 'position'>;

/** One event of a record's story and its inclusion proof in the bundle's tree. */
export interface RecordEventProof {
  event: ProvenEvent;
  index: number;
  leaf_hash: string;
  /** The inclusion proof, lowercase hex, in RFC 9162 §2.1.3.1 order. */
  hashes: string[];
}

/**
 * A record's story as evidence, checkable with the file and the verifier key alone: every event of
 * the story (its own, its proposals', the erasures of its subjects) that the signed checkpoint covers,
 * in log order, each with its inclusion proof against that one checkpoint.
 */
export interface RecordEvidenceBundle {
  format: typeof RECORD_EVIDENCE_FORMAT;
  module: string;
  resource: string;
  id: DocumentId;
  tree_size: number;
  /** The signed checkpoint of the tree of `tree_size` leaves. */
  checkpoint: string;
  events: RecordEventProof[];
  /** The later events of the story that the checkpoint did not cover, left out; absent when none was. */
  not_yet_covered?: number;
  /**
   * With `disclose`: one entry per subject and key id the events' sealed values name, the key while it
   * is kept, or that it was erased (see `disclosedKeys`).
   */
  disclosed?: DisclosedKey[];
}

/** How long a bundle of the latest checkpoint waits for one that covers the whole story (signed once a second). */
export const COVERING_WAIT_MS = 2_000;
const POLL_MS = 100;

const withoutPosition = ({ position: _unproven, ...event }: StoredEvent): ProvenEvent => event;

/**
 * A proven event as the suite's code reads events: its position, which no proof covers, is not in the
 * bundle, so a projection that reads it (a record named by its event's position) finds none.
 */
const unpositioned = ({ event }: RecordEventProof) => event as StoredEvent;

const nameOf = ({ module, resource, id }: Pick<RecordEvidenceBundle, 'module' | 'resource' | 'id'>) =>
  `${module}/${resource}/${id}`;

/**
 * The checkpoint of `treeSize` leaves; by default the latest, after waiting up to `waitMs` for one that
 * covers the event at `position`.
 */
async function checkpointFor(
  store: TreeStore,
  position: number,
  treeSize: number | undefined,
  waitMs: number,
): Promise<KeptCheckpoint> {
  if (treeSize !== undefined) return keptCheckpoint(store, treeSize);
  for (const deadline = Date.now() + waitMs; Date.now() < deadline;) {
    const [latest, leaf] = [store.latestCheckpoint(), store.leafAt(position)];
    if (latest && leaf && leaf.index < latest.size) return latest;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return keptCheckpoint(store);
}

/** What a record bundle is made from: the log as stored, and what the story is gathered with. */
export type RecordEvidenceSources = Pick<HistorySources, 'storedEvents' | 'readStore' | 'catalog'>;

/**
 * The evidence of a record's story (`recordStory` over the log as stored) against the kept checkpoint
 * of `treeSize` leaves, by default the latest, waiting up to `waitMs` for one that covers the whole
 * story. An `EvidenceError` when the record has no story, no event of it is covered, or its events
 * cannot be shown to be its own without their positions (a record named by a position).
 */
export async function recordEvidenceBundle(
  sources: RecordEvidenceSources,
  store: TreeStore,
  request: {
    record: RecordRef;
    resource: string;
    treeSize?: number;
    waitMs?: number;
    /** The key store to disclose the subjects' keys from; none: nothing disclosed. */
    disclose?: SubjectKeyStore;
  },
): Promise<RecordEvidenceBundle> {
  const { record, resource, treeSize, waitMs = COVERING_WAIT_MS, disclose } = request;
  const named = { module: record.module, resource, id: record.id };
  const story = await recordStory({ ...sources, events: sources.storedEvents }, record);
  const last = story.at(-1);
  if (!last) throw new EvidenceError(`${nameOf(named)} has no history`);
  const checkpoint = await checkpointFor(store, last.position, treeSize, waitMs);
  const events: RecordEventProof[] = [];
  for (const event of story) {
    const leaf = store.leafAt(event.position);
    if (!leaf || leaf.index >= checkpoint.size) break;
    const proof = proofHashes(store, leaf.index, checkpoint.size);
    events.push({
      event: withoutPosition(event),
      index: leaf.index,
      leaf_hash: leaf.hash.toString('hex'),
      hashes: proof,
    });
  }
  if (events.length === 0) {
    const later = treeSize === undefined ? ' yet: try again in a second' : '';
    throw new EvidenceError(
      `No event of ${nameOf(named)} is in the checkpoint of ${checkpoint.size} leaves${later}`,
    );
  }
  if (strangerInStory(sources.catalog, record, events.map(unpositioned))) {
    throw new EvidenceError(
      `The events of ${nameOf(named)} cannot be shown to be its own without their log positions, which no proof covers: prove each on its own (/api/v1/evidence, suite audit prove --position)`,
    );
  }
  const left = story.length - events.length;
  return {
    format: RECORD_EVIDENCE_FORMAT,
    ...named,
    tree_size: checkpoint.size,
    checkpoint: checkpoint.note,
    events,
    ...(left > 0 && { not_yet_covered: left }),
    ...(disclose && {
      disclosed: await disclosedKeys(
        events.map(({ event }) => event),
        disclose,
      ),
    }),
  };
}

const RecordBundleSchema = z.strictObject({
  format: z.literal(RECORD_EVIDENCE_FORMAT),
  module: z.string(),
  resource: z.string(),
  id: z.union([z.number().int(), z.string()]),
  tree_size: Count,
  checkpoint: CheckpointNote,
  events: z
    .array(
      z.strictObject({
        event: BundledEvent.omit({ position: true }).strict(),
        index: Count,
        leaf_hash: HexHash,
        hashes: ProofHashes,
      }),
    )
    .min(1),
  not_yet_covered: z.number().int().positive().optional(),
  disclosed: z.array(DisclosedKeySchema).optional(),
});

/**
 * The first number of a JSON text that JSON.stringify would write otherwise (`-0`, `1e021`, `5.0`):
 * a second spelling of a value that hashes the same, which no bundle the suite writes holds.
 */
function respelledNumber(text: string): string | undefined {
  for (const [token] of text.matchAll(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    if (!token.startsWith('"') && JSON.stringify(Number(token)) !== token) return token;
  }
  return undefined;
}

/** How the suite names one record (`auditedRecord` over its modules); throws for a record it has no such resource for. */
export type RecordResolver = (path: { module: string; resource: string; id: string }) => RecordRef;

/** A record bundle that holds, and the record folded from its events by the record's own projection. */
export interface VerifiedRecord {
  bundle: RecordEvidenceBundle;
  record: RecordRef;
  /**
   * The record after each event, its sealed values opened by the disclosed keys (or read as erased),
   * sealed where none was disclosed; `error` where the projection could not apply one.
   */
  steps: ReturnType<typeof foldedSteps>;
  /** The values the disclosed keys open, or that their keys were erased; none when none was disclosed. */
  disclosed: DisclosedValue[];
}

const eventName = ({ event, index }: RecordEventProof) =>
  `the event at index ${index} (${event.stream} revision ${event.revision})`;

/** What fails of the bundle's events among themselves: log order, and each stream's hash chain. */
function orderProblem(events: readonly RecordEventProof[]): string | undefined {
  const lastOf = new Map<string, ProvenEvent>();
  let previous: number | undefined;
  for (const proof of events) {
    const { event, index } = proof;
    if (previous !== undefined && index <= previous) {
      return `${eventName(proof)}: its index is not after the one before it (${previous}): not in log order`;
    }
    previous = index;
    const before = lastOf.get(event.stream);
    if (event.revision === 0 && event.prev_hash !== GENESIS_HASH) {
      return `${eventName(proof)}: the first of its stream, but its previous hash is not the genesis hash`;
    }
    if (before && event.revision <= before.revision) {
      return `${eventName(proof)}: its revision is not after that of the stream's event before it (${before.revision})`;
    }
    if (before && event.revision === before.revision + 1 && event.prev_hash !== before.hash) {
      return `${eventName(proof)}: its previous hash is not the hash of revision ${before.revision}`;
    }
    lastOf.set(event.stream, event);
  }
  return undefined;
}

/**
 * Checks a record bundle with nothing but its text, the verifier key and the suite's code (`catalog`
 * and `resolve`, for the record's projection): the checkpoint's signature; each event's content
 * against its hash, its hash against its leaf, its inclusion proof against the signed root; their log
 * order and stream chains; that each belongs to the named record's story. Answers what failed, or the
 * record folded from the events by the suite's own projection.
 */
export function checkRecordBundle(
  text: string,
  verifierKey: string,
  suite: { catalog: SuiteCatalog; resolve: RecordResolver },
): { problem: string } | VerifiedRecord {
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch (error) {
    return { problem: `the file: ${error instanceof Error ? error.message : String(error)}` };
  }
  const respelled = respelledNumber(text);
  if (respelled !== undefined)
    return { problem: `the file: the number ${respelled} is not as the suite writes it` };
  const parsed = RecordBundleSchema.safeParse(file);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    return {
      problem: `not a record evidence bundle: ${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'malformed'}`,
    };
  }
  const bundle = parsed.data as RecordEvidenceBundle;
  let record: RecordRef;
  try {
    record = suite.resolve({ module: bundle.module, resource: bundle.resource, id: String(bundle.id) });
  } catch (error) {
    return { problem: `the record: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (record.id !== bundle.id)
    return {
      problem: `the record: its id is ${JSON.stringify(record.id)}, not ${JSON.stringify(bundle.id)}`,
    };
  const signed = signedCheckpoint(bundle.checkpoint, verifierKey, bundle.tree_size);
  if (typeof signed === 'string') return { problem: signed };
  for (const proof of bundle.events) {
    const problem = inclusionProblem({ ...proof, tree_size: bundle.tree_size }, signed.root);
    if (problem) return { problem: `${eventName(proof)}: ${problem}` };
  }
  const disorder = orderProblem(bundle.events);
  if (disorder) return { problem: disorder };
  const events = bundle.events.map(unpositioned);
  const stranger = strangerInStory(suite.catalog, record, events);
  if (stranger) {
    return { problem: `${eventName(bundle.events[stranger.at] as RecordEventProof)}: ${stranger.reason}` };
  }
  if (!bundle.disclosed) {
    return { bundle, record, steps: foldedSteps(suite.catalog, record.projection, events), disclosed: [] };
  }
  const checked = checkDisclosure(
    bundle.events.map(({ event, index }) => ({ place: `index ${index}`, data: event.data })),
    bundle.disclosed,
  );
  if ('problem' in checked) return { problem: `the disclosed keys: ${checked.problem}` };
  const keys = disclosedKeysBySubject(bundle.disclosed);
  const opened = events.map((event) => ({ ...event, data: openValue(event.data, keys) }));
  return {
    bundle,
    record,
    steps: foldedSteps(suite.catalog, record.projection, opened),
    disclosed: checked.values,
  };
}

/** The record after the last event of a verified bundle: `null` when its projection deleted it. */
export const finalRecord = ({ steps }: VerifiedRecord): Document | null => steps.at(-1)?.record ?? null;

import { DomainError } from '../commands/errors';
import type { EventStore } from '../events/event-store';
import { consistencyProof, inclusionProof, type Hash } from './merkle';
import { treeReader, type TreeStore } from './tree-store';

const hex = (hashes: readonly Hash[]) => hashes.map((hash) => hash.toString('hex'));

const invalid = (field: string, message: string) =>
  new DomainError('validation_error', `${field}: ${message}`, {
    issues: [{ loc: ['query', field], msg: message, type: 'value_error' }],
  });

/** The size of the latest checkpoint: proofs are given for the trees the suite has signed. */
function signedSize(store: TreeStore): number {
  return store.latestCheckpoint()?.size ?? 0;
}

function treeSize(store: TreeStore, asked: number | undefined, field: string): number {
  const latest = signedSize(store);
  const size = asked ?? latest;
  if (size < 1 || size > latest) {
    throw invalid(field, `must be from 1 to the latest checkpoint's size, ${latest}`);
  }
  return size;
}

/**
 * The inclusion proof of an event (by leaf index, or by log position) in a signed tree: the event, its
 * leaf hash and the proof's hashes in RFC 9162 §2.1.3.1 order.
 */
export async function inclusion(
  store: TreeStore,
  eventStore: EventStore,
  query: { index?: number; position?: number; tree_size?: number },
) {
  const size = treeSize(store, query.tree_size, 'tree_size');
  if (query.index !== undefined && query.position !== undefined) {
    throw invalid('position', 'give index or position, not both');
  }
  let leaf;
  if (query.position !== undefined) {
    leaf = store.leafAt(query.position);
    if (!leaf && !(await eventStore.eventAt(query.position))) {
      throw new DomainError('not_found', `No event at position ${query.position}`);
    }
  } else if (query.index !== undefined) {
    leaf = store.leaf(query.index);
  } else {
    throw invalid('index', 'give index or position');
  }
  if (!leaf || leaf.index >= size)
    throw invalid(
      query.position === undefined ? 'index' : 'position',
      `not within the tree of ${size} leaves`,
    );
  const event = await eventStore.eventAt(leaf.position);
  return {
    index: leaf.index,
    tree_size: size,
    position: leaf.position,
    leaf_hash: leaf.hash.toString('hex'),
    hashes: hex(inclusionProof(leaf.index, size, treeReader(store))),
    event,
  };
}

/** The consistency proof between two signed trees (RFC 9162 §2.1.4.1); empty when the sizes are equal. */
export async function consistency(store: TreeStore, query: { from?: number; to?: number }) {
  const to = treeSize(store, query.to, 'to');
  const from = query.from;
  if (from === undefined || from < 1 || from > to) throw invalid('from', `must be from 1 to ${to}`);
  return { from, to, hashes: hex(from === to ? [] : consistencyProof(from, to, treeReader(store))) };
}

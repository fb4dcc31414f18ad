import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Hash, NodeReader, TreeNode } from './merkle';
import { LOG_TREE_SCHEMA } from './tree-schema';
import { applySchema, checkSchema } from '../sqlite-schema';

/** A leaf: the event at `position` is leaf `index` (positions need not be dense: EventStoreDB's are not). */
export interface Leaf {
  index: number;
  position: number;
  hash: Hash;
}

/** A signed checkpoint as kept: the auditors' receipt for the tree of that size. */
export interface KeptCheckpoint {
  size: number;
  root: Hash;
  /** The whole signed note (C2SP signed-note of a tlog-checkpoint). */
  note: string;
  signed_at: string;
  /** The witnesses' cosignature lines (C2SP tlog-cosignature) gathered on it, one per witness. */
  cosignatures: string;
}

/** The note as served: the log's signed note with the witnesses' cosignature lines after its signature. */
export const cosignedNote = (checkpoint: Pick<KeptCheckpoint, 'note' | 'cosignatures'>): string =>
  checkpoint.note + checkpoint.cosignatures;

/**
 * Where the Merkle tree over the log is kept: the hashes of its complete perfect subtrees (so that a
 * root or a proof is O(log n) reads), how far into the log it reaches, and every checkpoint signed.
 */
export interface TreeStore {
  /** Leaves in the tree (the events it covers), and the position of the last (0: none). */
  extent(): { size: number; lastPosition: number };
  node(level: number, index: number): Hash;
  /** The leaf of the event at a position, if the tree covers it; and the leaf of an index. */
  leafAt(position: number): Leaf | undefined;
  leaf(index: number): Leaf | undefined;
  /** The leaves from index `from` on, in order, at most `limit`. */
  leaves(from: number, limit: number): Leaf[];
  /** Adds the next leaves and the inner nodes they complete, in one transaction. */
  grow(leaves: readonly Leaf[], inner: readonly TreeNode[]): void;
  /** Drops the leaves from index `size` on, and the nodes over them: the tree of `size` leaves is left. */
  truncate(size: number): void;
  keepCheckpoint(checkpoint: Omit<KeptCheckpoint, 'cosignatures'>): void;
  /** Sets the cosignature lines of the checkpoint of `size` (those gathered so far, one per witness). */
  keepCosignatures(size: number, cosignatures: string): void;
  latestCheckpoint(): KeptCheckpoint | undefined;
  checkpointOfSize(size: number): KeptCheckpoint | undefined;
  /** The sizes and signing times of the kept checkpoints above `size`, smallest first, at most `limit`. */
  checkpointsAfter(size: number, limit: number): Pick<KeptCheckpoint, 'size' | 'signed_at'>[];
  /** The sizes of kept checkpoints nearest `size`, below and above it. */
  checkpointSizesNear(size: number): number[];
  close(): void;
}

/** The tree's nodes as proofs read them. */
export const treeReader =
  (store: TreeStore): NodeReader =>
  (level, index) =>
    store.node(level, index);

type CheckpointRow = KeptCheckpoint;
const CHECKPOINT_COLUMNS = 'size, root, note, signed_at, cosignatures';

/** The file of the tree in a data directory: that of the process that follows the log and signs. */
export const treeStoreFile = (dataDir: string) => path.join(dataDir, 'log-tree.db');

/**
 * The embedded tree store: a SQLite file (`log-tree.db`), rebuilt from the log if lost. `readOnly`
 * (the CLI, which never writes the tree): answers undefined when there is no such file.
 */
export function openSqliteTreeStore(file: string, options: { readOnly: true }): TreeStore | undefined;
export function openSqliteTreeStore(file: string, options?: { readOnly?: false }): TreeStore;
export function openSqliteTreeStore(file: string, { readOnly = false } = {}): TreeStore | undefined {
  if (readOnly && !existsSync(file)) return undefined;
  const db = new Database(file, { readonly: readOnly });
  if (readOnly) checkSchema(db, LOG_TREE_SCHEMA);
  else {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    applySchema(db, LOG_TREE_SCHEMA);
  }
  const statements = {
    leaf: db.prepare<[number], Leaf>('SELECT idx AS "index", position, hash FROM leaves WHERE idx = ?'),
    leaves: db.prepare<[number, number], Leaf>(
      'SELECT idx AS "index", position, hash FROM leaves WHERE idx >= ? ORDER BY idx LIMIT ?',
    ),
    last: db.prepare<[], Leaf>('SELECT idx AS "index", position, hash FROM leaves ORDER BY idx DESC LIMIT 1'),
    node: db.prepare<[number, number], Buffer>('SELECT hash FROM nodes WHERE level = ? AND idx = ?').pluck(),
    insertLeaf: db.prepare<[number, number, Buffer]>(
      'INSERT INTO leaves (idx, position, hash) VALUES (?, ?, ?)',
    ),
    insertNode: db.prepare<[number, number, Buffer]>('INSERT INTO nodes (level, idx, hash) VALUES (?, ?, ?)'),
    dropLeaves: db.prepare<[number]>('DELETE FROM leaves WHERE idx >= ?'),
    dropNodes: db.prepare<[number]>('DELETE FROM nodes WHERE (idx + 1) * (1 << level) > ?'),
    keep: db.prepare<[number, Buffer, string, string]>(
      'INSERT OR IGNORE INTO checkpoints (size, root, note, signed_at) VALUES (?, ?, ?, ?)',
    ),
    cosign: db.prepare<[string, number]>('UPDATE checkpoints SET cosignatures = ? WHERE size = ?'),
    latest: db.prepare<[], CheckpointRow>(
      `SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints ORDER BY size DESC LIMIT 1`,
    ),
    ofSize: db.prepare<[number], CheckpointRow>(
      `SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints WHERE size = ?`,
    ),
    after: db.prepare<[number, number], Pick<KeptCheckpoint, 'size' | 'signed_at'>>(
      'SELECT size, signed_at FROM checkpoints WHERE size > ? ORDER BY size LIMIT ?',
    ),
    below: db
      .prepare<[number], number>('SELECT size FROM checkpoints WHERE size < ? ORDER BY size DESC LIMIT 2')
      .pluck(),
    above: db
      .prepare<[number], number>('SELECT size FROM checkpoints WHERE size > ? ORDER BY size LIMIT 2')
      .pluck(),
  };
  const grow = db.transaction((leaves: readonly Leaf[], inner: readonly TreeNode[]) => {
    for (const { index, position, hash } of leaves) statements.insertLeaf.run(index, position, hash);
    for (const { level, index, hash } of inner) statements.insertNode.run(level, index, hash);
  });
  const truncate = db.transaction((size: number) => {
    statements.dropLeaves.run(size);
    statements.dropNodes.run(size);
  });
  return {
    extent() {
      const last = statements.last.get();
      return last ? { size: last.index + 1, lastPosition: last.position } : { size: 0, lastPosition: 0 };
    },
    node(level, index) {
      const hash = level === 0 ? statements.leaf.get(index)?.hash : statements.node.get(level, index);
      if (!hash) throw new RangeError(`The tree has no node (${level}, ${index})`);
      return hash;
    },
    leafAt(position) {
      // Positions grow with the index: a binary search, where an index on positions would cost every append.
      for (let low = 0, high = this.extent().size - 1; low <= high;) {
        const middle = Math.floor((low + high) / 2);
        const leaf = statements.leaf.get(middle) as Leaf;
        if (leaf.position === position) return leaf;
        if (leaf.position < position) low = middle + 1;
        else high = middle - 1;
      }
      return undefined;
    },
    leaf: (index) => statements.leaf.get(index),
    leaves: (from, limit) => statements.leaves.all(from, limit),
    grow(leaves, inner) {
      grow.immediate(leaves, inner);
    },
    truncate(size) {
      truncate.immediate(size);
    },
    keepCheckpoint({ size, root, note, signed_at }) {
      statements.keep.run(size, root, note, signed_at);
    },
    keepCosignatures(size, cosignatures) {
      statements.cosign.run(cosignatures, size);
    },
    checkpointsAfter: (size, limit) => statements.after.all(size, limit),
    latestCheckpoint: () => statements.latest.get(),
    checkpointOfSize: (size) => statements.ofSize.get(size),
    checkpointSizesNear: (size) => [...statements.below.all(size).reverse(), ...statements.above.all(size)],
    close: () => db.close(),
  };
}

import type { EventStore } from '../events/event-store';
import { leafOf } from './log-against-tree';
import { HASH_BYTES } from './merkle-hash';
import type { TreeStore } from './tree-store';

/**
 * The tree as C2SP tlog-tiles serves it: tiles of height 8, each the hashes of 256 consecutive nodes
 * of one level of the tree (level L of tiles is tree level 8·L), and entry bundles, the leaf inputs of
 * 256 consecutive leaves. A partial tile holds the first W of them.
 */

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;
/** The highest tile level the spec allows. */
const MAX_LEVEL = 63;

/** A tile (or an entry bundle, `level` undefined): its index in its level, and its width. */
export interface TileAddress {
  level?: number;
  index: number;
  /** 256 for a full tile; 1 to 255 for a partial one. */
  width: number;
}

/** `N` as the spec writes it in a path: 3-digit groups, all but the last prefixed `x` (`x001/x234/067`). */
export function tileIndexPath(index: number): string {
  const groups = [];
  for (let rest = index; ; rest = Math.floor(rest / 1000)) {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    if (rest < 1000) break;
  }
  return groups.map((group, at) => (at < groups.length - 1 ? `x${group}` : group)).join('/');
}

/** The level of a tile path (`0` to `63`, no leading zeros); undefined if it is not one. */
export function tileLevel(text: string): number | undefined {
  const level = Number(text);
  return /^(0|[1-9]\d?)$/.test(text) && level <= MAX_LEVEL ? level : undefined;
}

/** `<N>[.p/<W>]` of a tile path, as the spec encodes it and only so; undefined otherwise. */
export function tileIndex(text: string): { index: number; width: number } | undefined {
  const match = /^((?:x\d{3}\/)*\d{3})(?:\.p\/([1-9]\d{0,2}))?$/.exec(text);
  if (!match) return undefined;
  const [, encoded = '', partial] = match;
  const index = Number(encoded.replaceAll('x', '').replaceAll('/', ''));
  const width = partial === undefined ? TILE_WIDTH : Number(partial);
  if (
    !Number.isSafeInteger(index) ||
    tileIndexPath(index) !== encoded ||
    width >= TILE_WIDTH + (partial ? 0 : 1)
  )
    return undefined;
  return { index, width };
}

/** Whether the tree of `size` leaves holds the tile: every node it covers is complete. */
export function tileWithin({ level = 0, index, width }: TileAddress, size: number): boolean {
  return (index * TILE_WIDTH + width) * TILE_WIDTH ** level <= size;
}

/** A tile's bytes: the hashes of its nodes, in order, 32 bytes each. */
export function hashTile(store: TreeStore, { level = 0, index, width }: TileAddress): Buffer {
  const nodes = Array.from({ length: width }, (_, at) =>
    store.node(level * TILE_HEIGHT, index * TILE_WIDTH + at),
  );
  return Buffer.concat(nodes, width * HASH_BYTES);
}

/**
 * An entry bundle's bytes: each leaf's input (its event's 32-byte hash, which is all the tree
 * covers) after its length as a big-endian uint16. Each is checked against the leaf hash the tree
 * holds, so a bundle never disagrees with its tile.
 */
export async function entryBundle(
  eventStore: EventStore,
  store: TreeStore,
  { index, width }: TileAddress,
): Promise<Buffer> {
  const first = index * TILE_WIDTH;
  const after = first === 0 ? 0 : (store.leaf(first - 1)?.position ?? Number.NaN);
  const events = await eventStore.readAll({ after, limit: width });
  const entries = events.map((event, at) => {
    if (!store.leaf(first + at)?.hash.equals(leafOf(event))) {
      throw new Error(`leaf ${first + at} of the tree is not the hash of the event at ${event.position}`);
    }
    const length = Buffer.alloc(2);
    length.writeUInt16BE(HASH_BYTES);
    return Buffer.concat([length, Buffer.from(event.hash, 'hex')]);
  });
  if (entries.length !== width) throw new Error(`the log holds fewer events than leaf ${first + width - 1}`);
  return Buffer.concat(entries);
}

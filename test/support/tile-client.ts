import { createHash, createPublicKey, verify } from 'node:crypto';

/**
 * A tlog-tiles client written from the C2SP specifications alone (tlog-tiles, tlog-checkpoint,
 * signed-note), sharing no code with src/log-proofs: it reads a checkpoint, checks the log's
 * signature, and recomputes the root from tiles, RFC 6962 hashing, as any follower of the log would.
 */

/** GETs a path under the log's prefix: its status and bytes. */
export type Fetcher = (path: string) => Promise<{ status: number; body: Buffer }>;

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leaf = (input: Buffer) => sha256(Buffer.of(0), input);
const node = (left: Buffer, right: Buffer) => sha256(Buffer.of(1), left, right);

export interface ParsedCheckpoint {
  origin: string;
  size: number;
  root: Buffer;
  extensions: string[];
}

/**
 * The checkpoint of a signed note, if the verifier key `<name>+<hex id>+base64(0x01 ‖ key)` signed it
 * (signed-note: the signature covers the text up to and including the newline before the blank line).
 */
export function openCheckpoint(note: string, verifierKey: string): ParsedCheckpoint {
  const [, name = '', id = '', encoded = ''] = /^([^+]+)\+([0-9a-f]{8})\+(.+)$/.exec(verifierKey) ?? [];
  const key = Buffer.from(encoded, 'base64');
  const publicKey = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), key.subarray(1)]),
    format: 'der',
    type: 'spki',
  });
  const split = note.lastIndexOf('\n\n');
  const text = note.slice(0, split + 1);
  const signed = note
    .slice(split + 2)
    .split('\n')
    .filter((line) => line.startsWith(`\u2014 ${name} `))
    .map((line) => Buffer.from(line.slice(name.length + 3), 'base64'))
    .some(
      (signature) =>
        signature.subarray(0, 4).toString('hex') === id &&
        verify(null, Buffer.from(text), publicKey, signature.subarray(4)),
    );
  if (!signed) throw new Error(`no valid signature by ${name}`);
  const [origin = '', size = '', root = '', ...extensions] = text.slice(0, -1).split('\n');
  return { origin, size: Number(size), root: Buffer.from(root, 'base64'), extensions };
}

/** `N` as a tile path: 3-digit groups, all but the last prefixed with `x`. */
function indexPath(n: number): string {
  const digits = String(n).padStart(3 * Math.max(1, Math.ceil(String(n).length / 3)), '0');
  const groups = digits.match(/\d{3}/g) ?? [];
  return groups.map((group, at) => (at < groups.length - 1 ? `x${group}` : group)).join('/');
}

/** The path of tile (level, n) of a tree of `size` leaves: a partial one's width where it is partial. */
function tilePath(kind: string, n: number, level: number, size: number): { path: string; width: number } {
  const full = (n + 1) * 256 * 256 ** level <= size;
  const width = full ? 256 : Math.floor(size / 256 ** level) % 256;
  return { path: `tile/${kind}/${indexPath(n)}${full ? '' : `.p/${width}`}`, width };
}

/** Reads a tree of `size` leaves from tiles, each fetched once. */
export function tileReader(get: Fetcher, size: number) {
  const tiles = new Map<string, Promise<Buffer>>();
  const fetchTile = (kind: string, n: number, level: number) => {
    const { path, width } = tilePath(kind, n, level, size);
    let tile = tiles.get(path);
    if (!tile) {
      tile = get(path).then(({ status, body }) => {
        if (status !== 200) throw new Error(`GET ${path}: ${status}`);
        return body;
      });
      tiles.set(path, tile);
    }
    return tile.then((body) => ({ body, width, path }));
  };

  /** The hash of the complete subtree at tree height `height`, index `index` (its leaves within `size`). */
  async function subtree(height: number, index: number): Promise<Buffer> {
    const level = Math.floor(height / 8);
    const rest = height % 8;
    const first = index * 2 ** rest;
    const { body, width, path } = await fetchTile(String(level), Math.floor(first / 256), level);
    if (body.length !== width * 32) throw new Error(`${path}: ${body.length} bytes for ${width} hashes`);
    let hashes = Array.from({ length: 2 ** rest }, (_, at) => {
      const offset = ((first % 256) + at) * 32;
      return body.subarray(offset, offset + 32);
    });
    while (hashes.length > 1)
      hashes = hashes.flatMap((_, at) =>
        at % 2 === 0 ? [node(hashes[at] as Buffer, hashes[at + 1] as Buffer)] : [],
      );
    return hashes[0] as Buffer;
  }

  return {
    /** MTH of the whole tree: the complete subtrees of its size's binary decomposition, folded from the right. */
    async root(): Promise<Buffer> {
      if (size === 0) return sha256();
      const parts: Buffer[] = [];
      let start = 0;
      for (let height = 52; height >= 0; height--) {
        if (start + 2 ** height <= size) {
          parts.push(await subtree(height, start / 2 ** height));
          start += 2 ** height;
        }
      }
      return parts.reduceRight((right, left) => node(left, right));
    },
    /** Every leaf input of the tree, from the entry bundles, each checked against its level-0 tile hash. */
    async entries(): Promise<Buffer[]> {
      const entries: Buffer[] = [];
      for (let n = 0; n * 256 < size; n++) {
        const { body: bundle, width, path } = await fetchTile('entries', n, 0);
        const { body: hashes } = await fetchTile('0', n, 0);
        const inBundle: Buffer[] = [];
        for (let offset = 0; offset < bundle.length;) {
          const length = bundle.readUInt16BE(offset);
          inBundle.push(bundle.subarray(offset + 2, offset + 2 + length));
          offset += 2 + length;
        }
        if (inBundle.length !== width) throw new Error(`${path}: ${inBundle.length} entries for ${width}`);
        inBundle.forEach((entry, at) => {
          if (!leaf(entry).equals(hashes.subarray(at * 32, at * 32 + 32))) {
            throw new Error(`${path}: entry ${at} does not hash to its level-0 tile's hash`);
          }
        });
        entries.push(...inBundle);
      }
      return entries;
    },
  };
}

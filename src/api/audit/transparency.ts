import { z } from 'zod';
import { cosignedNote, type KeptCheckpoint } from '../../log-proofs/tree-store';
import {
  entryBundle,
  hashTile,
  tileIndex,
  tileIndexPath,
  tileLevel,
  tileWithin,
  type TileAddress,
} from '../../log-proofs/tiles';
import { ApiError } from '../kit/errors';
import type { RouteAnswer } from '../kit/module';
import { integerParameter } from '../kit/validation';
import { treeOf } from './proofs';
import type { AuditRoute, AuditServices } from './services';

/**
 * What anyone may read of the log, without a credential: its signed checkpoints (with the witnesses'
 * cosignatures) and the tree as C2SP tlog-tiles, which hold hashes only. Each read counts against
 * the client address's budget (SUITE_LOG_READ_RATE_LIMIT).
 */

/** A checkpoint changes as the log grows, or as cosignatures come: kept a second at most. */
const CHECKPOINT_CACHE = 'public, max-age=1';
/** A tile never changes once served: a partial one is a prefix that stays as it is. */
const TILE_CACHE = 'public, max-age=31536000, immutable';
const NOTE_TYPE = 'text/plain; charset=utf-8';
const TILE_TYPE = 'application/octet-stream';
const LIST_LIMIT = 1_000;

const UNAVAILABLE = { 503: { description: 'This process keeps no tree over the log (read-only)' } };
const RATE_LIMITED = {
  429: { description: 'Too many reads from this address (`rate_limited`; see Retry-After)' },
};

const noteAnswer = (checkpoint: KeptCheckpoint): RouteAnswer => ({
  status: 200,
  text: cosignedNote(checkpoint),
  mediaType: NOTE_TYPE,
});

function latestCheckpoint(services: AuditServices): KeptCheckpoint {
  const latest = treeOf(services).latestCheckpoint();
  if (!latest) throw new ApiError('not_found', 'No checkpoint has been signed yet');
  return latest;
}

const CheckpointQuery = z.strictObject({
  size: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'The tree size of a kept checkpoint (default: the latest)' }),
});

const NOTE_RESPONSE = {
  description:
    'The signed note: a C2SP tlog-checkpoint (origin, tree size, root hash, and the extension line `suite.local/log time <RFC 3339>`), the log\u2019s signature, then each witness\u2019s C2SP cosignature/v1 line gathered so far',
  mediaType: NOTE_TYPE,
};

const getCheckpoint: AuditRoute<z.infer<typeof CheckpointQuery>> = {
  method: 'get',
  path: '/api/v1/checkpoint',
  operation: 'getCheckpoint',
  summary: 'A signed checkpoint of the log, the latest or the kept one of a size; no credential needed',
  auth: 'public',
  role: null,
  cacheControl: CHECKPOINT_CACHE,
  query: CheckpointQuery,
  responses: {
    200: NOTE_RESPONSE,
    404: { description: 'No checkpoint signed yet, or none kept of that size (the nearest kept are named)' },
    ...RATE_LIMITED,
    ...UNAVAILABLE,
  },
  async handle({ query }, services) {
    if (query.size === undefined) return noteAnswer(latestCheckpoint(services));
    const store = treeOf(services);
    const kept = store.checkpointOfSize(query.size);
    if (kept) return noteAnswer(kept);
    const nearest = store.checkpointSizesNear(query.size);
    throw new ApiError(
      'not_found',
      `No checkpoint of ${query.size} leaves is kept; the nearest kept: ${nearest.join(', ') || 'none'}`,
      {
        nearest_sizes: nearest,
      },
    );
  },
};

const CheckpointsQuery = z.strictObject({
  after: integerParameter({ min: 0 }).optional().meta({
    description: 'List the kept checkpoints larger than this tree size (default 0: from the first)',
  }),
  limit: integerParameter({ min: 1, max: LIST_LIMIT })
    .optional()
    .meta({ description: `At most this many (default 100, at most ${LIST_LIMIT})` }),
});

const KeptCheckpointItem = z
  .object({
    size: z.number().int().meta({ description: 'Its tree size: `GET /api/v1/checkpoint?size=` serves it' }),
    time: z.string().meta({ description: 'When the suite signed it (RFC 3339, UTC)' }),
  })
  .meta({ id: 'KeptCheckpoint' });

const listCheckpoints: AuditRoute<z.infer<typeof CheckpointsQuery>> = {
  method: 'get',
  path: '/api/v1/checkpoints',
  operation: 'listCheckpoints',
  summary:
    'The sizes of the checkpoints the suite kept, with their signing times, smallest first; no credential needed',
  auth: 'public',
  role: null,
  query: CheckpointsQuery,
  responses: {
    200: {
      description:
        'A page of kept checkpoints; `meta.next_after` is the `after` of the next page (null: none)',
      schema: z.object({
        data: z.array(KeptCheckpointItem),
        meta: z.object({
          after: z.number().int(),
          limit: z.number().int(),
          next_after: z.number().int().nullable(),
        }),
      }),
    },
    ...RATE_LIMITED,
    ...UNAVAILABLE,
  },
  async handle({ query: { after = 0, limit = 100 } }, services) {
    const kept = treeOf(services).checkpointsAfter(after, limit + 1);
    const page = kept.slice(0, limit).map(({ size, signed_at }) => ({ size, time: signed_at }));
    const next_after = kept.length > limit ? (page.at(-1)?.size ?? null) : null;
    return { status: 200, body: { data: page, meta: { after, limit, next_after } } };
  },
};

const getTlogCheckpoint: AuditRoute = {
  method: 'get',
  path: '/checkpoint',
  operation: 'getTileCheckpoint',
  summary: 'The latest signed checkpoint, where C2SP tlog-tiles clients look for it (`<prefix>/checkpoint`)',
  tags: ['tiles'],
  auth: 'public',
  role: null,
  cacheControl: CHECKPOINT_CACHE,
  responses: {
    200: NOTE_RESPONSE,
    404: { description: 'No checkpoint has been signed yet' },
    ...RATE_LIMITED,
    ...UNAVAILABLE,
  },
  async handle(_input, services) {
    return noteAnswer(latestCheckpoint(services));
  },
};

/** The tile a path names, if the latest checkpoint covers it; else 404 saying why. */
function servedTile(services: AuditServices, level: number | undefined, path: string): TileAddress {
  const index = tileIndex(path);
  if (!index) {
    throw new ApiError(
      'not_found',
      `Not a tile: ${JSON.stringify(path)} is not <N>[.p/<W>] as C2SP tlog-tiles encodes it (x001/x234/067.p/5)`,
    );
  }
  const tile = { level, ...index };
  const size = treeOf(services).latestCheckpoint()?.size ?? 0;
  if (!tileWithin(tile, size)) {
    throw new ApiError(
      'not_found',
      `The latest checkpoint (${size} leaves) does not cover ${tileIndexPath(tile.index)}${tile.width < 256 ? `.p/${tile.width}` : ''}${level === undefined ? ' of the entries' : ` at level ${level}`}`,
    );
  }
  return tile;
}

const tileAnswer = (bytes: Buffer): RouteAnswer => ({
  status: 200,
  text: bytes,
  mediaType: TILE_TYPE,
});

const TILE_PATH = z.object({
  tile: z.string().meta({
    description:
      '`<N>[.p/<W>]`: the index in 3-digit groups, all but the last prefixed `x` (`x001/x234/067`), and a partial tile\u2019s width',
  }),
});

const TILE_MISSING = {
  404: { description: 'Not a tile path, or a tile the latest checkpoint does not cover' },
};

// Declared before the hash tiles', whose level would otherwise take `entries`.
const getEntryBundle: AuditRoute = {
  method: 'get',
  path: '/tile/entries/*tile',
  operation: 'getEntryBundle',
  summary:
    'An entry bundle (C2SP tlog-tiles): each leaf\u2019s input, its event\u2019s 32-byte hash, after its length as a big-endian uint16',
  tags: ['tiles'],
  auth: 'public',
  role: null,
  cacheControl: TILE_CACHE,
  params: TILE_PATH,
  responses: {
    200: { description: 'The bundle, 34 bytes a leaf', mediaType: TILE_TYPE },
    ...TILE_MISSING,
    ...RATE_LIMITED,
    ...UNAVAILABLE,
  },
  async handle({ params }, services) {
    const tile = servedTile(services, undefined, params.tile ?? '');
    return tileAnswer(await entryBundle(services.storedEvents, treeOf(services), tile));
  },
};

const getHashTile: AuditRoute = {
  method: 'get',
  path: '/tile/:level/*tile',
  operation: 'getTile',
  summary:
    'A tile of the tree (C2SP tlog-tiles, height 8): the hashes of 256 consecutive nodes of tree level 8\u00b7L, or of the first W',
  tags: ['tiles'],
  auth: 'public',
  role: null,
  cacheControl: TILE_CACHE,
  params: TILE_PATH.extend({
    level: z.string().meta({ description: 'The tile level, 0 to 63: level 0 holds leaf hashes' }),
  }),
  responses: {
    200: { description: 'The tile, 32 bytes a hash', mediaType: TILE_TYPE },
    ...TILE_MISSING,
    ...RATE_LIMITED,
    ...UNAVAILABLE,
  },
  async handle({ params }, services) {
    const level = tileLevel(params.level ?? '');
    if (level === undefined) {
      throw new ApiError(
        'not_found',
        `Not a tile level: ${JSON.stringify(params.level)} (0 to 63, no leading zeros)`,
      );
    }
    const tile = servedTile(services, level, params.tile ?? '');
    return tileAnswer(hashTile(treeOf(services), tile));
  },
};

/** The public routes of the log: checkpoints and tiles. */
export const transparencyRoutes = [
  getCheckpoint,
  listCheckpoints,
  getTlogCheckpoint,
  getEntryBundle,
  getHashTile,
];

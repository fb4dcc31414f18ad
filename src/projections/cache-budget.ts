/** The read store's cache budget unless `SUITE_CACHE_MB` says otherwise. */
export const DEFAULT_CACHE_MB = 64;

/**
 * A value larger than this share of the budget is not kept: one huge page would otherwise push out
 * everything else, and be pushed out itself by the next one.
 */
const LARGEST_SHARE = 1 / 32;

/** What a kept value costs besides its text: its record, its map slot, its key's header (an estimate). */
export const ENTRY_BYTES = 200;

/** Something a cache keeps, as the budget counts it; `drop` makes the cache forget it. */
export interface Kept {
  bytes: number;
  drop(): void;
}

/**
 * One byte budget shared by caches: each counts here what it keeps, and while the count is over the
 * budget the oldest values are dropped, whichever cache kept them.
 */
export interface CacheBudget {
  /** Whether a value of this many bytes may be kept at all. */
  admits(bytes: number): boolean;
  keep(kept: Kept): void;
  /** Counts the new size of a value still kept (a total whose listed ids changed). */
  resize(kept: Kept, bytes: number): void;
  /** Stops counting a value its cache has forgotten. */
  release(kept: Kept): void;
  /** Bytes counted now. */
  used(): number;
}

export function createCacheBudget(budgetBytes: number): CacheBudget {
  const kept = new Set<Kept>();
  let used = 0;

  function fit(): void {
    for (const oldest of kept) {
      if (used <= budgetBytes) return;
      kept.delete(oldest);
      used -= oldest.bytes;
      oldest.drop();
    }
  }

  return {
    admits: (bytes) => bytes <= budgetBytes * LARGEST_SHARE,
    keep(value) {
      kept.add(value);
      used += value.bytes;
      fit();
    },
    resize(value, bytes) {
      if (!kept.has(value)) return;
      used += bytes - value.bytes;
      value.bytes = bytes;
      fit();
    },
    release(value) {
      if (kept.delete(value)) used -= value.bytes;
    },
    used: () => used,
  };
}

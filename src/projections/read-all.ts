import type { ReadStore, ScanQuery, ScannedDocument } from './read-store';

/** The documents a page of `scanAll` holds unless its caller says otherwise. */
export const SCAN_PAGE = 5_000;

/**
 * Every document a find gives, in id order, read page by page after the last id read (keyset): each
 * page costs what its own documents cost, where pages by offset read every page before them again.
 */
export async function* scanAll(
  readStore: ReadStore,
  collection: string,
  query: Omit<ScanQuery, 'after' | 'limit'> = {},
  { pageSize = SCAN_PAGE, signal }: { pageSize?: number; signal?: AbortSignal } = {},
): AsyncGenerator<ScannedDocument> {
  for (let after: ScanQuery['after']; ;) {
    signal?.throwIfAborted();
    const page = await readStore.scan(collection, { ...query, after, limit: pageSize });
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]?.id;
  }
}

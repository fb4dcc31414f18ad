import type { FiguresRecord } from '../projections/market';
import { MARKET_COLLECTIONS } from '../projections/market';
import { scanAll } from '../projections/read-all';
import type { Filter, ReadStore } from '../projections/read-store';
import type { MarketCode } from './markets';

/** Every document of a collection that matches the filters, parsed, in id order. */
export async function readAll<Doc>(
  readStore: ReadStore,
  collection: string,
  filters: readonly Filter[] = [],
  options: { q?: string; signal?: AbortSignal } = {},
): Promise<Doc[]> {
  const docs: Doc[] = [];
  for await (const { doc } of scanAll(readStore, collection, { filters, q: options.q }, options)) {
    docs.push(JSON.parse(doc) as Doc);
  }
  return docs;
}

/** The latest computed figures of each market that has them. */
export async function figuresByMarket(readStore: ReadStore): Promise<Map<MarketCode, FiguresRecord>> {
  const all = await readAll<FiguresRecord>(readStore, MARKET_COLLECTIONS.figures);
  return new Map(all.map((figures) => [figures.country, figures]));
}

/** The date the data speaks of: the day of the newest observation (null before any). */
export async function asOfDate(readStore: ReadStore): Promise<string | null> {
  for (const figures of (await figuresByMarket(readStore)).values()) return figures.as_of;
  return null;
}

export const countOf = async (readStore: ReadStore, collection: string, filters: readonly Filter[] = []) =>
  (await readStore.find(collection, { filters, limit: 0, offset: 0 })).total;

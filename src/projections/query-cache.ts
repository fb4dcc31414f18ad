import type { FindQuery, FindResult } from './read-store';

/** Pages and totals kept per collection, each; the oldest goes first. */
const CACHED_QUERIES = 512;
const NON_ASCII = /[\u0080-\uffff]/;
const isAscii = (text: string) => !NON_ASCII.test(text);

/** A document as the search index holds it: whether it exists, and its search text (null: none). */
export interface IndexedState {
  exists: boolean;
  text: string | null;
}

/** One document as a commit changed it. */
export interface IndexedChange {
  before: IndexedState;
  after: IndexedState;
}

type Searched = Pick<FindQuery, 'filters' | 'q'>;

/**
 * Whether a document in `state` is among the query's results, or undefined when only the index can
 * tell: a filter, or text outside ASCII, where SQLite's case folding and JavaScript's may differ.
 */
type Membership = (state: IndexedState, ascii: boolean) => boolean | undefined;

function membership({ filters, q }: Searched): Membership {
  if (filters?.length) return () => undefined;
  const text = q?.toLowerCase();
  if (!text) return (state) => state.exists;
  if (!isAscii(text)) return () => undefined;
  // What the trigram index matches (and `instr` below three characters): a substring of the lower-cased text.
  return (state, ascii) => (ascii ? state.text?.includes(text) === true : undefined);
}

interface Entry<T> {
  member: Membership;
  value: T;
}

/**
 * The pages and totals one collection has answered, kept until a commit may have changed them. A live
 * write's commit (a few documents) moves the totals it can account for, instead of leaving them to be
 * counted again (at 1M records a search's count takes 5 to 40 ms, a page under 1 ms), and keeps the
 * pages of searches its documents match neither before nor after.
 */
export class QueryCache {
  private readonly pages = new Map<string, Entry<FindResult>>();
  private readonly totals = new Map<string, Entry<number>>();

  page(query: FindQuery): FindResult | undefined {
    return this.pages.get(pageKey(query))?.value;
  }

  total(query: Searched): number | undefined {
    return this.totals.get(totalKey(query))?.value;
  }

  remember(query: FindQuery, page: FindResult): void {
    const member = membership(query);
    keep(this.pages, pageKey(query), { member, value: page });
    keep(this.totals, totalKey(query), { member, value: page.total });
  }

  /** Accounts for a commit's changes: moves the totals it can, forgets what it may have changed. */
  apply(changes: readonly IndexedChange[]): void {
    const judged = changes.map((change) => ({
      ...change,
      ascii: isAscii(change.before.text ?? '') && isAscii(change.after.text ?? ''),
    }));
    for (const [key, { member }] of this.pages) {
      const touched = judged.some(
        ({ before, after, ascii }) => member(before, ascii) !== false || member(after, ascii) !== false,
      );
      if (touched) this.pages.delete(key);
    }
    for (const [key, entry] of this.totals) {
      for (const { before, after, ascii } of judged) {
        const was = entry.member(before, ascii);
        const is = entry.member(after, ascii);
        if (was === undefined || is === undefined) {
          this.totals.delete(key);
          break;
        }
        entry.value += Number(is) - Number(was);
      }
    }
  }

  clear(): void {
    this.pages.clear();
    this.totals.clear();
  }
}

function pageKey(query: FindQuery): string {
  return JSON.stringify([query.filters, query.q?.toLowerCase(), query.limit, query.offset]);
}

/** A search's total is the same on every page of it. */
function totalKey(query: Searched): string {
  return JSON.stringify([query.filters, query.q?.toLowerCase()]);
}

function keep<T>(entries: Map<string, Entry<T>>, key: string, entry: Entry<T>): void {
  if (!entries.has(key) && entries.size >= CACHED_QUERIES) {
    entries.delete(entries.keys().next().value as string);
  }
  entries.set(key, entry);
}

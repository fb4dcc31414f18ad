import { isAscii, passesFilter } from './filter-match';
import type { Document, DocumentId, FindQuery, FindResult } from './read-store';

/** Pages and totals kept per collection, each; the oldest goes first. */
const CACHED_QUERIES = 512;
/**
 * A total is kept with its results' ids (integer ids, in order) while they are this many or fewer:
 * at most 8 bytes x 5,000 x 512 searches, 20 MB, per collection.
 */
export const LISTED_RESULTS = 5_000;

/** A document as the store held it: its JSON (null: no document) and its search text (null: none). */
export interface IndexedState {
  doc: string | null;
  text: string | null;
}

/** One document as a commit changed it. */
export interface IndexedChange {
  id: DocumentId;
  before: IndexedState;
  after: IndexedState;
}

/** A state as queries judge it: its text known to be ASCII or not, its document parsed once if asked. */
interface Judged {
  exists: boolean;
  text: string | null;
  ascii: boolean;
  document(): Document;
}

function judged(state: IndexedState): Judged {
  let parsed: Document | undefined;
  return {
    exists: state.doc !== null,
    text: state.text,
    ascii: isAscii(state.text ?? ''),
    document: () => (parsed ??= JSON.parse(state.doc ?? 'null') as Document),
  };
}

type Searched = Pick<FindQuery, 'filters' | 'q'>;

/**
 * Whether a document is among the query's results, or undefined when only SQLite can tell: text
 * outside ASCII (SQLite's case folding and JavaScript's differ: SQLite folds the long s 'ſ' to 's'), or
 * a filter `passesFilter` cannot judge alike.
 */
type Membership = (state: Judged) => boolean | undefined;

function membership({ filters = [], q }: Searched): Membership {
  const text = q?.toLowerCase();
  if (text && !isAscii(text)) return () => undefined;
  return (state) => {
    if (!state.exists) return false;
    if (text) {
      if (!state.ascii) return undefined;
      // What the trigram index matches (and `instr` below three characters): a substring of the lower-cased text.
      if (!state.text?.includes(text)) return false;
    }
    let member: boolean | undefined = true;
    for (const filter of filters) {
      const passes = passesFilter(state.document(), filter);
      if (passes === false) return false;
      if (passes === undefined) member = undefined;
    }
    return member;
  };
}

interface Entry<T> {
  member: Membership;
  value: T;
}

/** A total, and the ids of its results in order when they are listed. */
interface Total extends Entry<number> {
  ids?: readonly number[];
}

/**
 * The pages and totals one collection has answered, kept until a commit may have changed them. A live
 * write's commit (a few documents) moves the totals it can account for, instead of leaving them to be
 * counted again (at 1M records a search's count takes 5 to 40 ms, a page under 1 ms), and keeps the
 * pages of queries its documents are among neither before nor after.
 */
export class QueryCache {
  private readonly pages = new Map<string, Entry<FindResult>>();
  private readonly totals = new Map<string, Total>();

  page(query: FindQuery): FindResult | undefined {
    return this.pages.get(pageKey(query))?.value;
  }

  total(query: Searched): number | undefined {
    return this.totals.get(totalKey(query))?.value;
  }

  /** The ids of the query's results in order, when they were listed with its total. */
  ids(query: Searched): readonly number[] | undefined {
    return this.totals.get(totalKey(query))?.ids;
  }

  /** Keeps a page and its total, and the ids of all the query's results when they were listed. */
  remember(query: FindQuery, page: FindResult, ids?: readonly number[]): void {
    const member = membership(query);
    keep(this.pages, pageKey(query), { member, value: page });
    keep(this.totals, totalKey(query), { member, value: page.total, ids });
  }

  /** Accounts for a commit's changes: moves the totals it can, forgets what it may have changed. */
  apply(changes: readonly IndexedChange[]): void {
    const states = changes.map((change) => ({
      id: change.id,
      before: judged(change.before),
      after: judged(change.after),
    }));
    for (const [key, { member }] of this.pages) {
      const touched = states.some(({ before, after }) => member(before) !== false || member(after) !== false);
      if (touched) this.pages.delete(key);
    }
    for (const [key, entry] of this.totals) {
      for (const { id, before, after } of states) {
        const was = entry.member(before);
        const is = entry.member(after);
        if (was === undefined || is === undefined) {
          this.totals.delete(key);
          break;
        }
        entry.value += Number(is) - Number(was);
        if (entry.ids && was !== is) entry.ids = listed(entry.ids, id, is);
      }
    }
  }

  clear(): void {
    this.pages.clear();
    this.totals.clear();
  }
}

/** The ids with `id` added or removed, still in order; undefined once they are no longer listed. */
function listed(ids: readonly number[], id: DocumentId, added: boolean): readonly number[] | undefined {
  if (typeof id !== 'number' || (added && ids.length >= LISTED_RESULTS)) return undefined;
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] as number) < id) low = middle + 1;
    else high = middle;
  }
  return added ? ids.toSpliced(low, 0, id) : ids.toSpliced(low, 1);
}

function pageKey(query: FindQuery): string {
  return JSON.stringify([query.filters, query.q?.toLowerCase(), query.limit, query.offset]);
}

/** A search's total is the same on every page of it. */
function totalKey(query: Searched): string {
  return JSON.stringify([query.filters, query.q?.toLowerCase()]);
}

function keep<E>(entries: Map<string, E>, key: string, entry: E): void {
  if (!entries.has(key) && entries.size >= CACHED_QUERIES) {
    entries.delete(entries.keys().next().value as string);
  }
  entries.set(key, entry);
}

import { ENTRY_BYTES, type CacheBudget, type Kept } from './cache-budget';
import { isAscii, passesFilter } from './filter-match';
import type { PageJson } from './page-json';
import type { Document, DocumentId, FindQuery } from './read-store';

/**
 * Pages and totals kept per collection, each, however few bytes they take: a commit looks at every one
 * of them. The oldest goes first.
 */
const CACHED_QUERIES = 512;
/** A total is kept with its results' ids (integer ids, in order) while they are this many or fewer. */
export const LISTED_RESULTS = 5_000;
/** What each listed id costs. */
const ID_BYTES = 8;

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

interface Entry<T> extends Kept {
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
  private readonly pages = new Map<string, Entry<PageJson>>();
  private readonly totals = new Map<string, Total>();

  /** `budget` counts what is kept, with the other caches of the store, and drops the oldest. */
  constructor(private readonly budget: CacheBudget) {}

  page(query: FindQuery): PageJson | undefined {
    return this.pages.get(pageKey(query))?.value;
  }

  total(query: Searched): number | undefined {
    return this.totals.get(totalKey(query))?.value;
  }

  /** The ids of the query's results in order, when they were listed with its total. */
  ids(query: Searched): readonly number[] | undefined {
    return this.totals.get(totalKey(query))?.ids;
  }

  /**
   * Keeps a page and its total, and the ids of all the query's results when they were listed; a page
   * or ids too large for the budget are not kept.
   */
  remember(query: FindQuery, page: PageJson, ids?: readonly number[]): void {
    const member = membership(query);
    const key = pageKey(query);
    const bytes = ENTRY_BYTES + key.length + page.body.length + page.ends.byteLength;
    if (this.budget.admits(bytes)) {
      this.keep(this.pages, key, { member, value: page, bytes, drop: () => this.pages.delete(key) });
    }
    const searched = totalKey(query);
    const keptIds = ids && this.budget.admits(totalBytes(searched, ids)) ? ids : undefined;
    this.keep(this.totals, searched, {
      member,
      value: page.total,
      ids: keptIds,
      bytes: totalBytes(searched, keptIds),
      drop: () => this.totals.delete(searched),
    });
  }

  /** Accounts for a commit's changes: moves the totals it can, forgets what it may have changed. */
  apply(changes: readonly IndexedChange[]): void {
    const states = changes.map((change) => ({
      id: change.id,
      before: judged(change.before),
      after: judged(change.after),
    }));
    for (const [key, entry] of this.pages) {
      const { member } = entry;
      const touched = states.some(({ before, after }) => member(before) !== false || member(after) !== false);
      if (touched) this.forget(this.pages, key, entry);
    }
    for (const [key, entry] of this.totals) {
      for (const { id, before, after } of states) {
        const was = entry.member(before);
        const is = entry.member(after);
        if (was === undefined || is === undefined) {
          this.forget(this.totals, key, entry);
          break;
        }
        entry.value += Number(is) - Number(was);
        if (entry.ids && was !== is) {
          entry.ids = listed(entry.ids, id, is);
          this.budget.resize(entry, totalBytes(key, entry.ids));
        }
      }
    }
  }

  clear(): void {
    for (const entry of [...this.pages.values(), ...this.totals.values()]) this.budget.release(entry);
    this.pages.clear();
    this.totals.clear();
  }

  private keep<E extends Kept>(entries: Map<string, E>, key: string, entry: E): void {
    const known = entries.get(key);
    if (known) this.forget(entries, key, known);
    else if (entries.size >= CACHED_QUERIES) {
      const [oldestKey, oldest] = entries.entries().next().value as [string, E];
      this.forget(entries, oldestKey, oldest);
    }
    entries.set(key, entry);
    this.budget.keep(entry);
  }

  private forget<E extends Kept>(entries: Map<string, E>, key: string, entry: E): void {
    entries.delete(key);
    this.budget.release(entry);
  }
}

function totalBytes(key: string, ids: readonly number[] | undefined): number {
  return ENTRY_BYTES + key.length + (ids?.length ?? 0) * ID_BYTES;
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
  return JSON.stringify([
    query.filters,
    query.q?.toLowerCase(),
    query.limit,
    query.offset,
    query.sort,
    query.after,
  ]);
}

/** A search's total is the same on every page of it. */
function totalKey(query: Searched): string {
  return JSON.stringify([query.filters, query.q?.toLowerCase()]);
}

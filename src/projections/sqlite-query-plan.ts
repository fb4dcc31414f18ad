import { afterPosition, ID_KEY, inIdOrder, pageOrder, type KeysetTerms } from './page-order';
import { LISTED_RESULTS } from './query-cache';
import type { CollectionDefinition, Filter, FindQuery, ScanQuery, SortKey } from './read-store';
import { anyOf, phrase } from './word-index';

const OPERATORS = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;
/** The trigram index answers substrings of three characters or more; shorter ones scan. */
const TRIGRAM = 3;
/**
 * A page of a search with filters that ends within this share of its results reads the search's
 * matches in order, keeping those the filters pass: about that share of the matches at most. A page
 * further in takes the count's way (the filters' index and the search's rowids), whose cost does not
 * grow with the page's depth. At 1M records (the first three pages of 388 words within a status held by
 * 1% to 7% of the requests) 1/5 averaged 2.2 to 4.8 ms a page, 1/20 3.2 to 5.4 ms, and reading the
 * matches in order always up to 7.8 ms.
 */
const READ_IN_ORDER_WITHIN = 1 / 5;

/** A window of all the results, in the order the filter's index gives them: no sort of them all after. */
const WHOLE_RESULT_IN_ID_ORDER = '(ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)';

/**
 * A collection as its queries are planned: its tables (the documents, their trigram index and their word
 * index, see `word-index.ts`) and what the word index answers of a search.
 */
export interface PlannedCollection {
  definition: CollectionDefinition;
  table: string;
  fts: string;
  words: string;
  /** The words of the vocabulary that contain a search, if the word index answers it (`wordFinder`). */
  wordsContaining: (q: string) => string[] | undefined;
  /** The SQL of the count of one word's documents (`oneWordCount`). */
  oneWordCount: string;
}

export interface Sql {
  sql: string;
  params: unknown[];
}

/** The SQL of a find: its count, its page once the count is known, and where it may list its results. */
export interface FindPlan {
  count: Sql;
  /** The page's ids and documents, and the result after them if there is one (see `paged`). */
  page(total: number): Sql;
  /**
   * Each result's id in order, with the count of them all on each row: at most LISTED_RESULTS + 1
   * rows, the one more saying that there are more than the store keeps.
   */
  listing?: Sql;
}

/** Where a search looks: an FTS index and the clause that matches it there, with its one parameter. */
interface SearchIndex {
  index: string;
  clause: string;
  param: string;
  /** The count of its matches. */
  count: Sql;
}

function sqlValue(value: Filter['value']): string | number | null {
  return typeof value === 'boolean' ? Number(value) : value;
}

/** The WHERE clauses of a find's filters, on the documents' JSON. */
function filterSql(
  target: PlannedCollection,
  filters: readonly Filter[],
): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const filter of filters) {
    if (!target.definition.filterFields.includes(filter.field)) {
      throw new Error(`${target.definition.name} cannot filter on ${filter.field}`);
    }
    const column = `json_extract(${target.table}.doc, '$.${filter.field}')`;
    if (filter.value === null) {
      clauses.push(filter.op === 'eq' ? `${column} IS NULL` : 'FALSE');
      continue;
    }
    clauses.push(`${column} ${OPERATORS[filter.op]} ?`);
    params.push(sqlValue(filter.value));
  }
  return { clauses, params };
}

/**
 * Where a lower-cased search looks, and how: a word index or the trigram index (see `word-index.ts`),
 * or, shorter than a trigram (or holding a NUL), the text of every document. With it, the count of
 * its matches: those of a search within one word of the vocabulary are counted in the word index
 * (see `oneWordCount`).
 */
function searchIndex(target: PlannedCollection, q: string): SearchIndex {
  const { fts, words } = target;
  const searching = (index: string, clause: string, param: string): SearchIndex => ({
    index,
    clause,
    param,
    count: { sql: `SELECT count(*) FROM ${index} WHERE ${clause}`, params: [param] },
  });
  // FTS5 cannot take a NUL in a MATCH expression (it ends the query there); `instr` can.
  if ([...q].length < TRIGRAM || q.includes('\0')) return searching(fts, `instr(${fts}.text, ?) > 0`, q);
  const found = target.wordsContaining(q);
  if (!found) return searching(fts, `${fts} MATCH ?`, phrase(q));
  const search = searching(words, `${words} MATCH ?`, anyOf(found));
  return found.length === 1 ? { ...search, count: { sql: target.oneWordCount, params: found } } : search;
}

/**
 * The SQL of a page of results: `limit` of them after the first `offset`, and one more, which tells
 * whether a page follows.
 */
const paged = ({ sql, params }: Sql, { limit, offset }: FindQuery): Sql => ({
  sql: `${sql} LIMIT ? OFFSET ?`,
  params: [...params, limit + 1, offset],
});

/** The conditions of a keyset page in SQL, on the documents' JSON and `idColumn`. */
function keysetTerms(table: string, idColumn: string): KeysetTerms<Sql> {
  const column = (key: SortKey) =>
    key.field === ID_KEY ? idColumn : `json_extract(${table}.doc, '$.${key.field}')`;
  const joined = (terms: Sql[], by: string): Sql => ({
    sql: `(${terms.map((term) => term.sql).join(` ${by} `)})`,
    params: terms.flatMap((term) => term.params),
  });
  return {
    compare: (key, op, value) => ({ sql: `${column(key)} ${op} ?`, params: [sqlValue(value)] }),
    isNull: (key, isNull) => ({ sql: `${column(key)} IS ${isNull ? '' : 'NOT '}NULL`, params: [] }),
    all: (terms) => joined(terms, 'AND'),
    any: (terms) => joined(terms, 'OR'),
    nothing: { sql: 'FALSE', params: [] },
  };
}

/**
 * The clauses of a keyset page (none without `after`). Ascending from a value, the first key's bound
 * is added as a range the planner seeks its index to; the keyset predicate alone is an OR it cannot.
 */
function keysetSql(target: PlannedCollection, query: FindQuery, idColumn: string): Sql[] {
  if (!query.after) return [];
  const order = pageOrder(query.sort);
  const terms = keysetTerms(target.table, idColumn);
  const clauses = [afterPosition(order, query.after, terms)];
  const [first] = order;
  const start = query.after.values[0];
  if (first && first.field !== ID_KEY && !first.descending && start !== undefined && start !== null) {
    clauses.push(terms.compare(first, '>=', start));
  }
  return clauses;
}

/** `clauses` joined after `WHERE`, with their parameters after `params`. */
function where(clauses: readonly string[], params: readonly unknown[], keyset: readonly Sql[]): Sql {
  const all = [...clauses, ...keyset.map((term) => term.sql)];
  return {
    sql: all.length ? `WHERE ${all.join(' AND ')}` : '',
    params: [...params, ...keyset.flatMap((term) => term.params)],
  };
}

/**
 * The SQL of a find: its count, its page once the count is known and, for a search with filters, the
 * listing of its results. A text search without filters is driven from the FTS index, joining the
 * documents by rowid (a `rowid IN (...)` subquery made SQLite scan the documents: 30x slower at 100k).
 * With filters too, SQLite would drive it from a filter's index and probe the FTS index once per
 * document (4 to 9 s at 1M records): the count takes the filter's index and the search's rowids instead
 * (30 to 55 ms), and so does a page deep into few matches; a page near the start of many matches reads the
 * search's matches in order until it is full (1 to 5 ms). With integer ids the rowid is the id, so the FTS
 * index's rowid order is the page order.
 */
export function planFind(target: PlannedCollection, query: FindQuery): FindPlan {
  const order = pageOrder(query.sort);
  return inIdOrder(order) ? planInIdOrder(target, query) : planSorted(target, query, order);
}

function planInIdOrder(target: PlannedCollection, query: FindQuery): FindPlan {
  const { table } = target;
  const filters = filterSql(target, query.filters ?? []);
  const q = query.q?.toLowerCase();
  if (!q) {
    const counted = where(filters.clauses, filters.params, []);
    const listed = where(filters.clauses, filters.params, keysetSql(target, query, `${table}.id`));
    return {
      count: { sql: `SELECT count(*) FROM ${table} ${counted.sql}`, params: counted.params },
      page: () =>
        paged(
          { sql: `SELECT id, doc FROM ${table} ${listed.sql} ORDER BY id`, params: listed.params },
          query,
        ),
    };
  }
  const search = searchIndex(target, q);
  const { index } = search;
  const order = target.definition.idKind === 'integer' ? `${index}.rowid` : `${table}.id`;
  const readingMatches = (join: string): Sql => {
    const matching = where(
      [search.clause, ...filters.clauses],
      [search.param, ...filters.params],
      keysetSql(target, query, order),
    );
    return paged(
      {
        sql: `SELECT ${table}.id, ${table}.doc FROM ${index} ${join} ${table} ON ${table}.rowid = ${index}.rowid
            ${matching.sql} ORDER BY ${order}`,
        params: matching.params,
      },
      query,
    );
  };
  if (!filters.clauses.length) {
    return {
      count: search.count,
      page: () => readingMatches('JOIN'),
    };
  }
  const filtered = `FROM ${table} WHERE ${filters.clauses.join(' AND ')}
      AND ${table}.rowid IN (SELECT rowid FROM ${index} WHERE ${search.clause})`;
  const params = [...filters.params, search.param];
  const keyset = keysetSql(target, query, `${table}.id`);
  const filteredPage = {
    sql: `SELECT id, doc ${filtered} ${keyset.map((term) => `AND ${term.sql} `).join('')}ORDER BY id`,
    params: [...params, ...keyset.flatMap((term) => term.params)],
  };
  return {
    count: { sql: `SELECT count(*) ${filtered}`, params },
    listing:
      target.definition.idKind === 'integer'
        ? {
            sql: `SELECT id, count(*) OVER ${WHOLE_RESULT_IN_ID_ORDER} ${filtered} ORDER BY id LIMIT ?`,
            params: [...params, LISTED_RESULTS + 1],
          }
        : undefined,
    page: (total) =>
      query.offset + query.limit <= total * READ_IN_ORDER_WITHIN
        ? readingMatches('CROSS JOIN')
        : paged(filteredPage, query),
  };
}

/**
 * A find in another order than the id's: counted as in id order; its page is read in the order of the
 * index of its first key (a field's index holds the field, then the id) where the planner can.
 */
function planSorted(target: PlannedCollection, query: FindQuery, order: readonly SortKey[]): FindPlan {
  const { table } = target;
  const { count } = planInIdOrder(target, { ...query, sort: undefined, after: undefined });
  const filters = filterSql(target, query.filters ?? []);
  const q = query.q?.toLowerCase();
  if (q) {
    const search = searchIndex(target, q);
    filters.clauses.push(`${table}.rowid IN (SELECT rowid FROM ${search.index} WHERE ${search.clause})`);
    filters.params.push(search.param);
  }
  const matching = where(filters.clauses, filters.params, keysetSql(target, query, `${table}.id`));
  const sortedBy = order
    .map((key) => {
      const column = key.field === ID_KEY ? `${table}.id` : `json_extract(${table}.doc, '$.${key.field}')`;
      return `${column}${key.descending ? ' DESC' : ''}`;
    })
    .join(', ');
  return {
    count,
    page: () =>
      paged(
        {
          sql: `SELECT ${table}.id, ${table}.doc FROM ${table} ${matching.sql} ORDER BY ${sortedBy}`,
          params: matching.params,
        },
        query,
      ),
  };
}

/**
 * A keyset page: the filters, the search's rowids (its index, as a count of the search and filters
 * reads them) and the ids after `after`, in id order.
 */
export function planScan(target: PlannedCollection, { filters = [], q, after, limit }: ScanQuery): Sql {
  const { table } = target;
  const { clauses, params } = filterSql(target, filters);
  const text = q?.toLowerCase();
  if (text) {
    const search = searchIndex(target, text);
    clauses.push(`${table}.rowid IN (SELECT rowid FROM ${search.index} WHERE ${search.clause})`);
    params.push(search.param);
  }
  if (after !== undefined) {
    clauses.push(`${table}.id > ?`);
    params.push(after);
  }
  const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
  const range = text ? undefined : filters.find((filter) => filter.op !== 'eq' && filter.value !== null);
  // Without statistics SQLite reads a range in id order, the whole table, to spare a sort: a sweep of
  // what falls due (`sla_changes_at <= now`) read 184k requests for none at 1M events (1.7 s).
  const indexed = range ? `INDEXED BY ${table}_by_${range.field}` : '';
  return {
    sql: `SELECT id, doc FROM ${table} ${indexed} ${where} ORDER BY id LIMIT ?`,
    params: [...params, limit],
  };
}

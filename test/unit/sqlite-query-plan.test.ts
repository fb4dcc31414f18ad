import { LISTED_RESULTS } from '../../src/projections/query-cache';
import type { CollectionDefinition, FindQuery } from '../../src/projections/read-store';
import {
  planFind,
  planScan,
  type PlannedCollection,
  type Sql,
} from '../../src/projections/sqlite-query-plan';

/** A collection whose word index knows the words `vocabulary` names. */
function collection(
  definition: CollectionDefinition,
  vocabulary: Record<string, string[]> = {},
): PlannedCollection {
  return {
    definition,
    table: 'rm_t',
    fts: 'rm_t_fts',
    words: 'rm_t_words',
    wordsContaining: (q) => vocabulary[q],
    oneWordCount: 'ONE WORD COUNT ?',
  };
}

const tickets = collection(
  {
    name: 'test.tickets',
    idKind: 'integer',
    searchFields: ['title'],
    filterFields: ['status', 'due', 'urgent'],
  },
  { laptop: ['laptop'], print: ['print', 'printer'] },
);
const people = collection({
  name: 'test.people',
  idKind: 'string',
  searchFields: ['name'],
  filterFields: ['team'],
});

/** The SQL on one line, as it reads. */
const read = ({ sql, params }: Sql) => ({ sql: sql.replace(/\s+/g, ' ').trim(), params });
const firstPage: FindQuery = { limit: 10, offset: 0 };
const open = { field: 'status', op: 'eq', value: 'Open' } as const;

describe('planning a find on the SQLite read store', () => {
  it('counts and pages every document in id order when there is neither filter nor search', () => {
    const plan = planFind(tickets, { limit: 10, offset: 20 });
    expect(read(plan.count)).toEqual({ sql: 'SELECT count(*) FROM rm_t', params: [] });
    expect(read(plan.page(100))).toEqual({
      sql: 'SELECT id, doc FROM rm_t ORDER BY id LIMIT ? OFFSET ?',
      params: [11, 20],
    });
    expect(plan.listing).toBeUndefined();
  });

  it('compares declared fields of the JSON documents with each operator, booleans as numbers', () => {
    const plan = planFind(tickets, {
      ...firstPage,
      filters: [
        { field: 'due', op: 'gte', value: '2026-11-01' },
        { field: 'due', op: 'lt', value: '2026-12-01' },
        { field: 'urgent', op: 'eq', value: true },
      ],
    });
    const where =
      "WHERE json_extract(rm_t.doc, '$.due') >= ? AND json_extract(rm_t.doc, '$.due') < ?" +
      " AND json_extract(rm_t.doc, '$.urgent') = ?";
    expect(read(plan.count)).toEqual({
      sql: `SELECT count(*) FROM rm_t ${where}`,
      params: ['2026-11-01', '2026-12-01', 1],
    });
    expect(read(plan.page(5))).toEqual({
      sql: `SELECT id, doc FROM rm_t ${where} ORDER BY id LIMIT ? OFFSET ?`,
      params: ['2026-11-01', '2026-12-01', 1, 11, 0],
    });
  });

  it('matches null only as equal to null: any other comparison with it matches nothing', () => {
    const count = (op: 'eq' | 'gt') =>
      read(planFind(tickets, { ...firstPage, filters: [{ field: 'due', op, value: null }] }).count);
    expect(count('eq')).toEqual({
      sql: "SELECT count(*) FROM rm_t WHERE json_extract(rm_t.doc, '$.due') IS NULL",
      params: [],
    });
    expect(count('gt')).toEqual({ sql: 'SELECT count(*) FROM rm_t WHERE FALSE', params: [] });
  });

  it('refuses to filter on a field the collection does not declare', () => {
    expect(() =>
      planFind(tickets, { ...firstPage, filters: [{ field: 'title', op: 'eq', value: 'x' }] }),
    ).toThrow('test.tickets cannot filter on title');
  });

  it('searches text shorter than a trigram, or holding a NUL, in every text, lower-cased', () => {
    for (const q of ['Ab', 'a\0b']) {
      const plan = planFind(tickets, { ...firstPage, q });
      expect(read(plan.count)).toEqual({
        sql: 'SELECT count(*) FROM rm_t_fts WHERE instr(rm_t_fts.text, ?) > 0',
        params: [q.toLowerCase()],
      });
    }
  });

  it('searches the trigram index for a phrase the word index does not answer', () => {
    const plan = planFind(tickets, { ...firstPage, q: 'Ray "B' });
    expect(read(plan.count)).toEqual({
      sql: 'SELECT count(*) FROM rm_t_fts WHERE rm_t_fts MATCH ?',
      params: ['"ray ""b"'],
    });
    expect(read(plan.page(3))).toEqual({
      sql:
        'SELECT rm_t.id, rm_t.doc FROM rm_t_fts JOIN rm_t ON rm_t.rowid = rm_t_fts.rowid' +
        ' WHERE rm_t_fts MATCH ? ORDER BY rm_t_fts.rowid LIMIT ? OFFSET ?',
      params: ['"ray ""b"', 11, 0],
    });
  });

  it('searches the word index for the words holding the search, counting one word from its vocabulary', () => {
    expect(read(planFind(tickets, { ...firstPage, q: 'Laptop' }).count)).toEqual({
      sql: 'ONE WORD COUNT ?',
      params: ['laptop'],
    });
    const several = planFind(tickets, { ...firstPage, q: 'print' });
    expect(read(several.count)).toEqual({
      sql: 'SELECT count(*) FROM rm_t_words WHERE rm_t_words MATCH ?',
      params: ['"print" OR "printer"'],
    });
    expect(read(several.page(3)).sql).toBe(
      'SELECT rm_t.id, rm_t.doc FROM rm_t_words JOIN rm_t ON rm_t.rowid = rm_t_words.rowid' +
        ' WHERE rm_t_words MATCH ? ORDER BY rm_t_words.rowid LIMIT ? OFFSET ?',
    );
  });

  it('counts a search with filters from the filters and the search’s rowids, and lists up to one more than it keeps', () => {
    const plan = planFind(tickets, { ...firstPage, filters: [open], q: 'laptop' });
    const filtered =
      "FROM rm_t WHERE json_extract(rm_t.doc, '$.status') = ?" +
      ' AND rm_t.rowid IN (SELECT rowid FROM rm_t_words WHERE rm_t_words MATCH ?)';
    expect(read(plan.count)).toEqual({ sql: `SELECT count(*) ${filtered}`, params: ['Open', '"laptop"'] });
    expect(read(plan.listing!)).toEqual({
      sql:
        'SELECT id, count(*) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)' +
        ` ${filtered} ORDER BY id LIMIT ?`,
      params: ['Open', '"laptop"', LISTED_RESULTS + 1],
    });
  });

  it('reads a page near the start of a search with filters in the order of its matches, a deeper one by the filters', () => {
    const page = (offset: number, total: number) =>
      read(planFind(tickets, { limit: 10, offset, filters: [open], q: 'laptop' }).page(total));
    expect(page(0, 50)).toEqual({
      sql:
        'SELECT rm_t.id, rm_t.doc FROM rm_t_words CROSS JOIN rm_t ON rm_t.rowid = rm_t_words.rowid' +
        " WHERE rm_t_words MATCH ? AND json_extract(rm_t.doc, '$.status') = ?" +
        ' ORDER BY rm_t_words.rowid LIMIT ? OFFSET ?',
      params: ['"laptop"', 'Open', 11, 0],
    });
    expect(page(0, 49)).toEqual({
      sql:
        "SELECT id, doc FROM rm_t WHERE json_extract(rm_t.doc, '$.status') = ?" +
        ' AND rm_t.rowid IN (SELECT rowid FROM rm_t_words WHERE rm_t_words MATCH ?) ORDER BY id LIMIT ? OFFSET ?',
      params: ['Open', '"laptop"', 11, 0],
    });
  });

  it('orders the matches of a collection with string ids by id, and lists none of them', () => {
    const plan = planFind(people, {
      ...firstPage,
      filters: [{ field: 'team', op: 'eq', value: 'ops' }],
      q: 'ann',
    });
    expect(plan.listing).toBeUndefined();
    expect(read(plan.page(1000)).sql).toContain('ORDER BY rm_t.id LIMIT ? OFFSET ?');
  });
  it('pages in another order by the keys asked, the id last, and after a cursor from the first key on', () => {
    const plan = planFind(tickets, {
      ...firstPage,
      filters: [open],
      sort: [{ field: 'due', descending: false }],
      after: { values: ['2026-11-01'], id: 7 },
    });
    const due = "json_extract(rm_t.doc, '$.due')";
    expect(read(plan.count)).toEqual({
      sql: "SELECT count(*) FROM rm_t WHERE json_extract(rm_t.doc, '$.status') = ?",
      params: ['Open'],
    });
    expect(read(plan.page(100))).toEqual({
      sql:
        `SELECT rm_t.id, rm_t.doc FROM rm_t WHERE json_extract(rm_t.doc, '$.status') = ?` +
        ` AND (${due} > ? OR (${due} = ? AND rm_t.id > ?)) AND ${due} >= ?` +
        ` ORDER BY ${due}, rm_t.id LIMIT ? OFFSET ?`,
      params: ['Open', '2026-11-01', '2026-11-01', 7, '2026-11-01', 11, 0],
    });
  });

  it('walks a descending key after a cursor to the NULLs, which come last', () => {
    const plan = planFind(tickets, {
      ...firstPage,
      sort: [{ field: 'due', descending: true }],
      after: { values: ['2026-11-01'], id: 7 },
    });
    const due = "json_extract(rm_t.doc, '$.due')";
    expect(read(plan.page(100)).sql).toBe(
      `SELECT rm_t.id, rm_t.doc FROM rm_t WHERE ((${due} < ? OR ${due} IS NULL) OR (${due} = ? AND rm_t.id < ?))` +
        ` ORDER BY ${due} DESC, rm_t.id DESC LIMIT ? OFFSET ?`,
    );
  });
});

describe('planning a scan on the SQLite read store', () => {
  it('reads the documents after an id, in id order, with filters and search', () => {
    expect(read(planScan(tickets, { filters: [open], q: 'Laptop', after: 42, limit: 100 }))).toEqual({
      sql:
        "SELECT id, doc FROM rm_t WHERE json_extract(rm_t.doc, '$.status') = ?" +
        ' AND rm_t.rowid IN (SELECT rowid FROM rm_t_words WHERE rm_t_words MATCH ?)' +
        ' AND rm_t.id > ? ORDER BY id LIMIT ?',
      params: ['Open', '"laptop"', 42, 100],
    });
  });

  it('reads a range of a field by its index, not the whole table in id order', () => {
    const due = { field: 'due', op: 'lte', value: '2026-11-29' } as const;
    expect(read(planScan(tickets, { filters: [open, due], after: 42, limit: 500 }))).toEqual({
      sql:
        "SELECT id, doc FROM rm_t INDEXED BY rm_t_by_due WHERE json_extract(rm_t.doc, '$.status') = ?" +
        " AND json_extract(rm_t.doc, '$.due') <= ? AND rm_t.id > ? ORDER BY id LIMIT ?",
      params: ['Open', '2026-11-29', 42, 500],
    });
  });

  it('reads from the first document when it has no id to start after', () => {
    expect(read(planScan(people, { limit: 5 }))).toEqual({
      sql: 'SELECT id, doc FROM rm_t ORDER BY id LIMIT ?',
      params: [5],
    });
  });
});

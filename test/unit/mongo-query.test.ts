import fc from 'fast-check';
import {
  documentKey,
  escapeRegex,
  findFilter,
  storable,
  storedDocument,
} from '../../src/projections/mongo-query';
import { UnstorableDocument } from '../../src/projections/read-store';
import type { CollectionDefinition } from '../../src/projections/read-store';

const tickets: CollectionDefinition = {
  name: 'test.tickets',
  idKind: 'integer',
  searchFields: ['title', 'notes'],
  filterFields: ['status', 'due'],
};
const people: CollectionDefinition = {
  name: 'test.people',
  idKind: 'string',
  searchFields: [],
  filterFields: [],
};

describe('MongoDB read-store queries', () => {
  it('refuses, as unstorable, a document nested deeper than MongoDB stores, and keeps one that is not', () => {
    const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : [nested(depth - 1)]);
    expect(() => storable(people, 'deep', { id: 'deep', value: nested(99) })).toThrow(UnstorableDocument);
    expect(storable(people, 'fine', { id: 'fine', value: nested(90) }).doc).toEqual({
      id: 'fine',
      value: nested(90),
    });
  });

  it('escapes user text so that the pattern matches exactly that text, wherever it stands', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (before, text, after) => {
        expect(new RegExp(escapeRegex(text)).test(`${before}${text}${after}`)).toBe(true);
      }),
    );
    expect(escapeRegex('a.b*(c)[d]{2}|^$\\?+')).toBe('a\\.b\\*\\(c\\)\\[d\\]\\{2\\}\\|\\^\\$\\\\\\?\\+');
    expect(new RegExp(escapeRegex('a.c')).test('abc')).toBe(false);
    expect(escapeRegex('nul\0')).toBe('nul\\x00');
  });

  it('builds no condition for an empty query, and one $and for several', () => {
    expect(findFilter(tickets, { limit: 10, offset: 0 })).toEqual({});
    expect(
      findFilter(tickets, { filters: [{ field: 'status', op: 'eq', value: 'Open' }], limit: 10, offset: 0 }),
    ).toEqual({ 'doc.status': { $eq: 'Open' } });
    expect(
      findFilter(tickets, {
        filters: [{ field: 'due', op: 'lt', value: '2026-11-01' }],
        q: 'Ray B.',
        limit: 10,
        offset: 0,
      }),
    ).toEqual({ $and: [{ 'doc.due': { $lt: '2026-11-01' } }, { text: { $regex: 'ray b\\.' } }] });
  });

  it('treats null as SQL does: equal to a missing value, never less or greater', () => {
    const query = (op: 'eq' | 'gt') =>
      findFilter(tickets, { filters: [{ field: 'due', op, value: null }], limit: 1, offset: 0 });
    expect(query('eq')).toEqual({ 'doc.due': null });
    expect(query('gt')).toEqual({ _id: { $in: [] } });
  });

  it('refuses filters on undeclared fields', () => {
    expect(() =>
      findFilter(tickets, { filters: [{ field: 'title', op: 'eq', value: 'x' }], limit: 1, offset: 0 }),
    ).toThrow('test.tickets cannot filter on title');
  });

  it('keys integer ids as numbers (numeric text included) and string ids as text', () => {
    expect(documentKey(tickets, 7)).toBe(7);
    expect(documentKey(tickets, '7')).toBe(7);
    expect(documentKey(tickets, 'x7')).toBe('x7');
    expect(documentKey(people, 7)).toBe('7');
  });

  it('stores the document as its JSON reads back, with the lower-cased text of the search fields', () => {
    const stored = storedDocument(tickets, {
      id: 1,
      title: 'New laptop for ZOË',
      notes: null,
      status: 'Open',
      gone: undefined,
      at: new Date('2026-11-21T09:30:00Z'),
    });
    expect(stored).toEqual({
      doc: {
        id: 1,
        title: 'New laptop for ZOË',
        notes: null,
        status: 'Open',
        at: '2026-11-21T09:30:00.000Z',
      },
      text: 'new laptop for zoë',
    });
    expect(JSON.stringify(stored.doc)).toBe(
      '{"id":1,"title":"New laptop for ZOË","notes":null,"status":"Open","at":"2026-11-21T09:30:00.000Z"}',
    );
  });
});

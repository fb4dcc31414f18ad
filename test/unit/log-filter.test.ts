import type { SuiteCatalog } from '../../src/events/catalog';
import { matchesLogFilter, unknownFilterValues } from '../../src/events/log-filter';
import { storedEvent } from '../support/stored-event';

describe('log filter', () => {
  const metadata = {
    actor: 'ann',
    organisation: 'ws-1',
    request_id: 'r',
    correlation_id: 'c',
    causation_id: null,
    occurred_at: '2026-01-01T00:00:00Z',
  };
  const event = storedEvent('esm.request-1', 0, { type: 'Made', metadata });

  it('matches every filter the audit log offers, each narrowing', () => {
    expect(matchesLogFilter(event, {})).toBe(true);
    expect(matchesLogFilter(event, { module: 'esm', type: 'Made', actor: 'ann', organisation: 'ws-1' })).toBe(
      true,
    );
    expect(matchesLogFilter(event, { module: 'es' })).toBe(false);
    expect(matchesLogFilter(event, { stream: 'esm.request-1' })).toBe(true);
    expect(matchesLogFilter(event, { stream: 'esm.request-10' })).toBe(false);
    expect(matchesLogFilter(event, { actor: 'bob' })).toBe(false);
    expect(matchesLogFilter(event, { from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(matchesLogFilter(event, { from: '2026-01-01T00:00:01Z' })).toBe(false);
    expect(matchesLogFilter(event, { to: '2025-12-31T23:59:59Z' })).toBe(false);
  });
});

describe('log filter lists', () => {
  const event = storedEvent('crm.company-3', 0, { type: 'CompanyRegistered' });

  it('matches when any value of a list matches, and an empty list matches nothing', () => {
    expect(matchesLogFilter(event, { module: ['esm', 'crm'] })).toBe(true);
    expect(matchesLogFilter(event, { module: ['esm', 'hrm'] })).toBe(false);
    expect(matchesLogFilter(event, { stream: ['crm.company-1', 'crm.company-3'] })).toBe(true);
    expect(matchesLogFilter(event, { type: ['CompanyRegistered', 'Other'], module: ['crm'] })).toBe(true);
    expect(matchesLogFilter(event, { type: ['Other'] })).toBe(false);
    expect(matchesLogFilter(event, { module: [] })).toBe(false);
  });

  it('names the modules and event types no log of the catalog can hold', () => {
    const catalog = new Map([['crm', new Map([['CompanyRegistered', {}]])]]) as unknown as SuiteCatalog;
    expect(unknownFilterValues({ module: ['crm', 'crn'], type: 'CompanyRegistered' }, catalog)).toEqual([
      { filter: 'module', value: 'crn' },
    ]);
    expect(unknownFilterValues({ type: ['Nope'] }, catalog)).toEqual([{ filter: 'type', value: 'Nope' }]);
    expect(unknownFilterValues({}, catalog)).toEqual([]);
  });
});

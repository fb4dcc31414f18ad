import { matchesLogFilter } from '../../src/events/log-filter';
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

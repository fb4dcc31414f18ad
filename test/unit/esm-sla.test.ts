import { slaTargets } from '../../src/commands/esm/sla';

const created = new Date('2026-11-21T09:30:00Z');

describe('SLA targets', () => {
  it('uses sla_hours as the Medium resolution target and 8 hours to respond', () => {
    expect(slaTargets(created, 24, 'Medium')).toEqual({
      response_by: '2026-11-21T17:30:00Z',
      resolution_by: '2026-11-22T09:30:00Z',
    });
  });

  it('scales resolution by priority: Low x3, High /6, Urgent /12', () => {
    expect(slaTargets(created, 24, 'Low').resolution_by).toBe('2026-11-24T09:30:00Z');
    expect(slaTargets(created, 24, 'High').resolution_by).toBe('2026-11-21T13:30:00Z');
    expect(slaTargets(created, 24, 'Urgent').resolution_by).toBe('2026-11-21T11:30:00Z');
  });

  it('never makes the response due after the resolution, and rounds up to the minute', () => {
    expect(slaTargets(created, 1, 'Urgent')).toEqual({
      response_by: '2026-11-21T09:35:00Z',
      resolution_by: '2026-11-21T09:35:00Z',
    });
  });
});

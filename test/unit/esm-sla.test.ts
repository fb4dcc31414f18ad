import fc from 'fast-check';
import { addBusinessMinutes, businessMinutesBetween } from '../../src/esm/business-hours';
import { atRiskFrom, nextSlaChange, slaChanges, slaState, slaTargets, ON_TRACK } from '../../src/esm/sla';

/** A Thursday afternoon: the window runs over a weekend. */
const thursday = new Date('2026-11-19T15:30:00Z');
const saturday = new Date('2026-11-21T09:30:00Z');

describe('business hours (Mon-Fri 09:00-17:00 UTC)', () => {
  it('counts only business minutes, carrying over nights and weekends', () => {
    expect(addBusinessMinutes(thursday, 90).toISOString()).toBe('2026-11-19T17:00:00.000Z');
    expect(addBusinessMinutes(thursday, 91).toISOString()).toBe('2026-11-20T09:01:00.000Z');
    expect(addBusinessMinutes(new Date('2026-11-20T16:00:00Z'), 120).toISOString()).toBe(
      '2026-11-23T10:00:00.000Z',
    );
  });

  it('starts the clock at the next opening when created outside business hours', () => {
    expect(addBusinessMinutes(saturday, 30).toISOString()).toBe('2026-11-23T09:30:00.000Z');
    expect(businessMinutesBetween(saturday, new Date('2026-11-23T10:00:00Z'))).toBe(60);
  });

  it('ends every window on a weekday within opening hours, as the calendar has it, whatever the year', () => {
    const MINUTE = 60_000;
    fc.assert(
      fc.property(
        fc.integer({ min: -2e12, max: 5e12 }).map((time) => new Date(Math.floor(time / MINUTE) * MINUTE)),
        fc.integer({ min: 1, max: 20_000 }),
        (start, minutes) => {
          const end = addBusinessMinutes(start, minutes);
          const weekday = end.getUTCDay();
          const minuteOfDay = end.getUTCHours() * 60 + end.getUTCMinutes();
          expect(weekday).not.toBe(0);
          expect(weekday).not.toBe(6);
          expect(minuteOfDay).toBeGreaterThan(9 * 60);
          expect(minuteOfDay).toBeLessThanOrEqual(17 * 60);
          expect(businessMinutesBetween(start, end)).toBe(minutes);
        },
      ),
    );
  });
});

describe('SLA targets', () => {
  it('uses sla_hours as the Medium resolution target and 8 business hours to respond', () => {
    expect(slaTargets(thursday, 24, 'Medium')).toEqual({
      response_by: '2026-11-20T15:30:00Z',
      resolution_by: '2026-11-24T15:30:00Z',
    });
  });

  it('scales resolution by priority: Low x3, High /6, Urgent /12', () => {
    expect(slaTargets(saturday, 24, 'Low').resolution_by).toBe('2026-12-03T17:00:00Z');
    expect(slaTargets(saturday, 24, 'High').resolution_by).toBe('2026-11-23T13:00:00Z');
    expect(slaTargets(saturday, 24, 'Urgent').resolution_by).toBe('2026-11-23T11:00:00Z');
  });

  it('never makes the response due after the resolution, and rounds up to the minute', () => {
    expect(slaTargets(saturday, 1, 'Urgent')).toEqual({
      response_by: '2026-11-23T09:05:00Z',
      resolution_by: '2026-11-23T09:05:00Z',
    });
  });
});

describe('SLA state', () => {
  const clock = {
    created: '2026-11-19T15:30:00Z',
    response_by: '2026-11-20T15:30:00Z',
    resolution_by: '2026-11-24T15:30:00Z',
    targets: ON_TRACK,
  };

  it('puts a target at risk when the last quarter of its business window begins', () => {
    expect(atRiskFrom(clock.created, clock.resolution_by)).toBe('2026-11-24T09:30:00Z');
    expect(nextSlaChange(clock)).toBe(atRiskFrom(clock.created, clock.response_by));
  });

  it('names the targets the clock moved: at risk, then breached once due', () => {
    expect(slaChanges(clock, '2026-11-20T09:00:00Z')).toEqual([]);
    expect(slaChanges(clock, '2026-11-20T14:00:00Z')).toEqual([
      { target: 'response', state: 'at_risk', due: clock.response_by },
    ]);
    expect(slaChanges(clock, '2026-11-24T16:00:00Z')).toEqual([
      { target: 'response', state: 'breached', due: clock.response_by },
      { target: 'resolution', state: 'breached', due: clock.resolution_by },
    ]);
  });

  it('watches no target that is met or breached', () => {
    const targets = { response: 'met', resolution: 'breached' } as const;
    expect(slaChanges({ ...clock, targets }, '2026-12-01T00:00:00Z')).toEqual([]);
    expect(nextSlaChange({ ...clock, targets })).toBeNull();
  });

  it('is breached once a target was, else at risk while one is', () => {
    expect(slaState({ response: 'met', resolution: 'breached' })).toBe('breached');
    expect(slaState({ response: 'at_risk', resolution: 'on_track' })).toBe('at_risk');
    expect(slaState({ response: 'met', resolution: 'met' })).toBe('on_track');
  });
});

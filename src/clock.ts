/** Time is injected so that seeds and tests are deterministic. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with second precision, the suite's timestamp format (`2026-11-21T09:30:00Z`). */
export function isoTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

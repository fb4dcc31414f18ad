/** Time is injected so that seeds and tests are deterministic. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with second precision, the suite's timestamp format (`2026-11-21T09:30:00Z`). */
export function isoTimestamp(date: Date): string {
  // `toISOString` always ends in the milliseconds and `Z` (`.sssZ`).
  return `${date.toISOString().slice(0, -5)}Z`;
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z)?$/;

/**
 * A point in time given as a UTC date (`2026-07-14`, its start) or timestamp (`2026-07-14T09:30:00Z`,
 * milliseconds allowed); null when the text is neither, or names no real date.
 */
export function parseIsoTime(text: string): Date | null {
  if (!ISO_TIME.test(text)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text.slice(0, 10) ? null : date;
}

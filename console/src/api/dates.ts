/**
 * The one way the console shows a time: in the browser's locale and time zone (`Intl.DateTimeFormat`),
 * the same format on every page. A calendar date (`2026-11-21`, leave's days) is a day, not a moment:
 * it is shown as that day wherever the browser is.
 */
const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** An ISO 8601 time with its offset, as the suite writes them (`2026-11-21T09:30:00Z`). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

export const isTimestamp = (text: string): boolean => TIMESTAMP.test(text);
export const isCalendarDate = (text: string): boolean => CALENDAR_DATE.test(text);

export const formatMoment = (iso: string): string => moment.format(new Date(iso));
export const formatDay = (date: string): string => day.format(new Date(`${date}T00:00:00Z`));

/** A time or a calendar date as shown; any other text as it is. */
export function formatTime(text: string): string {
  if (isTimestamp(text)) return formatMoment(text);
  if (isCalendarDate(text)) return formatDay(text);
  return text;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** How long ago (or how far ahead) a time is, from `now`: `3 days ago`, `in 2 hours`, `now`. */
export function ageOf(iso: string, now: number = Date.now()): string {
  const difference = new Date(iso).getTime() - now;
  for (const [unit, size] of UNITS) {
    if (Math.abs(difference) >= size) return relative.format(Math.trunc(difference / size), unit);
  }
  return relative.format(0, 'minute');
}

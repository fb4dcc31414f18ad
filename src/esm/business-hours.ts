/**
 * The service desk's business hours: Monday to Friday, 09:00 to 17:00 UTC, no holidays. SLA due times
 * count only these minutes.
 */
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const OPENS_AT = 9 * 60 * MINUTE;
const CLOSES_AT = 17 * 60 * MINUTE;

/** 1970-01-01, day 0 of the epoch, was a Thursday. */
const EPOCH_WEEKDAY = 4;

const dayStart = (time: number) => time - (((time % DAY) + DAY) % DAY);
/** Whether the day of `time` is Monday to Friday (as `getUTCDay`, without making a Date). */
const isWorkday = (time: number) => {
  const weekday = (((Math.floor(time / DAY) + EPOCH_WEEKDAY) % 7) + 7) % 7;
  return weekday !== 0 && weekday !== 6;
};

/** The first business moment at or after `time`. */
function nextOpen(time: number): number {
  let day = dayStart(time);
  if (isWorkday(day) && time < day + CLOSES_AT) return Math.max(time, day + OPENS_AT);
  do day += DAY;
  while (!isWorkday(day));
  return day + OPENS_AT;
}

/** The moment `minutes` business minutes after `start`. */
export function addBusinessMinutes(start: Date, minutes: number): Date {
  if (minutes <= 0) return start;
  let time = nextOpen(start.getTime());
  let left = minutes * MINUTE;
  for (;;) {
    const closes = dayStart(time) + CLOSES_AT;
    if (left <= closes - time) return new Date(time + left);
    left -= closes - time;
    time = nextOpen(closes);
  }
}

/** The business minutes between two moments (0 when `end` is not after `start`). */
export function businessMinutesBetween(start: Date, end: Date): number {
  const until = end.getTime();
  let counted = 0;
  for (let time = nextOpen(start.getTime()); time < until; time = nextOpen(dayStart(time) + CLOSES_AT)) {
    counted += Math.min(dayStart(time) + CLOSES_AT, until) - time;
  }
  return counted / MINUTE;
}

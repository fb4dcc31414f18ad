import { isoDate } from '../../clock';
import type { SeededRandom } from '../random';
import type { CareerSiteSeed, DepartmentSeed, OrganizationSeed } from '../hrm-data';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The HR data goes live on the suite's first day; the season ends on the demo's "today". */
export const SEED_START = new Date('2026-05-04T07:00:00Z');
export const SEED_END = new Date('2026-11-20T21:00:00Z');

/** One command of the demo history, run at its time; all steps run in time order. */
export interface Step {
  at: Date;
  run: () => Promise<unknown>;
}

export const plus = (time: Date, ms: number) => new Date(time.getTime() + ms);

/** `date` at `hours` UTC (fractions allowed). */
export const onDate = (date: string, hours: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + hours * HOUR);

export const dayAfter = (date: string, days: number) => isoDate(onDate(date, days * 24));

/** A time between `from` and `to`. */
export const between = (random: SeededRandom, from: Date, to: Date) =>
  new Date(from.getTime() + random.float() * (to.getTime() - from.getTime()));

/** Monday to Friday. */
export const isWeekday = (date: string) => {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6;
};

/** The first weekday on or after `date`. */
export function weekdayFrom(date: string): string {
  let day = date;
  while (!isWeekday(day)) day = dayAfter(day, 1);
  return day;
}

/** The date `count` weekdays after the weekday `from` (count 1 is `from` itself). */
export function weekdaysOn(from: string, count: number): string {
  let day = from;
  for (let left = count - 1; left > 0;) {
    day = dayAfter(day, 1);
    if (isWeekday(day)) left--;
  }
  return day;
}

/**
 * The time itself when it falls in office hours (08:00-18:00 local, Monday to Friday), else the next
 * opening plus up to two hours: people approve, screen and interview during the working day.
 */
export function officeTime(random: SeededRandom, time: Date, utcOffset: number): Date {
  const local = plus(time, utcOffset * HOUR);
  const date = isoDate(local);
  const hour = local.getUTCHours() + local.getUTCMinutes() / 60;
  if (isWeekday(date) && hour >= 8 && hour < 18) return time;
  const day = isWeekday(date) && hour < 8 ? date : weekdayFrom(dayAfter(date, 1));
  return onDate(day, 8 - utcOffset + random.float() * 2);
}

/** ASCII for e-mail addresses: `Schröder` -> `schroder`, `de Jong` -> `dejong`. */
export const ascii = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

/** Picks by integer weights keyed by anything: `weightedPick(random, items, (item) => item.weight)`. */
export function weightedPick<T>(random: SeededRandom, items: readonly T[], weight: (item: T) => number): T {
  const key = random.weighted(Object.fromEntries(items.map((item, index) => [String(index), weight(item)])));
  return items[Number(key)] as T;
}

/** A few distinct items, in a seeded order. */
export function sample<T>(random: SeededRandom, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0)
    picked.push(pool.splice(random.int(0, pool.length - 1), 1)[0] as T);
  return picked;
}

/** An employee as the seed knows them. */
export interface Person {
  id: number;
  department: DepartmentSeed;
  organization: OrganizationSeed;
  kind: 'head' | 'manager' | 'ic';
  reports_to: number | null;
  date_of_joining: string;
  /** Active through the whole season: takes leave and records attendance. */
  stable: boolean;
}

/** The ids of the organisation structure, by the keys of the static data. */
export interface Structure {
  organizations: Map<string, number>;
  brands: Map<string, number>;
  sites: Map<string, { id: number; seed: CareerSiteSeed }>;
  departments: Map<string, number>;
}

import { DomainError } from '../commands/errors';
import { streamCategory } from '../events/envelope';
import type { EventStore } from '../events/event-store';

/**
 * The kinds of record a data subject can be (docs/PERSONAL-DATA.md): a person's own record, or the
 * record that holds the data of a person who has none. A subject is one such record that exists.
 */
export const SUBJECT_CATEGORIES: readonly string[] = [
  'esm.agent',
  'esm.request',
  'clm.member',
  'clm.counterparty',
  'clm.contract',
  'hrm.employee',
  'hrm.candidate',
  'hrm.application',
  'crm.contact',
  'crm.lead',
  'lms.learner',
  'cms.submission',
  'mail.contact',
  'mail.message',
  'mail.event',
];

/** How many near subjects an unknown one is answered with. */
const NEAREST = 5;
/** Kinds of record looked through for near subjects: the nearest by name. */
const NEAR_CATEGORIES = 3;
/** Ids longer than this are not varied digit by digit (no record has one). */
const MAX_VARIED_ID = 12;

/** Levenshtein distance (insertions, deletions, substitutions), for short texts. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** Whether the suite holds a record that is this subject (erased or not). */
export async function isKnownSubject(events: EventStore, subject: string): Promise<boolean> {
  if (!SUBJECT_CATEGORIES.includes(streamCategory(subject))) return false;
  return (await events.readStream(subject, { toRevision: 0 })).length > 0;
}

/** The numbers one edit away from `id` (a digit deleted, changed or added), up to `last`. */
function oneEditAway(id: string, last: number): number[] {
  const texts = new Set<string>();
  for (let at = 0; at <= id.length; at++) {
    if (at < id.length) texts.add(id.slice(0, at) + id.slice(at + 1));
    for (let digit = 0; digit <= 9; digit++) {
      texts.add(id.slice(0, at) + digit + id.slice(at));
      if (at < id.length) texts.add(id.slice(0, at) + digit + id.slice(at + 1));
    }
  }
  return [...texts]
    .filter((text) => /^[1-9]\d*$/.test(text))
    .map(Number)
    .filter((number) => number <= last);
}

/**
 * The known subjects nearest to an unknown one, nearest first: in the kinds of record whose names are
 * nearest its own, the same id, the ids one digit away, and the last record of the kind when the id is
 * beyond it. A bounded number of look-ups, whatever the size of the log.
 */
export async function nearestSubjects(events: EventStore, subject: string): Promise<string[]> {
  const category = streamCategory(subject);
  const id = subject.slice(category.length + 1);
  const categories = [...SUBJECT_CATEGORIES]
    .sort((a, b) => editDistance(category, a) - editDistance(category, b))
    .slice(0, NEAR_CATEGORIES);
  const candidates = new Set<string>();
  for (const near of categories) {
    if (near !== category) candidates.add(`${near}-${id}`);
    if (!/^\d+$/.test(id) || id.length > MAX_VARIED_ID) continue;
    const last = await events.lastStreamNumber(near);
    for (const number of oneEditAway(id, last)) candidates.add(`${near}-${number}`);
    if (last > 0 && Number(id) > last) candidates.add(`${near}-${last}`);
  }
  const known: string[] = [];
  for (const candidate of candidates) {
    if (candidate !== subject && (await isKnownSubject(events, candidate))) known.push(candidate);
  }
  return known
    .sort((a, b) => editDistance(subject, a) - editDistance(subject, b) || a.localeCompare(b))
    .slice(0, NEAREST);
}

/** Refuses a subject the suite holds no record of (404 `unknown_subject`), naming the nearest known ones. */
export async function requireKnownSubject(events: EventStore, subject: string): Promise<void> {
  if (await isKnownSubject(events, subject)) return;
  const nearest = await nearestSubjects(events, subject);
  const hint = nearest.length > 0 ? `; the nearest known: ${nearest.join(', ')}` : '';
  throw new DomainError('unknown_subject', `The suite holds no data of ${subject}${hint}`, {
    subject,
    nearest,
  });
}

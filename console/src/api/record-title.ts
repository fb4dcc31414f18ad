import { ERASED } from './field-text';
import { resourceLabel } from './names';

/** Fields that name a record, in the order they are preferred. */
const NAME_FIELDS = ['name', 'full_name', 'display_name', 'title', 'subject', 'employee_name'];
/** Fields that name a person in parts, when no field names them whole. */
const NAME_PARTS = [
  ['first_name', 'last_name'],
  ['given_name', 'surname'],
];
/** The reference people quote a record by (a request's `REQ-000001`), rather than its id. */
const REFERENCE_FIELD = 'ref';
/** Names longer than this are cut at a word, with an ellipsis: a heading stays one line. */
const LONGEST_NAME = 40;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' && value !== ERASED ? value.trim() : undefined;

/** A resource's name (the last segment of its list's path) for one record: `employees` as `employee`. */
export function singular(resource: string): string {
  if (/ies$/.test(resource)) return resource.replace(/ies$/, 'y');
  if (/(ss|sh|ch|x|z)es$/.test(resource)) return resource.replace(/es$/, '');
  if (/[^su]s$/.test(resource)) return resource.slice(0, -1);
  return resource;
}

/** The name a record goes by, from whichever of its fields names it, if any. */
export function recordName(record: Record<string, unknown>): string | undefined {
  const whole = NAME_FIELDS.map((field) => text(record[field])).find((name) => name !== undefined);
  const parts = NAME_PARTS.map((fields) => fields.flatMap((field) => text(record[field]) ?? []).join(' '));
  const name = whole ?? parts.find((candidate) => candidate !== '');
  if (name === undefined || name.length <= LONGEST_NAME) return name;
  const cut = name.slice(0, LONGEST_NAME);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : LONGEST_NAME).trimEnd()}…`;
}

/**
 * A record's title as people call it: the resource in the singular and the record's reference or id,
 * then its name when it has one (`Employee 3 · Ana Silva`, `Request REQ-000001 · Letter confirming…`).
 */
export function recordTitle(
  resource: string,
  id: string,
  record: Record<string, unknown> | undefined,
): string {
  const reference = (record && text(record[REFERENCE_FIELD])) ?? id;
  const name = record && recordName(record);
  const heading = `${singular(resourceLabel(resource))} ${reference}`;
  return name === undefined ? heading : `${heading} · ${name}`;
}

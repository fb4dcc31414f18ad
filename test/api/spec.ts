import type { Response } from 'supertest';
import { TOKEN } from '../support/esm-harness';

/** Field types as the spec's tables write them (suite-api-v1.md, section 2.1). */
/** The paths every port answers besides its data: its index, health and probes. */
export const SERVICE_PATHS = ['/api/', '/api/v1/health', '/livez', '/readyz'];

export type SpecType = 'integer' | 'integer|null' | 'string' | 'string|null' | 'boolean' | 'object';
export type SpecTable = Readonly<Record<string, SpecType>>;

/** The times every record carries (created_at, updated_at). */
const RECORD_TIMES: SpecTable = { created_at: 'string', updated_at: 'string' };

export const SERVICE: SpecTable = {
  ...RECORD_TIMES,
  id: 'integer|null',
  name: 'string',
  department_id: 'integer|null',
  category: 'string|null',
  description: 'string|null',
  icon: 'string|null',
  sla_hours: 'integer',
  requires_approval: 'integer',
  form_schema: 'string',
  is_active: 'integer',
};

export const REQUEST: SpecTable = {
  ...RECORD_TIMES,
  id: 'integer|null',
  ref: 'string|null',
  title: 'string',
  service_id: 'integer|null',
  department_id: 'integer|null',
  requester_id: 'integer|null',
  requester_name: 'string|null',
  assignee_id: 'integer|null',
  assignee_name: 'string|null',
  approver_id: 'integer|null',
  status: 'string',
  next_statuses: 'object',
  priority: 'string',
  priority_rank: 'integer',
  form_data: 'string|null',
  created: 'string',
  response_by: 'string|null',
  resolution_by: 'string|null',
  first_responded_on: 'string|null',
  approved_on: 'string|null',
  resolved_on: 'string|null',
  feedback_rating: 'integer|null',
  sla_state: 'string',
  sla_targets: 'object',
  sla_changes_at: 'string|null',
};

export const KNOWLEDGE_ARTICLE: SpecTable = {
  ...RECORD_TIMES,
  id: 'integer|null',
  title: 'string',
  category_id: 'integer|null',
  department_id: 'integer|null',
  content: 'string|null',
  author: 'string|null',
  status: 'string',
  next_statuses: 'object',
  views: 'integer',
  published_on: 'string|null',
};

export const DEPARTMENT: SpecTable = {
  ...RECORD_TIMES,
  id: 'integer|null',
  name: 'string',
  icon: 'string|null',
};

export const HEALTH: SpecTable = {
  status: 'string',
  product: 'string',
  version: 'string',
  writes_enabled: 'boolean',
  projections: 'string',
};

function matches(value: unknown, type: SpecType): boolean {
  const [base, nullable] = type.split('|') as [string, string | undefined];
  if (value === null) return nullable === 'null';
  if (base === 'integer') return Number.isInteger(value);
  return typeof value === base;
}

/** The ways `value` differs from the table: missing or extra keys and values of the wrong type. */
export function shapeProblems(value: unknown, table: SpecTable): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['not an object'];
  const record = value as Record<string, unknown>;
  const problems = Object.keys(table)
    .filter((key) => !(key in record))
    .map((key) => `missing ${key}`);
  for (const key of Object.keys(record)) {
    const type = table[key];
    if (!type) problems.push(`extra ${key}`);
    else if (!matches(record[key], type))
      problems.push(`${key}: ${JSON.stringify(record[key])} is not ${type}`);
  }
  return problems;
}

export function expectShape(value: unknown, table: SpecTable): void {
  expect(shapeProblems(value, table)).toEqual([]);
}

/** The error envelope `{error: {code, message, details?}}` with the given status and code. */
export function expectEnvelope(res: Response, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.type).toBe('application/json');
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.message).toMatch(/\S/);
  expect(Object.keys(res.body.error).every((key) => ['code', 'message', 'details'].includes(key))).toBe(true);
}

interface Detail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** The read endpoints' 422 `{detail: [...]}`, with exactly these locations. */
export function expectDetail(res: Response, ...locs: (string | number)[][]): void {
  expect(res.status).toBe(422);
  expect(Object.keys(res.body)).toEqual(['detail']);
  const details = res.body.detail as Detail[];
  for (const detail of details) {
    expect(typeof detail.msg).toBe('string');
    expect(typeof detail.type).toBe('string');
  }
  expect(details.map((detail) => detail.loc)).toEqual(locs);
}

/** The fields a 422 write envelope names in `details.issues[].loc` (`['body', 'title']` -> `title`). */
export function namedFields(res: Response): string[] {
  const issues = (res.body.error?.details?.issues ?? []) as Detail[];
  return issues.map((issue) => issue.loc.slice(1).join('.'));
}

export const auth = { Authorization: `Bearer ${TOKEN}` };

export const validRequest = { title: 'Laptop for Ana', status: 'Open', priority: 'High' };

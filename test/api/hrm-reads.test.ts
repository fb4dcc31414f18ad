import { withRecordTimes } from '../../src/api/kit/record-times';
import { evolveStamped } from '../../src/projections/stamped-evolve';
import request from 'supertest';
import { z } from 'zod';
import {
  ApplicationRecord,
  AttendanceRecord,
  BrandRecord,
  CandidateRecord,
  CareerSiteRecord,
  DepartmentRecord,
  EmployeeRecord,
  JobDistributionRecord,
  JobRecord,
  LeaveApplicationRecord,
  OrganizationRecord,
  OrganizationTeamRecord,
} from '../../src/projections/hrm';
import { hrmModule } from '../../src/api/hrm';
import { addTimeOff, openHrm, type HrmHarness } from '../support/hrm-harness';
import { expectEnvelope } from './spec';

type Row = Record<string, unknown> & { id: number };

let h: HrmHarness;

beforeAll(async () => {
  h = await openHrm();
  await addTimeOff(h);
});
afterAll(() => h.close());

const list = (path: string, query: Record<string, string | number> = {}) =>
  request(h.app).get(`/api/v1/${path}`).query(query);

/** The 422 envelope of a bad read parameter, naming each parameter in `details.issues`. */
function expectInvalid(res: request.Response, ...locs: (string | number)[][]): void {
  expectEnvelope(res, 422, 'validation_error');
  const issues = res.body.error.details.issues as { loc: (string | number)[]; msg: string }[];
  expect(issues.map((issue) => issue.loc)).toEqual(locs);
  for (const [, name] of locs) expect(res.body.error.message).toContain(String(name));
}

interface Resource {
  path: string;
  record: z.ZodObject;
  total: number;
  /** A query in mixed case and the `field` value it finds, alone. */
  search: { q: string; field: string; value: string };
  /** A status in lower case, and how many records have it. */
  status: [string, number];
}

const RESOURCES: Resource[] = [
  {
    path: 'employees',
    record: EmployeeRecord,
    total: 4,
    search: { q: 'hr-emp-00002', field: 'employee_name', value: 'Grace Hopper' },
    status: ['left', 1],
  },
  {
    path: 'departments',
    record: DepartmentRecord,
    total: 2,
    search: { q: 'PPL', field: 'name', value: 'People' },
    status: ['active', 2],
  },
  {
    path: 'leave',
    record: LeaveApplicationRecord,
    total: 3,
    search: { q: 'LISBON', field: 'leave_type', value: 'Annual Leave' },
    status: ['approved', 1],
  },
  {
    path: 'attendance',
    record: AttendanceRecord,
    total: 4,
    search: { q: 'turing', field: 'employee_name', value: 'Alan Turing' },
    status: ['work from home', 1],
  },
  {
    path: 'jobs',
    record: JobRecord,
    total: 2,
    search: { q: 'heat PUMP', field: 'title', value: 'Heat Pump Installation Engineer' },
    status: ['closed', 1],
  },
  {
    path: 'candidates',
    record: CandidateRecord,
    total: 2,
    search: { q: 'KELLER', field: 'full_name', value: 'Jonas Keller' },
    status: ['active', 2],
  },
  {
    path: 'applications',
    record: ApplicationRecord,
    total: 2,
    search: { q: 'marta', field: 'candidate_name', value: 'Marta Quintero' },
    status: ['replied', 1],
  },
  {
    path: 'organizations',
    record: OrganizationRecord,
    total: 2,
    search: { q: 'gmbh', field: 'name', value: 'Halcyon Deutschland' },
    status: ['active', 2],
  },
  {
    path: 'brands',
    record: BrandRecord,
    total: 2,
    search: { q: 'WARM', field: 'name', value: 'Warmwerk' },
    status: ['inactive', 0],
  },
  {
    path: 'career-sites',
    record: CareerSiteRecord,
    total: 2,
    search: { q: 'graduates', field: 'name', value: 'Halcyon Graduates' },
    status: ['draft', 1],
  },
  {
    path: 'organization-teams',
    record: OrganizationTeamRecord,
    total: 1,
    search: { q: 'recruiting uk', field: 'name', value: 'Engineering Recruiting UK' },
    status: ['active', 1],
  },
  {
    path: 'job-distributions',
    record: JobDistributionRecord,
    total: 2,
    search: { q: 'ENTWICKLER', field: 'locale', value: 'de-DE' },
    status: ['withdrawn', 1],
  },
];

describe.each(RESOURCES)('GET /api/v1/$path', ({ path, record, total, search, status }) => {
  it('answers the collection envelope with default limit 50 and offset 0', async () => {
    const res = await list(path).expect(200);
    expect(res.type).toBe('application/json');
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    expect(res.body.meta).toEqual({ total, limit: 50, offset: 0, next: null });
    expect(res.body.data).toHaveLength(total);
  });

  it('returns records with exactly the fields of the declared record schema', async () => {
    const res = await list(path).expect(200);
    for (const row of res.body.data)
      expect(z.strictObject(withRecordTimes(record).shape).safeParse(row).error).toBeUndefined();
  });

  it('honours limit and offset, in id order, and keeps the total', async () => {
    const all = (await list(path).expect(200)).body.data as Row[];
    expect(all.map((row) => row.id)).toEqual([...all.map((row) => row.id)].sort((a, b) => a - b));
    const res = await list(path, { limit: 1, offset: 1 }).expect(200);
    expect(res.body).toEqual({
      data: all.slice(1, 2),
      meta: { total, limit: 1, offset: 1, next: total > 2 ? expect.any(String) : null },
    });
    expect((await list(path, { limit: 200 }).expect(200)).body.meta.limit).toBe(200);
  });

  it('searches case-insensitively with q', async () => {
    const res = await list(path, { q: search.q }).expect(200);
    expect(res.body.data.map((row: Row) => row[search.field])).toEqual([search.value]);
    expect((await list(path, { q: 'zzzz-nothing' }).expect(200)).body.meta.total).toBe(0);
  });

  it('filters by status in any letter case, and refuses an unknown status with 422', async () => {
    const res = await list(path, { status: status[0] }).expect(200);
    expect(res.body.meta.total).toBe(status[1]);
    expectInvalid(await list(path, { status: 'Bogus' }), ['query', 'status']);
  });

  it('returns one record by id, equal to its list entry', async () => {
    const all = (await list(path).expect(200)).body.data as Row[];
    const wanted = all[all.length - 1] as Row;
    const res = await request(h.app).get(`/api/v1/${path}/${wanted.id}`).expect(200);
    expect(res.body).toEqual(wanted);
  });

  it('declares the stream that holds the history of each record', async () => {
    const resource = hrmModule.resources.find((candidate) => candidate.path === path);
    const projection = hrmModule.projector.projections.find(
      (candidate) => candidate.collection === resource?.collection.name,
    );
    for (const row of (await list(path).expect(200)).body.data as Row[]) {
      const events = await h.suite.eventStore.readStream(projection!.stream!(row.id));
      const folded = events
        .filter((event) => projection!.handles.includes(event.type))
        .reduce(
          (doc, event) => evolveStamped(projection!, doc, event),
          null as Record<string, unknown> | null,
        );
      expect(folded).toEqual(row);
    }
  });

  it('answers an unknown id with a 404 not_found envelope', async () => {
    const res = await request(h.app).get(`/api/v1/${path}/999999`);
    expectEnvelope(res, 404, 'not_found');
    expect(res.body.error.message).toMatch(/999999 not found/);
  });

  it.each(['abc', '1.5'])('refuses the id %s with a 422 envelope naming the path parameter', async (id) => {
    expectInvalid(await request(h.app).get(`/api/v1/${path}/${id}`), ['path', 'id']);
  });

  it.each([
    [{ limit: 0 }, ['query', 'limit']],
    [{ limit: 201 }, ['query', 'limit']],
    [{ limit: 'abc' }, ['query', 'limit']],
    [{ offset: -1 }, ['query', 'offset']],
  ])('refuses %j with a 422 envelope naming the parameter', async (query, loc) => {
    expectInvalid(await list(path, query), loc);
  });
});

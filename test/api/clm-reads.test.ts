import { withRecordTimes } from '../../src/api/kit/record-times';
import request from 'supertest';
import { z } from 'zod';
import { clmModule } from '../../src/api/clm';
import type { Clock } from '../../src/clock';
import {
  ContractRecord,
  CounterpartyRecord,
  MemberRecord,
  ObligationRecord,
} from '../../src/projections/clm';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { ACME, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';
import { expectEnvelope } from './spec';
import { expectInvalid } from '../support/module-api';

let h: ModuleHarness<ClmFixtures>;
beforeAll(async () => {
  h = await openModule(clmModule, { fixtures: clmFixtures });
});
afterAll(() => h.close());

const acme = { Authorization: `Bearer ${TOKEN}`, 'X-Svc-Organisation': ACME };
const get = (path: string, query: Record<string, string | number> = {}) =>
  request(h.app).get(path).set(acme).query(query);
const ids = (res: request.Response) => (res.body.data as { id: string }[]).map((row) => row.id).sort();
const strictly = (schema: z.ZodObject, record: unknown) => {
  const parsed = z.strictObject(withRecordTimes(schema).shape).safeParse(record);
  expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
};

describe('GET /api/v1/contracts', () => {
  it('answers the list envelope with limit 20 and offset 0 by default', async () => {
    const res = await get('/api/v1/contracts').expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    expect(res.body.meta).toEqual({ total: 4, limit: 20, offset: 0, next: null });
    for (const row of res.body.data) strictly(ContractRecord, row);
  });

  it('embeds the versions with their number, time, author and content hash', async () => {
    const res = await get(`/api/v1/contracts/${h.fixtures.approved}`).expect(200);
    expect(res.body).toMatchObject({ status: 'approved', current_version: 2 });
    expect(res.body.versions).toEqual([
      expect.objectContaining({ version: 1, author_id: 'm-acme-owner', created_at: '2026-11-01T08:00:00Z' }),
      expect.objectContaining({ version: 2, author_id: 'm-acme-editor' }),
    ]);
    for (const version of res.body.versions) expect(version.content_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.versions[0].content_sha256).not.toBe(res.body.versions[1].content_sha256);
  });

  it('derives open and overdue obligations and the next due date from the clock (2026-11-21)', async () => {
    const res = await get(`/api/v1/contracts/${h.fixtures.active}`).expect(200);
    expect(res.body).toMatchObject({
      open_obligations: 3,
      overdue_obligations: 1,
      completed_obligations: 1,
      next_due_date: '2026-12-15',
    });
    const draft = await get(`/api/v1/contracts/${h.fixtures.draft}`).expect(200);
    expect(draft.body).toMatchObject({
      open_obligations: 0,
      overdue_obligations: 0,
      next_due_date: null,
      versions: [],
    });
  });

  it('returns one record by id, equal to its list entry', async () => {
    const list = await get('/api/v1/contracts').expect(200);
    const entry = list.body.data.find((row: { id: string }) => row.id === h.fixtures.inReview);
    expect((await get(`/api/v1/contracts/${h.fixtures.inReview}`).expect(200)).body).toEqual(entry);
  });

  it('searches reference, title and counterparty name case-insensitively', async () => {
    const f = h.fixtures;
    expect(ids(await get('/api/v1/contracts', { q: 'acme-sup' }))).toEqual([f.active]);
    expect(ids(await get('/api/v1/contracts', { q: 'MUTUAL nda' }))).toEqual([f.draft]);
    expect(ids(await get('/api/v1/contracts', { q: 'quiet ltd' }))).toEqual([f.inReview]);
  });

  it('filters by status, type and counterparty', async () => {
    const f = h.fixtures;
    expect(ids(await get('/api/v1/contracts', { status: 'IN_REVIEW' }))).toEqual([f.inReview]);
    expect(ids(await get('/api/v1/contracts', { type: 'supply agreement' }))).toEqual([f.active]);
    expect(ids(await get('/api/v1/contracts', { counterparty_id: f.quiet }))).toEqual([f.inReview]);
    const res = await get('/api/v1/contracts', { counterparty_id: f.nordwind, status: 'approved' });
    expect(ids(res)).toEqual([f.approved]);
    expect(res.body.meta.total).toBe(1);
  });

  it('pages with limit and offset and keeps the total', async () => {
    const all = (await get('/api/v1/contracts').expect(200)).body.data;
    const res = await get('/api/v1/contracts', { limit: 2, offset: 1 }).expect(200);
    expect(res.body).toEqual({
      data: all.slice(1, 3),
      meta: { total: 4, limit: 2, offset: 1, next: expect.any(String) },
    });
    expect((await get('/api/v1/contracts', { offset: 100 }).expect(200)).body).toEqual({
      data: [],
      meta: { total: 4, limit: 20, offset: 100, next: null },
    });
  });

  it('rejects bad parameters with a 422 envelope naming each', async () => {
    expectInvalid(
      await get('/api/v1/contracts', { limit: 0, offset: -1 }),
      ['query', 'limit'],
      ['query', 'offset'],
    );
    expectInvalid(await get('/api/v1/contracts', { limit: 201 }), ['query', 'limit']);
    expectInvalid(await get('/api/v1/contracts', { limit: 'ten' }), ['query', 'limit']);
    expectInvalid(await get('/api/v1/contracts', { status: 'Sleeping' }), ['query', 'status']);
    expectInvalid(await get('/api/v1/contracts', { type: 'Handshake' }), ['query', 'type']);
  });

  it('answers an unknown id with a 404 envelope', async () => {
    expectEnvelope(await get('/api/v1/contracts/ctr_nothing'), 404, 'not_found');
  });
});

describe('GET /api/v1/obligations', () => {
  it('reports an open obligation past its due date as overdue', async () => {
    const f = h.fixtures;
    const res = await get('/api/v1/obligations').expect(200);
    expect(res.body.meta).toEqual({ total: 4, limit: 20, offset: 0, next: null });
    for (const row of res.body.data) strictly(ObligationRecord, row);
    const status = Object.fromEntries(
      res.body.data.map((row: { id: string; status: string }) => [row.id, row.status]),
    );
    expect(status).toEqual({
      [f.overdue]: 'overdue',
      [f.upcoming]: 'open',
      [f.later]: 'open',
      [f.completed]: 'completed',
    });
    expect((await get(`/api/v1/obligations/${f.completed}`).expect(200)).body).toMatchObject({
      status: 'completed',
      completed_on: '2026-10-01',
      created_by: 'seed',
    });
  });

  it('filters by the reported status, contract and due date', async () => {
    const f = h.fixtures;
    expect(ids(await get('/api/v1/obligations', { status: 'overdue' }))).toEqual([f.overdue]);
    expect(ids(await get('/api/v1/obligations', { status: 'OPEN' }))).toEqual([f.upcoming, f.later].sort());
    expect(ids(await get('/api/v1/obligations', { status: 'completed' }))).toEqual([f.completed]);
    expect(ids(await get('/api/v1/obligations', { due_before: '2026-12-15' }))).toEqual(
      [f.overdue, f.upcoming, f.completed].sort(),
    );
    const res = await get('/api/v1/obligations', {
      contract_id: f.active,
      status: 'open',
      due_before: '2026-12-31',
    });
    expect(ids(res)).toEqual([f.upcoming]);
    expect(res.body.meta.total).toBe(1);
    expect((await get('/api/v1/obligations', { contract_id: f.draft })).body.meta.total).toBe(0);
  });

  it('rejects bad filter values with a 422 naming the parameter', async () => {
    expectInvalid(await get('/api/v1/obligations', { status: 'late' }), ['query', 'status']);
    expectInvalid(await get('/api/v1/obligations', { due_before: '2026-02-30' }), ['query', 'due_before']);
    expectInvalid(await get('/api/v1/obligations', { due_before: 'tomorrow' }), ['query', 'due_before']);
  });
});

describe('overdue is computed when read, never appended', () => {
  const clock = () => (h.suite as unknown as { clock: Clock }).clock;
  const setClock = (value: Clock) => {
    (h.suite as unknown as { clock: Clock }).clock = value;
  };

  it('moves obligations into overdue as the clock passes their dates, with no new event', async () => {
    const f = h.fixtures;
    const head = await h.suite.eventStore.headPosition();
    const fixed = clock();
    try {
      setClock({ now: () => new Date('2027-01-10T12:00:00Z') });
      expect(ids(await get('/api/v1/obligations', { status: 'overdue' }))).toEqual(
        [f.overdue, f.upcoming].sort(),
      );
      expect((await get(`/api/v1/obligations/${f.upcoming}`)).body.status).toBe('overdue');
      expect((await get(`/api/v1/contracts/${f.active}`)).body).toMatchObject({
        open_obligations: 3,
        overdue_obligations: 2,
        next_due_date: '2027-03-01',
      });
      setClock({ now: () => new Date('2026-10-15T12:00:00Z') });
      expect((await get('/api/v1/obligations', { status: 'overdue' })).body.meta.total).toBe(0);
    } finally {
      setClock(fixed);
    }
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });

  it('counts an obligation due today as open, not overdue', async () => {
    const fixed = clock();
    try {
      setClock({ now: () => new Date('2026-12-15T23:59:59Z') });
      expect((await get(`/api/v1/obligations/${h.fixtures.upcoming}`)).body.status).toBe('open');
    } finally {
      setClock(fixed);
    }
  });
});

describe('GET /api/v1/counterparties and members', () => {
  it('answers counterparties with the fields finance and CRM systems need', async () => {
    const res = await get(`/api/v1/counterparties/${h.fixtures.nordwind}`).expect(200);
    strictly(CounterpartyRecord, res.body);
    expect(res.body).toMatchObject({
      legal_name: 'Nordwind Cloud GmbH',
      registration_number: 'HRB 123456 (Amtsgericht Hamburg)',
      vat_number: 'DE123456789',
      country: 'DE',
      contract_count: 3,
    });
    expect(res.body.contacts[0]).toMatchObject({ name: 'Henrik Brandt', is_signatory: true });
  });

  it('lists 20 by default, searches and filters by country', async () => {
    expect((await get('/api/v1/counterparties').expect(200)).body.meta).toEqual({
      total: 2,
      limit: 20,
      offset: 0,
      next: null,
    });
    expect(ids(await get('/api/v1/counterparties', { q: 'QUIET' }))).toEqual([h.fixtures.quiet]);
    expect((await get('/api/v1/counterparties', { country: 'de' })).body.meta.total).toBe(2);
    expect((await get('/api/v1/counterparties', { country: 'FR' })).body.meta.total).toBe(0);
    expectInvalid(await get('/api/v1/counterparties', { country: 'Germany' }), ['query', 'country']);
  });

  it('lists the workspace\u2019s members with their roles', async () => {
    const res = await get('/api/v1/members', { role: 'viewer' }).expect(200);
    expect(ids(res)).toEqual(['m-acme-viewer']);
    strictly(MemberRecord, res.body.data[0]);
    expect((await get('/api/v1/workspaces/ws-acme').expect(200)).body).toMatchObject({ member_count: 3 });
  });
});

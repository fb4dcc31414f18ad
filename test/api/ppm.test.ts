import request from 'supertest';
import { ppmModule } from '../../src/api/ppm';
import {
  addMilestone,
  addProject,
  identifyRisk,
  registerDocument,
  type DocumentInput,
  type MilestoneInput,
  type ProjectInput,
  type RiskInput,
} from '../../src/commands/ppm/handlers';
import type { SeedContext } from '../../src/seed/context';
import {
  describeModuleBasics,
  describeReads,
  describeWriteGuards,
  expectInvalid,
  expectRecord,
  listed,
} from '../support/module-api';
import { openModule, type ModuleHarness, allDocuments } from '../support/module-harness';
import { auth, expectEnvelope } from './spec';

const project = (overrides: Partial<ProjectInput>): ProjectInput => ({
  code: 'PRG-01',
  name: 'Digital Workplace',
  type: 'Programme',
  parent_id: null,
  status: 'Active',
  health: 'Green',
  priority: 'High',
  description: 'Collaboration for every employee.',
  owner: 'Anna Schmidt',
  sponsor: 'Helena Brandt',
  start_date: '2026-01-05',
  end_date: '2027-12-17',
  budget: 4_000_000,
  currency: 'EUR',
  ...overrides,
});

const milestone = (overrides: Partial<MilestoneInput>): MilestoneInput => ({
  project_id: 1,
  name: 'Milestone',
  description: null,
  owner: 'Lukas Weber',
  due_date: '2026-12-01',
  depends_on: [],
  status: 'Not Started',
  progress: 0,
  completed_on: null,
  ...overrides,
});

const risk = (overrides: Partial<RiskInput>): RiskInput => ({
  project_id: 1,
  title: 'Risk',
  description: 'Something may happen.',
  category: 'Schedule',
  probability: 3,
  impact: 3,
  status: 'Open',
  mitigation: 'Plan for it.',
  owner: 'Eva Novak',
  identified_on: '2026-10-01',
  review_date: '2026-12-01',
  ...overrides,
});

const document = (overrides: Partial<DocumentInput>): DocumentInput => ({
  project_id: 1,
  title: 'Document',
  document_type: 'Business Case',
  file_name: 'PRG-01_business-case_v1.pdf',
  mime_type: 'application/pdf',
  size_bytes: 120_000,
  sha256: 'a'.repeat(64),
  page_count: 12,
  source: 'Upload',
  uploaded_by: 'Anna Schmidt',
  uploaded_at: '2026-10-01T10:00:00Z',
  status: 'Extracted',
  extracted_at: '2026-10-01T10:02:00Z',
  extracted_fields: { budget: 'EUR 4,000,000' },
  confidence: 0.93,
  extraction_error: null,
  ...overrides,
});

/** A programme with two projects and a workstream; five milestones, three risks, three documents. */
async function fixtures({ commands }: SeedContext) {
  const { id: programme } = await addProject(commands, project({}));
  const { id: intranet } = await addProject(
    commands,
    project({ code: 'PRJ-0001', name: 'Intranet Relaunch', type: 'Project', parent_id: programme }),
  );
  const { id: rooms } = await addProject(
    commands,
    project({
      code: 'PRJ-0002',
      name: 'Meeting Room Modernisation',
      type: 'Project',
      parent_id: programme,
      status: 'Proposed',
      health: 'Green',
    }),
  );
  const { id: design } = await addProject(
    commands,
    project({ code: 'WS-0001', name: 'Intranet Relaunch: Design', type: 'Workstream', parent_id: intranet }),
  );
  const { id: approved } = await addMilestone(
    commands,
    milestone({
      project_id: intranet,
      name: 'Business case approved',
      status: 'Completed',
      progress: 100,
      completed_on: '2026-02-01',
      due_date: '2026-02-01',
    }),
  );
  const { id: designed } = await addMilestone(
    commands,
    milestone({
      project_id: design,
      name: 'Solution design approved',
      status: 'In Progress',
      progress: 60,
      depends_on: [approved],
      due_date: '2026-11-30',
    }),
  );
  const { id: built } = await addMilestone(
    commands,
    milestone({ project_id: design, name: 'Build complete', depends_on: [designed], due_date: '2027-03-01' }),
  );
  const { id: cancelled } = await addMilestone(
    commands,
    milestone({ project_id: rooms, name: 'Rooms surveyed', status: 'Cancelled', progress: 20 }),
  );
  const { id: mobilised } = await addMilestone(
    commands,
    milestone({ project_id: programme, name: 'Programme mobilised', due_date: '2026-01-30' }),
  );
  await identifyRisk(
    commands,
    risk({ project_id: intranet, title: 'Licence costs above plan', category: 'Cost' }),
  );
  await identifyRisk(
    commands,
    risk({
      project_id: intranet,
      title: 'Vendor roadmap slips',
      category: 'Vendor',
      probability: 4,
      impact: 5,
    }),
  );
  await identifyRisk(
    commands,
    risk({ project_id: rooms, title: 'Works council approval', status: 'Closed', probability: 1, impact: 2 }),
  );
  await registerDocument(commands, document({ title: 'Intranet business case', project_id: intranet }));
  await registerDocument(
    commands,
    document({
      title: 'Steering committee minutes',
      document_type: 'Steering Committee Minutes',
      project_id: programme,
      status: 'Failed',
      extracted_at: null,
      extracted_fields: {},
      confidence: null,
      extraction_error: 'The file is password-protected',
    }),
  );
  await registerDocument(
    commands,
    document({
      title: 'Rooms charter',
      document_type: 'Project Charter',
      project_id: rooms,
      status: 'Queued',
      extracted_at: null,
      extracted_fields: {},
      confidence: null,
      source: 'SharePoint',
    }),
  );
  return { programme, intranet, rooms, design, approved, designed, built, cancelled, mobilised };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;
let h: ModuleHarness<Fixtures>;
beforeAll(async () => {
  h = await openModule(ppmModule, { fixtures });
});
afterAll(() => h.close());

describeModuleBasics(ppmModule, () => h);

describeReads(ppmModule, () => h, [
  { path: 'projects', total: 4, search: { q: 'MEETING room', field: 'code', value: 'PRJ-0002' } },
  { path: 'milestones', total: 5, search: { q: 'build COMPLETE', field: 'name', value: 'Build complete' } },
  { path: 'risks', total: 3, search: { q: 'rsk-0002', field: 'title', value: 'Vendor roadmap slips' } },
  { path: 'documents', total: 3, search: { q: 'rooms CHARTER', field: 'title', value: 'Rooms charter' } },
]);

describe('portfolio filters', () => {
  const ids = (path: string, query: Record<string, string | number>) => listed(h.app, path, query);

  it('walks the hierarchy with parent_id and type', async () => {
    const f = h.fixtures;
    expect(await ids('projects', { parent_id: f.programme })).toEqual([f.intranet, f.rooms]);
    expect(await ids('projects', { parent_id: f.intranet })).toEqual([f.design]);
    expect(await ids('projects', { type: 'programme' })).toEqual([f.programme]);
    expect(await ids('projects', { status: 'Proposed' })).toEqual([f.rooms]);
  });

  it('filters milestones by project, status and due date', async () => {
    const f = h.fixtures;
    expect(await ids('milestones', { project_id: f.design })).toEqual([f.designed, f.built]);
    expect(await ids('milestones', { status: 'not started' })).toEqual([f.built, f.mobilised]);
    expect(await ids('milestones', { due_before: '2026-02-01' })).toEqual([f.approved, f.mobilised]);
    expect(await ids('milestones', { due_after: '2026-12-01', project_id: f.design })).toEqual([f.built]);
  });

  it('filters risks by project, category, rating and minimum score', async () => {
    expect(await listed(h.app, 'risks', { project_id: h.fixtures.intranet }, 'ref')).toEqual([
      'RSK-0001',
      'RSK-0002',
    ]);
    expect(await listed(h.app, 'risks', { min_score: 10 }, 'ref')).toEqual(['RSK-0002']);
    expect(await listed(h.app, 'risks', { rating: 'critical' }, 'ref')).toEqual(['RSK-0002']);
    expect(await listed(h.app, 'risks', { category: 'Cost', status: 'Open' }, 'ref')).toEqual(['RSK-0001']);
  });

  it('filters documents by extraction state, type and source', async () => {
    expect(await listed(h.app, 'documents', { status: 'Failed' }, 'title')).toEqual([
      'Steering committee minutes',
    ]);
    expect(await listed(h.app, 'documents', { source: 'sharepoint' }, 'title')).toEqual(['Rooms charter']);
    expect(await listed(h.app, 'documents', { document_type: 'Business Case' }, 'title')).toEqual([
      'Intranet business case',
    ]);
  });

  it('rejects filter values of the wrong kind with a 422 naming the parameter', async () => {
    const get = (path: string, query: Record<string, string>) =>
      request(h.app).get(`/api/v1/${path}`).query(query);
    expectInvalid(await get('projects', { status: 'Sleeping' }), ['query', 'status']);
    expectInvalid(await get('milestones', { project_id: 'x' }), ['query', 'project_id']);
    expectInvalid(await get('milestones', { due_before: '2026-13-01' }), ['query', 'due_before']);
    expectInvalid(await get('risks', { min_score: 'high' }), ['query', 'min_score']);
  });

  it('shows a risk with its score, rating and reference', async () => {
    const res = await request(h.app).get('/api/v1/risks').query({ q: 'vendor' }).expect(200);
    expect(res.body.data[0]).toMatchObject({
      ref: 'RSK-0002',
      probability: 4,
      impact: 5,
      score: 20,
      rating: 'Critical',
    });
  });
});

describe('PATCH /api/v1/milestones/{id}', () => {
  let w: ModuleHarness<Fixtures>;
  beforeEach(async () => {
    w = await openModule(ppmModule, { fixtures });
  });
  afterEach(() => w.close());

  const patch = (id: number | string, body: object) =>
    request(w.app).patch(`/api/v1/milestones/${id}`).set(auth).send(body);
  const NOW = '2026-11-21T09:30:00Z';

  it('reports progress and answers the record, as a GET then shows it', async () => {
    const res = await patch(w.fixtures.designed, { progress: 75 }).expect(200);
    expectRecord(ppmModule, 'milestones', res.body);
    expect(res.body).toMatchObject({
      id: w.fixtures.designed,
      progress: 75,
      status: 'In Progress',
      updated_at: NOW,
    });
    expect(res.headers['x-event-position']).toMatch(/^\d+$/);
    expect((await request(w.app).get(`/api/v1/milestones/${w.fixtures.designed}`)).body).toEqual(res.body);
  });

  it('completes a milestone at progress 100, setting completed_on', async () => {
    const res = await patch(w.fixtures.designed, { progress: 100 }).expect(200);
    expect(res.body).toMatchObject({ status: 'Completed', progress: 100, completed_on: '2026-11-21' });
  });

  it('starts a milestone with its first progress and accepts the status in any case', async () => {
    expect((await patch(w.fixtures.mobilised, { progress: 10 }).expect(200)).body.status).toBe('In Progress');
    expect((await patch(w.fixtures.mobilised, { status: 'at risk' }).expect(200)).body).toMatchObject({
      status: 'At Risk',
      progress: 10,
    });
  });

  it('refuses to complete a milestone whose dependency is not done (409) and appends nothing', async () => {
    const head = await w.suite.eventStore.headPosition();
    const res = await patch(w.fixtures.built, { status: 'Completed' });
    expectEnvelope(res, 409, 'illegal_transition');
    expect(res.body.error.details).toMatchObject({ blocked_by: [w.fixtures.designed] });
    expect(await w.suite.eventStore.headPosition()).toBe(head);
  });

  it('answers a move the table forbids with 409 illegal_transition', async () => {
    expectEnvelope(await patch(w.fixtures.cancelled, { status: 'In Progress' }), 409, 'illegal_transition');
    expectEnvelope(await patch(w.fixtures.designed, { status: 'Not Started' }), 409, 'illegal_transition');
  });

  it('rejects contradicting progress and status with 422 naming progress', async () => {
    const res = await patch(w.fixtures.designed, { status: 'Completed', progress: 90 });
    expectEnvelope(res, 422, 'validation_error');
    expect(res.body.error.message).toMatch(/^progress/);
  });

  it.each([
    [{}, 'an empty change'],
    [{ progress: 101 }, 'progress above 100'],
    [{ progress: 50.5 }, 'fractional progress'],
    [{ status: 'Done' }, 'an unknown status'],
  ])('rejects %j (%s) with 422', async (body, _reason) => {
    expectEnvelope(await patch(w.fixtures.designed, body), 422, 'validation_error');
  });

  it('answers an unknown milestone with 404 and a non-integer id with 422', async () => {
    expectEnvelope(await patch(999, { progress: 10 }), 404, 'not_found');
    expectEnvelope(await patch('abc', { progress: 10 }), 422, 'validation_error');
  });

  it('answers an update that changes nothing with the record and appends nothing', async () => {
    const head = await w.suite.eventStore.headPosition();
    const res = await patch(w.fixtures.designed, { progress: 60 }).expect(200);
    expect(res.body).toMatchObject({ progress: 60, status: 'In Progress' });
    expect(await w.suite.eventStore.headPosition()).toBe(head);
  });

  describeWriteGuards(() => w, {
    method: 'patch',
    path: () => `/api/v1/milestones/${w.fixtures.designed}`,
    body: () => ({ progress: 70 }),
    openWithoutToken: () => openModule(ppmModule, { token: null, fixtures }),
  });
});

describe('portfolio demo data', () => {
  let demo: ModuleHarness<undefined>;
  beforeAll(async () => {
    demo = await openModule(ppmModule, { demo: true });
  }, 60_000);
  afterAll(() => demo.close());

  const all = (path: string) => allDocuments(demo, `ppm.${path}`);

  it('holds hundreds of records per resource, in several states', async () => {
    for (const path of ['projects', 'milestones', 'risks', 'documents']) {
      const records = await all(path);
      expect(records.length).toBeGreaterThanOrEqual(150);
      expect(new Set(records.map((record) => record.status)).size).toBeGreaterThanOrEqual(4);
    }
  });

  it('has foreign keys that all resolve and a consistent hierarchy', async () => {
    const projects = new Map((await all('projects')).map((record) => [record.id, record]));
    const milestones = new Map((await all('milestones')).map((record) => [record.id, record]));
    const parentType = { Programme: undefined, Project: 'Programme', Workstream: 'Project' } as const;
    for (const record of projects.values()) {
      const parent = record.parent_id === null ? undefined : projects.get(record.parent_id as number);
      expect([record.code, parent?.type]).toEqual([
        record.code,
        parentType[record.type as keyof typeof parentType],
      ]);
    }
    for (const record of milestones.values()) {
      expect(projects.has(record.project_id as number)).toBe(true);
      for (const dependency of record.depends_on as number[]) expect(milestones.has(dependency)).toBe(true);
      if (record.status === 'Completed') {
        for (const dependency of record.depends_on as number[])
          expect(['Completed', 'Cancelled']).toContain(milestones.get(dependency)?.status);
      }
    }
    for (const path of ['risks', 'documents'])
      for (const record of await all(path)) expect(projects.has(record.project_id as number)).toBe(true);
  });

  it('scores every risk as probability x impact', async () => {
    for (const record of await all('risks'))
      expect(record.score).toBe((record.probability as number) * (record.impact as number));
  });
});

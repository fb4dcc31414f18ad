import request from 'supertest';
import { lmsModule } from '../../src/api/lms';
import {
  addLesson,
  createCourse,
  enrol,
  recordProgress,
  registerLearner,
  type CourseInput,
  type LearnerInput,
  type LessonInput,
} from '../../src/commands/lms/handlers';
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
import { auth, expectEnvelope, namedFields } from './spec';

const course = (overrides: Partial<CourseInput>): CourseInput => ({
  title: 'SQL for Analysts',
  slug: 'sql-for-analysts',
  short_introduction: 'Query data with confidence.',
  description: 'Learn SQL step by step.',
  category: 'Data & Analytics',
  tags: ['data', 'analytics'],
  level: 'Beginner',
  language: 'en',
  instructors: ['Owen Gallagher'],
  paid_course: false,
  price: 0,
  currency: 'EUR',
  enable_certification: true,
  status: 'Published',
  published_on: '2026-03-02',
  ...overrides,
});

const lesson = (overrides: Partial<LessonInput>): LessonInput => ({
  course_id: 1,
  chapter_number: 1,
  chapter_title: 'Getting started',
  lesson_number: 1,
  title: 'Welcome and course overview',
  content_type: 'Video',
  duration_minutes: 8,
  xp: 10,
  include_in_preview: true,
  ...overrides,
});

const learner = (overrides: Partial<LearnerInput>): LearnerInput => ({
  full_name: 'Sanne de Jong',
  username: 'sanne.dejong',
  email: 'sanne.dejong@northwind.example',
  country: 'NL',
  company: 'Northwind Logistics',
  job_title: 'Analyst',
  xp: 620,
  status: 'Active',
  ...overrides,
});

/** Three courses (one draft), four lessons, three learners (one inactive), two enrolments. */
async function fixtures({ commands }: SeedContext) {
  const { id: sql } = await createCourse(commands, course({}));
  const { id: gdpr } = await createCourse(
    commands,
    course({
      title: 'GDPR for Everyone',
      slug: 'gdpr-for-everyone',
      short_introduction: 'Personal data, the rules and you.',
      category: 'Compliance',
      tags: ['compliance', 'mandatory'],
      language: 'de',
      paid_course: true,
      price: 49,
      instructors: ['Sofia Marchetti'],
    }),
  );
  const { id: draft } = await createCourse(
    commands,
    course({
      title: 'Kubernetes for Developers',
      slug: 'kubernetes-for-developers',
      category: 'Cloud & DevOps',
      level: 'Advanced',
      status: 'Draft',
      published_on: null,
    }),
  );
  const { id: welcome } = await addLesson(commands, lesson({ course_id: sql }));
  const { id: joins } = await addLesson(
    commands,
    lesson({
      course_id: sql,
      lesson_number: 2,
      title: 'Joining tables',
      content_type: 'Article',
      include_in_preview: false,
    }),
  );
  const { id: quiz } = await addLesson(
    commands,
    lesson({
      course_id: sql,
      chapter_number: 2,
      chapter_title: 'Wrap-up',
      title: 'Final quiz',
      content_type: 'Quiz',
      xp: 40,
    }),
  );
  await addLesson(commands, lesson({ course_id: gdpr, title: 'What is personal data?' }));
  const { id: sanne } = await registerLearner(commands, learner({}));
  const { id: marco } = await registerLearner(
    commands,
    learner({
      full_name: 'Marco Vitale',
      username: 'marco.vitale',
      email: 'marco.vitale@northwind.example',
      country: 'IT',
      xp: 4200,
    }),
  );
  const { id: gone } = await registerLearner(
    commands,
    learner({
      full_name: 'Erik Lindberg',
      username: 'erik.lindberg',
      email: 'erik.lindberg@northwind.example',
      country: 'SE',
      xp: 0,
      status: 'Inactive',
    }),
  );
  const { id: sanneSql } = await enrol(commands, { learner_id: sanne, course_id: sql, role: 'Student' });
  await recordProgress(commands, sanneSql, { progress: 100, current_lesson_id: quiz });
  const { id: marcoSql } = await enrol(commands, { learner_id: marco, course_id: sql, role: 'Mentor' });
  return { sql, gdpr, draft, welcome, joins, quiz, sanne, marco, gone, sanneSql, marcoSql };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;
let h: ModuleHarness<Fixtures>;
beforeAll(async () => {
  h = await openModule(lmsModule, { fixtures });
});
afterAll(() => h.close());

describeModuleBasics(lmsModule, () => h);

describeReads(lmsModule, () => h, [
  { path: 'courses', total: 3, search: { q: 'SOFIA march', field: 'title', value: 'GDPR for Everyone' } },
  { path: 'lessons', total: 4, search: { q: 'joining', field: 'title', value: 'Joining tables' } },
  { path: 'learners', total: 3, search: { q: 'marco.VITALE', field: 'full_name', value: 'Marco Vitale' } },
  { path: 'enrolments', total: 2, search: { q: 'marco', field: 'learner_name', value: 'Marco Vitale' } },
]);

describe('learning filters', () => {
  const ids = (path: string, query: Record<string, string | number>) => listed(h.app, path, query);

  it('filters the catalogue by status, category, level, language and price', async () => {
    const f = h.fixtures;
    expect(await ids('courses', { status: 'published' })).toEqual([f.sql, f.gdpr]);
    expect(await ids('courses', { category: 'compliance' })).toEqual([f.gdpr]);
    expect(await ids('courses', { level: 'Advanced' })).toEqual([f.draft]);
    expect(await ids('courses', { language: 'DE' })).toEqual([f.gdpr]);
    expect(await ids('courses', { paid_course: 'false', status: 'Published' })).toEqual([f.sql]);
  });

  it('filters lessons by course, content type and preview', async () => {
    const f = h.fixtures;
    expect(await ids('lessons', { course_id: f.sql })).toEqual([f.welcome, f.joins, f.quiz]);
    expect(await ids('lessons', { content_type: 'quiz' })).toEqual([f.quiz]);
    expect(await ids('lessons', { include_in_preview: 'true', course_id: f.sql })).toEqual([
      f.welcome,
      f.quiz,
    ]);
  });

  it('filters learners by level, status and country', async () => {
    const f = h.fixtures;
    expect(await ids('learners', { level: 'expert' })).toEqual([f.marco]);
    expect(await ids('learners', { level: 'Apprentice' })).toEqual([f.sanne]);
    expect(await ids('learners', { status: 'Inactive' })).toEqual([f.gone]);
    expect(await ids('learners', { country: 'it' })).toEqual([f.marco]);
  });

  it('filters enrolments by learner, course, status and role', async () => {
    const f = h.fixtures;
    expect(await ids('enrolments', { course_id: f.sql })).toEqual([f.sanneSql, f.marcoSql]);
    expect(await ids('enrolments', { learner_id: f.sanne })).toEqual([f.sanneSql]);
    expect(await ids('enrolments', { status: 'complete' })).toEqual([f.sanneSql]);
    expect(await ids('enrolments', { role: 'Mentor' })).toEqual([f.marcoSql]);
  });

  it('shows a completed enrolment with its lesson and completion date', async () => {
    const res = await request(h.app).get(`/api/v1/enrolments/${h.fixtures.sanneSql}`).expect(200);
    expect(res.body).toMatchObject({
      progress: 100,
      status: 'Complete',
      current_lesson_id: h.fixtures.quiz,
      completed_on: '2026-11-01',
      course_title: 'SQL for Analysts',
    });
  });

  it('rejects bad filter values with a 422 naming the parameter', async () => {
    const get = (path: string, query: Record<string, string>) =>
      request(h.app).get(`/api/v1/${path}`).query(query);
    expectInvalid(await get('courses', { status: 'Live' }), ['query', 'status']);
    expectInvalid(await get('courses', { paid_course: 'yes' }), ['query', 'paid_course']);
    expectInvalid(await get('enrolments', { learner_id: '-' }), ['query', 'learner_id']);
    expectInvalid(await get('learners', { level: 'Guru' }), ['query', 'level']);
  });
});

describe('POST /api/v1/enrolments', () => {
  let w: ModuleHarness<Fixtures>;
  beforeEach(async () => {
    w = await openModule(lmsModule, { fixtures });
  });
  afterEach(() => w.close());

  const post = (body: object) => request(w.app).post('/api/v1/enrolments').set(auth).send(body);

  it('enrols a learner in a published course: 201, Location and the record a GET shows', async () => {
    const res = await post({ learner_id: w.fixtures.marco, course_id: w.fixtures.gdpr }).expect(201);
    expectRecord(lmsModule, 'enrolments', res.body);
    expect(res.body).toEqual({
      id: 3,
      learner_id: w.fixtures.marco,
      course_id: w.fixtures.gdpr,
      learner_name: 'Marco Vitale',
      course_title: 'GDPR for Everyone',
      role: 'Student',
      progress: 0,
      status: 'Incomplete',
      current_lesson_id: null,
      enrolled_at: '2026-11-21T09:30:00Z',
      completed_on: null,
      last_activity_at: '2026-11-21T09:30:00Z',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.headers.location).toBe('/api/v1/enrolments/3');
    expect((await request(w.app).get('/api/v1/enrolments/3')).body).toEqual(res.body);
  });

  it('takes the role in any letter case', async () => {
    const res = await post({
      learner_id: w.fixtures.sanne,
      course_id: w.fixtures.gdpr,
      role: 'mentor',
    }).expect(201);
    expect(res.body.role).toBe('Mentor');
  });

  it('answers a second enrolment of the same learner in the course with 409, naming the first', async () => {
    const head = await w.suite.eventStore.headPosition();
    const res = await post({ learner_id: w.fixtures.sanne, course_id: w.fixtures.sql });
    expectEnvelope(res, 409, 'already_exists');
    expect(res.body.error.details).toEqual({ enrolment_id: w.fixtures.sanneSql });
    expect(await w.suite.eventStore.headPosition()).toBe(head);
    // The refused request used no id: the next enrolment gets the next number.
    expect(
      (await post({ learner_id: w.fixtures.sanne, course_id: w.fixtures.gdpr }).expect(201)).body.id,
    ).toBe(3);
  });

  it('refuses the same enrolment twice even when both arrive at once', async () => {
    const body = { learner_id: w.fixtures.marco, course_id: w.fixtures.gdpr };
    const answers = await Promise.all([post(body), post(body)]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect(
      (await request(w.app).get('/api/v1/enrolments').query({ course_id: w.fixtures.gdpr })).body.meta.total,
    ).toBe(1);
  });

  it('refuses a course that is not published with 422 naming course_id', async () => {
    const res = await post({ learner_id: w.fixtures.sanne, course_id: w.fixtures.draft });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['course_id']);
    expect(res.body.error.message).toMatch(/not published/);
  });

  it('refuses a course or learner that does not exist, and an inactive learner, naming the field', async () => {
    expect(namedFields(await post({ learner_id: w.fixtures.sanne, course_id: 999 }))).toEqual(['course_id']);
    expect(namedFields(await post({ learner_id: 999, course_id: w.fixtures.gdpr }))).toEqual(['learner_id']);
    expect(namedFields(await post({ learner_id: w.fixtures.gone, course_id: w.fixtures.gdpr }))).toEqual([
      'learner_id',
    ]);
  });

  it.each([
    [{ course_id: 2 }, 'learner_id'],
    [{ learner_id: 1, course_id: '2' }, 'course_id'],
    [{ learner_id: 1, course_id: 2, role: 'Teacher' }, 'role'],
    [{ learner_id: 0, course_id: 2 }, 'learner_id'],
  ])('rejects %j with 422 naming %s', async (body, field) => {
    const res = await post(body);
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual([field]);
  });

  it('answers a repeated Idempotency-Key with the first result and no second enrolment', async () => {
    const body = { learner_id: w.fixtures.marco, course_id: w.fixtures.gdpr };
    const first = await post(body).set('Idempotency-Key', 'enrol-1').expect(201);
    const again = await post(body).set('Idempotency-Key', 'enrol-1').expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('answers POST on an enrolment path with 405: enrolments are created on the collection', async () => {
    expectEnvelope(
      await request(w.app).post('/api/v1/enrolments/1').set(auth).send({}),
      405,
      'method_not_allowed',
    );
  });

  describeWriteGuards(() => w, {
    method: 'post',
    path: () => '/api/v1/enrolments',
    body: () => ({ learner_id: w.fixtures.marco, course_id: w.fixtures.gdpr }),
    openWithoutToken: () => openModule(lmsModule, { token: null, fixtures }),
  });
});

describe('learning demo data', () => {
  let demo: ModuleHarness<undefined>;
  beforeAll(async () => {
    demo = await openModule(lmsModule, { demo: true });
  }, 60_000);
  afterAll(() => demo.close());

  const all = (path: string) => allDocuments(demo, `lms.${path}`);

  it('holds a catalogue of 84 courses and hundreds of lessons, learners and enrolments', async () => {
    expect((await all('courses')).length).toBe(84);
    for (const path of ['lessons', 'learners', 'enrolments'])
      expect((await all(path)).length).toBeGreaterThanOrEqual(300);
    expect(new Set((await all('enrolments')).map((record) => record.status)).size).toBe(3);
  });

  it('has foreign keys that all resolve: enrolments in published courses, lessons of their course', async () => {
    const courses = new Map((await all('courses')).map((record) => [record.id, record]));
    const lessons = new Map((await all('lessons')).map((record) => [record.id, record]));
    const learners = new Set((await all('learners')).map((record) => record.id));
    for (const record of lessons.values()) expect(courses.has(record.course_id as number)).toBe(true);
    const pairs = new Set<string>();
    for (const record of await all('enrolments')) {
      expect(courses.get(record.course_id as number)?.status).toBe('Published');
      expect(learners.has(record.learner_id as number)).toBe(true);
      if (record.current_lesson_id !== null)
        expect(lessons.get(record.current_lesson_id as number)?.course_id).toBe(record.course_id);
      pairs.add(`${record.learner_id}:${record.course_id}`);
    }
    expect(pairs.size).toBe((await all('enrolments')).length);
  });
});

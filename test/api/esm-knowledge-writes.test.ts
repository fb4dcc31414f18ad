import request from 'supertest';
import { esmModule } from '../../src/api/esm';
import { addDepartment, draftArticle } from '../../src/commands/esm/handlers';
import { describeWriteGuards } from '../support/module-api';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { expectEnvelope } from './spec';

const auth = { Authorization: `Bearer ${TOKEN}` };
const NOW = '2026-11-21T09:30:00Z';

type Fixtures = { department: number; article: number };
let h: ModuleHarness<Fixtures>;
beforeEach(async () => {
  h = await openModule(esmModule, {
    fixtures: async (seed) => {
      const { id: department } = await addDepartment(seed.commands, { name: 'IT', icon: null });
      const { id: article } = await draftArticle(seed.commands, {
        title: 'Reset a password',
        category_id: null,
        department_id: department,
        content: 'Steps',
        author: 'Ana',
      });
      return { department, article };
    },
  });
});
afterEach(() => h.close());

const draft = (body: object) => request(h.app).post('/api/v1/knowledge').set(auth).send(body);
const setStatus = (id: number | string, status: string) =>
  request(h.app).patch(`/api/v1/knowledge/${id}`).set(auth).send({ status });

describe('POST /api/v1/knowledge', () => {
  it('drafts an article, authored by the caller unless named, and lists it as a draft', async () => {
    const res = await draft({
      title: 'VPN on a phone',
      content: 'Install the app',
      department_id: h.fixtures.department,
    }).expect(201);
    expect(res.headers.location).toBe(`/api/v1/knowledge/${res.body.id}`);
    expect(res.body).toMatchObject({
      title: 'VPN on a phone',
      content: 'Install the app',
      department_id: h.fixtures.department,
      author: null,
      status: 'Draft',
      next_statuses: ['Published', 'Archived'],
      views: 0,
      published_on: null,
    });
    const named = await draft({ title: 'Printers', author: 'Tom' }).expect(201);
    expect(named.body.author).toBe('Tom');
    const drafts = (await request(h.app).get('/api/v1/knowledge?status=Draft')).body.data;
    expect(drafts).toHaveLength(3);
  });

  it('refuses a department that does not exist, naming it, and an empty title', async () => {
    const res = await draft({ title: 'x', department_id: 999 });
    expectEnvelope(res, 422, 'validation_error');
    expect(JSON.stringify(res.body)).toContain('department_id');
    expectEnvelope(await draft({ title: '  ' }), 422, 'validation_error');
  });
});

describe('PATCH /api/v1/knowledge/{item_id}', () => {
  it('publishes a draft, archives it, and publishes it again, each answer naming the next statuses', async () => {
    const published = await setStatus(h.fixtures.article, 'published').expect(200);
    expect(published.body).toMatchObject({
      status: 'Published',
      published_on: NOW,
      next_statuses: ['Archived'],
    });
    const archived = await setStatus(h.fixtures.article, 'Archived').expect(200);
    expect(archived.body).toMatchObject({ status: 'Archived', next_statuses: ['Published'] });
    const read = await request(h.app).get(`/api/v1/knowledge/${h.fixtures.article}`);
    expect(read.body).toMatchObject({ status: 'Archived', next_statuses: ['Published'] });
    await setStatus(h.fixtures.article, 'Published').expect(200);
  });

  it('refuses a move the workflow does not have, naming the statuses that may follow', async () => {
    await setStatus(h.fixtures.article, 'Published').expect(200);
    const res = await setStatus(h.fixtures.article, 'Published');
    expectEnvelope(res, 409, 'illegal_transition');
    expect(res.body.error.message).toBe(
      'A knowledge article cannot move from Published to Published (valid next statuses: Archived)',
    );
    expect(res.body.error.details).toEqual({ from: 'Published', to: 'Published', allowed: ['Archived'] });
  });

  it("leaves the next statuses out of an article's activity, which shows the status change", async () => {
    await setStatus(h.fixtures.article, 'Published').expect(200);
    const res = await request(h.app)
      .get(`/api/v1/knowledge/${h.fixtures.article}/activity`)
      .set(auth)
      .expect(200);
    const fields = res.body.data[0].changes.map((change: { field: string }) => change.field);
    expect(fields).toContain('status');
    expect(fields).not.toContain('next_statuses');
  });

  it('refuses to publish a published article or archive an archived one (409), Draft as a target, and a missing article', async () => {
    await setStatus(h.fixtures.article, 'Published').expect(200);
    expectEnvelope(await setStatus(h.fixtures.article, 'Published'), 409, 'illegal_transition');
    await setStatus(h.fixtures.article, 'Archived').expect(200);
    expectEnvelope(await setStatus(h.fixtures.article, 'Archived'), 409, 'illegal_transition');
    expectEnvelope(await setStatus(h.fixtures.article, 'Draft'), 422, 'validation_error');
    expectEnvelope(await setStatus(999, 'Published'), 404, 'not_found');
  });

  it('needs esm:writer', async () => {
    const res = await request(h.app)
      .patch(`/api/v1/knowledge/${h.fixtures.article}`)
      .set('Authorization', 'Bearer wrong')
      .send({ status: 'Published' });
    expectEnvelope(res, 401, 'unauthorized');
  });
});

describeWriteGuards(() => h as ModuleHarness<unknown>, {
  method: 'post',
  path: () => '/api/v1/knowledge',
  body: () => ({ title: 'Guarded' }),
  openWithoutToken: () => openModule(esmModule, { token: null }),
});

describeWriteGuards(() => h as ModuleHarness<unknown>, {
  method: 'patch',
  path: () => `/api/v1/knowledge/${h.fixtures.article}`,
  body: () => ({ status: 'Published' }),
  openWithoutToken: () => openModule(esmModule, { token: null }),
});

import request from 'supertest';
import { cmsModule } from '../../src/api/cms';
import {
  createPage,
  publishPage,
  submitForm,
  uploadDocument,
  uploadImage,
  type DocumentInput,
  type ImageInput,
  type PageInput,
} from '../../src/commands/cms/handlers';
import type { FormField } from '../../src/events/cms';
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

const FIELDS: FormField[] = [
  { name: 'name', label: 'Your name', field_type: 'singleline', required: true, choices: [], help_text: '' },
  { name: 'email', label: 'Email', field_type: 'email', required: true, choices: [], help_text: '' },
  {
    name: 'topic',
    label: 'Topic',
    field_type: 'dropdown',
    required: true,
    choices: ['Sales', 'Support'],
    help_text: '',
  },
  { name: 'consent', label: 'I agree', field_type: 'checkbox', required: true, choices: [], help_text: '' },
];

const page = (overrides: Partial<PageInput>): PageInput => ({
  parent_id: null,
  page_type: 'HomePage',
  locale: 'en',
  translation_key: '6f1c2a4e-0b1d-4c1e-9a8b-0c2d3e4f5a6b',
  title: 'Home',
  slug: 'home',
  url_path: '/en/',
  seo_title: 'Northwind',
  search_description: 'One suite for every team.',
  body: [{ type: 'heading', value: 'Welcome' }],
  form_fields: [],
  owner: 'Laura Kaiser',
  status: 'Live',
  first_published_at: '2025-01-10T09:00:00Z',
  last_published_at: '2026-03-02T09:00:00Z',
  go_live_at: null,
  expire_at: null,
  ...overrides,
});

const image = (overrides: Partial<ImageInput>): ImageInput => ({
  title: 'Warehouse aisles at dawn',
  file: 'original_images/warehouse-aisles-at-dawn.jpg',
  width: 6000,
  height: 4000,
  file_size: 5_400_000,
  file_hash: 'a'.repeat(40),
  focal_point: { x: 3000, y: 2000, width: 1200, height: 800 },
  tags: ['logistics', 'warehouse'],
  collection: 'Solutions',
  uploaded_by: 'Tom Verhoeven',
  renditions: [
    { filter_spec: 'fill-300x200', width: 300, height: 200, file: 'images/warehouse.fill-300x200.jpg' },
  ],
  ...overrides,
});

const document = (overrides: Partial<DocumentInput>): DocumentInput => ({
  title: 'Service Desk datasheet (EN)',
  file: 'documents/service-desk-datasheet-en.pdf',
  file_size: 420_000,
  file_hash: 'b'.repeat(40),
  mime_type: 'application/pdf',
  tags: ['datasheet', 'en'],
  collection: 'Products',
  uploaded_by: 'Sam Okafor',
  ...overrides,
});

/** A home page with a live contact form, a draft form, a blog with one article; two images, two documents. */
async function fixtures({ commands }: SeedContext) {
  const { id: home } = await createPage(commands, page({}));
  const child = (overrides: Partial<PageInput>) =>
    createPage(commands, page({ parent_id: home, ...overrides }));
  const { id: contact } = await child({
    page_type: 'FormPage',
    title: 'Contact us',
    slug: 'contact-us',
    url_path: '/en/contact-us/',
    form_fields: FIELDS,
  });
  const { id: survey } = await child({
    page_type: 'FormPage',
    title: 'Customer survey',
    slug: 'customer-survey',
    url_path: '/en/customer-survey/',
    form_fields: FIELDS,
    status: 'Draft',
    first_published_at: null,
    last_published_at: null,
  });
  const { id: blog } = await child({
    page_type: 'IndexPage',
    title: 'Blog',
    slug: 'blog',
    url_path: '/en/blog/',
  });
  const { id: article } = await createPage(
    commands,
    page({
      parent_id: blog,
      page_type: 'ArticlePage',
      title: 'Spring launch',
      slug: 'spring-launch',
      url_path: '/en/blog/spring-launch/',
      status: 'Draft',
      first_published_at: null,
      last_published_at: null,
    }),
  );
  await publishPage(commands, article);
  const { id: warehouse } = await uploadImage(commands, image({}));
  const { id: logo } = await uploadImage(
    commands,
    image({
      title: 'Northwind logo',
      file: 'original_images/logo.png',
      collection: 'Brand',
      tags: ['logo'],
      focal_point: null,
    }),
  );
  await uploadDocument(commands, document({}));
  await uploadDocument(
    commands,
    document({
      title: 'Price list Q4 2026 (DE)',
      file: 'documents/price-list-q4-2026-de.xlsx',
      mime_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      collection: 'Sales',
    }),
  );
  const { id: first } = await submitForm(commands, {
    page_id: contact,
    form_data: { name: 'Ana Lopez', email: 'ana@example.com', topic: 'Sales', consent: true },
  });
  return { home, contact, survey, blog, article, warehouse, logo, first };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;
let h: ModuleHarness<Fixtures>;
beforeAll(async () => {
  h = await openModule(cmsModule, { fixtures });
});
afterAll(() => h.close());

describeModuleBasics(cmsModule, () => h);

describeReads(cmsModule, () => h, [
  { path: 'pages', total: 5, search: { q: 'SPRING', field: 'url_path', value: '/en/blog/spring-launch/' } },
  { path: 'images', total: 2, search: { q: 'logo', field: 'title', value: 'Northwind logo' } },
  {
    path: 'documents',
    total: 2,
    search: { q: 'price LIST', field: 'title', value: 'Price list Q4 2026 (DE)' },
  },
  { path: 'submissions', total: 1, search: { q: 'ana@example', field: 'page_title', value: 'Contact us' } },
]);

describe('content filters', () => {
  const ids = (path: string, query: Record<string, string | number>) => listed(h.app, path, query);

  it('filters pages by tree, type, publishing state and locale', async () => {
    const f = h.fixtures;
    expect(await ids('pages', { parent_id: f.home })).toEqual([f.contact, f.survey, f.blog]);
    expect(await ids('pages', { page_type: 'formpage' })).toEqual([f.contact, f.survey]);
    expect(await ids('pages', { status: 'draft' })).toEqual([f.survey]);
    expect(await ids('pages', { live: 'false' })).toEqual([f.survey]);
    expect(await ids('pages', { locale: 'de' })).toEqual([]);
  });

  it('shows a page published here with its publication times and state', async () => {
    const res = await request(h.app).get(`/api/v1/pages/${h.fixtures.article}`).expect(200);
    expect(res.body).toMatchObject({
      status: 'Live',
      live: true,
      has_unpublished_changes: false,
      first_published_at: '2026-11-01T08:00:00Z',
      last_published_at: '2026-11-01T08:00:00Z',
    });
  });

  it('filters images by collection and documents by MIME type', async () => {
    expect(await ids('images', { collection: 'Brand' })).toEqual([h.fixtures.logo]);
    expect(await listed(h.app, 'documents', { mime_type: 'application/pdf' }, 'title')).toEqual([
      'Service Desk datasheet (EN)',
    ]);
  });

  it('filters submissions by page and time', async () => {
    expect(await ids('submissions', { page_id: h.fixtures.contact })).toEqual([h.fixtures.first]);
    expect(await ids('submissions', { submitted_after: '2026-11-01' })).toEqual([h.fixtures.first]);
    expect(await ids('submissions', { submitted_before: '2026-11-01T08:00:00Z' })).toEqual([]);
  });

  it('rejects bad filter values with a 422 naming the parameter', async () => {
    const get = (path: string, query: Record<string, string>) =>
      request(h.app).get(`/api/v1/${path}`).query(query);
    expectInvalid(await get('pages', { status: 'Published' }), ['query', 'status']);
    expectInvalid(await get('pages', { live: 'sometimes' }), ['query', 'live']);
    expectInvalid(await get('submissions', { submitted_after: 'yesterday' }), ['query', 'submitted_after']);
    expectInvalid(await get('submissions', { page_id: 'home' }), ['query', 'page_id']);
  });
});

describe('POST /api/v1/submissions', () => {
  let w: ModuleHarness<Fixtures>;
  beforeEach(async () => {
    w = await openModule(cmsModule, { fixtures });
  });
  afterEach(() => w.close());

  const post = (body: object) => request(w.app).post('/api/v1/submissions').set(auth).send(body);
  const form = { name: 'Jan de Vries', email: 'jan@example.nl', topic: 'Support', consent: true };

  it('receives a submission: 201, Location and the record a GET shows', async () => {
    const res = await post({ page_id: w.fixtures.contact, form_data: form }).expect(201);
    expectRecord(cmsModule, 'submissions', res.body);
    expect(res.body).toEqual({
      id: 2,
      page_id: w.fixtures.contact,
      page_title: 'Contact us',
      form_data: JSON.stringify(form),
      submit_time: '2026-11-21T09:30:00Z',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.headers.location).toBe('/api/v1/submissions/2');
    expect((await request(w.app).get('/api/v1/submissions/2')).body).toEqual(res.body);
  });

  it('refuses a page that is not live, naming page_id', async () => {
    const res = await post({ page_id: w.fixtures.survey, form_data: form });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['page_id']);
    expect(res.body.error.message).toMatch(/not live \(Draft\)/);
  });

  it('refuses a page that does not exist or has no form, naming page_id', async () => {
    expect(namedFields(await post({ page_id: 999, form_data: form }))).toEqual(['page_id']);
    expect(namedFields(await post({ page_id: w.fixtures.article, form_data: form }))).toEqual(['page_id']);
  });

  it('checks the values against the page form, naming every wrong field', async () => {
    const res = await post({
      page_id: w.fixtures.contact,
      form_data: { name: 'Jan', email: 'not-an-email', topic: 'Gossip', colour: 'blue' },
    });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual([
      'form_data.colour',
      'form_data.email',
      'form_data.topic',
      'form_data.consent',
    ]);
  });

  it('appends nothing for a refused submission', async () => {
    const head = await w.suite.eventStore.headPosition();
    await post({ page_id: w.fixtures.contact, form_data: {} }).expect(422);
    expect(await w.suite.eventStore.headPosition()).toBe(head);
  });

  it.each([
    [{ form_data: { name: 'x' } }, 'page_id'],
    [{ page_id: 2 }, 'form_data'],
    [{ page_id: 2, form_data: 'name=Jan' }, 'form_data'],
    [{ page_id: 2, form_data: { name: { first: 'Jan' } } }, 'form_data.name'],
  ])('rejects %j with 422 naming %s', async (body, field) => {
    const res = await post(body);
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual([field]);
  });

  it('answers an unknown route under submissions with 404 or 405', async () => {
    expectEnvelope(
      await request(w.app).patch('/api/v1/submissions/1').set(auth).send({}),
      405,
      'method_not_allowed',
    );
    expectEnvelope(
      await request(w.app).post('/api/v1/submission').set(auth).send({}),
      404,
      'route_not_found',
    );
  });

  describeWriteGuards(() => w, {
    method: 'post',
    path: () => '/api/v1/submissions',
    body: () => ({ page_id: w.fixtures.contact, form_data: form }),
    openWithoutToken: () => openModule(cmsModule, { token: null, fixtures }),
  });
});

describe('content demo data', () => {
  let demo: ModuleHarness<undefined>;
  beforeAll(async () => {
    demo = await openModule(cmsModule, { demo: true });
  }, 60_000);
  afterAll(() => demo.close());

  const all = (path: string) => allDocuments(demo, `cms.${path}`);

  it('holds hundreds of pages, images, documents and submissions, pages in every state', async () => {
    for (const path of ['pages', 'images', 'documents', 'submissions'])
      expect((await all(path)).length).toBeGreaterThanOrEqual(200);
    expect(new Set((await all('pages')).map((record) => record.status)).size).toBe(6);
  });

  it('has references that all resolve: parents in the same locale, images in bodies, submitted form pages', async () => {
    const pages = new Map((await all('pages')).map((record) => [record.id, record]));
    const images = new Set((await all('images')).map((record) => record.id));
    for (const record of pages.values()) {
      if (record.parent_id !== null) {
        const parent = pages.get(record.parent_id as number);
        expect(parent?.locale).toBe(record.locale);
        expect(record.url_path).toBe(`${parent?.url_path}${record.slug}/`);
      }
      for (const block of record.body as { type: string; value: unknown }[])
        if (block.type === 'image') expect(images.has(block.value as number)).toBe(true);
    }
    for (const record of await all('submissions')) {
      expect(pages.get(record.page_id as number)?.page_type).toBe('FormPage');
      expect(typeof JSON.parse(record.form_data as string)).toBe('object');
    }
  });
});

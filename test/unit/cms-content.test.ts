import { pageDecider, urlPath, type CreatePage } from '../../src/commands/cms/pages';
import {
  checkForm,
  submissionDecider,
  type PageFacts,
  type SubmitForm,
} from '../../src/commands/cms/submissions';
import type { CmsEventOf, FormField } from '../../src/events/cms';
import { deciderSpec } from '../support/decider-spec';

const at = '2026-11-21T09:30:00Z';
const fields: FormField[] = [
  { name: 'name', label: 'Your name', field_type: 'singleline', required: true, choices: [], help_text: '' },
  { name: 'email', label: 'Email', field_type: 'email', required: true, choices: [], help_text: '' },
  {
    name: 'topic',
    label: 'Topic',
    field_type: 'dropdown',
    required: false,
    choices: ['Sales', 'Support'],
    help_text: '',
  },
  { name: 'seats', label: 'Seats', field_type: 'number', required: false, choices: [], help_text: '' },
  { name: 'consent', label: 'Consent', field_type: 'checkbox', required: true, choices: [], help_text: '' },
];
const valid = { name: 'Ana Lopez', email: 'ana@example.com', topic: 'Sales', seats: 25, consent: true };

describe('form submissions', () => {
  const given = deciderSpec(submissionDecider);
  const page: PageFacts = { title: 'Contact us', status: 'Live', page_type: 'FormPage', form_fields: fields };
  const submit = (overrides: Partial<SubmitForm> = {}): SubmitForm => ({
    type: 'SubmitForm',
    id: 4,
    page_id: 9,
    form_data: valid,
    at,
    page,
    ...overrides,
  });

  it('receives a submission for a live form page, with the page title', () => {
    given([])
      .when(submit())
      .then([
        {
          type: 'FormSubmitted',
          data: { id: 4, page_id: 9, page_title: 'Contact us', form_data: valid, submit_time: at },
        },
      ]);
  });

  it.each(['Draft', 'Scheduled', 'Expired', 'In Moderation'] as const)(
    'refuses a page that is %s',
    (status) => {
      given([])
        .when(submit({ page: { ...page, status } }))
        .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^page_id: .*not live/) });
    },
  );

  it('accepts a page that is live with a newer draft', () => {
    expect(
      submissionDecider.decide(submit({ page: { ...page, status: 'Live + Draft' } }), { exists: false }),
    ).toHaveLength(1);
  });

  it('refuses a page that does not exist or has no form', () => {
    given([])
      .when(submit({ page: undefined }))
      .thenThrows({ message: expect.stringMatching(/^page_id/) });
    given([])
      .when(submit({ page: { ...page, page_type: 'ArticlePage', form_fields: [] } }))
      .thenThrows({ message: expect.stringMatching(/^page_id: .*no form/) });
  });

  it('names every field that is missing, unknown or of the wrong kind', () => {
    const check = (data: Record<string, unknown>) => {
      try {
        checkForm(fields, data as never);
        return [];
      } catch (error) {
        return (error as { details: { issues: { loc: string[] }[] } }).details.issues.map(
          (issue) => issue.loc[1],
        );
      }
    };
    expect(check(valid)).toEqual([]);
    expect(check({ ...valid, name: '', consent: false })).toEqual(['form_data.name', 'form_data.consent']);
    expect(check({ ...valid, colour: 'blue' })).toEqual(['form_data.colour']);
    expect(check({ ...valid, email: 'ana', topic: 'Press', seats: 'many' })).toEqual([
      'form_data.email',
      'form_data.topic',
      'form_data.seats',
    ]);
    expect(check({ name: 'Ana', email: 'ana@example.com', consent: true })).toEqual([]);
  });
});

describe('pages', () => {
  const given = deciderSpec(pageDecider);
  const page: CreatePage['page'] = {
    id: 12,
    parent_id: 3,
    page_type: 'ArticlePage',
    locale: 'en',
    translation_key: '6f1c2a4e-0b1d-4c1e-9a8b-0c2d3e4f5a6b',
    title: 'Spring launch',
    slug: 'spring-launch',
    url_path: '/en/blog/spring-launch/',
    seo_title: 'Spring launch | Northwind',
    search_description: 'What is new.',
    body: [{ type: 'heading', value: 'Spring launch' }],
    form_fields: [],
    owner: 'Laura Kaiser',
    status: 'Draft',
    first_published_at: null,
    last_published_at: null,
    go_live_at: null,
    expire_at: null,
  };
  const created: CmsEventOf<'PageCreated'> = { type: 'PageCreated', data: page };
  const parent = { url_path: '/en/blog/', locale: 'en' };

  it('builds the url path from the parent and the slug', () => {
    expect(urlPath('/en/blog/', 'en', 'spring-launch')).toBe('/en/blog/spring-launch/');
    expect(urlPath(null, 'de', 'home')).toBe('/de/');
  });

  it('creates a page under its parent, in the parent locale, at the parent path', () => {
    given([]).when({ type: 'CreatePage', page, parent }).then([created]);
    given([])
      .when({ type: 'CreatePage', page: { ...page, url_path: '/en/spring-launch/' }, parent })
      .thenThrows({ message: expect.stringMatching(/^url_path/) });
    given([])
      .when({ type: 'CreatePage', page, parent: { ...parent, locale: 'de' } })
      .thenThrows({ message: expect.stringMatching(/^locale/) });
    given([])
      .when({ type: 'CreatePage', page, parent: undefined })
      .thenThrows({ message: expect.stringMatching(/^parent_id/) });
  });

  it('requires publication times of a live page and form fields exactly on a form page', () => {
    given([])
      .when({ type: 'CreatePage', page: { ...page, status: 'Live' }, parent })
      .thenThrows({ message: expect.stringMatching(/^first_published_at/) });
    given([])
      .when({ type: 'CreatePage', page: { ...page, page_type: 'FormPage' }, parent })
      .thenThrows({ message: expect.stringMatching(/^form_fields/) });
  });

  it('publishes a draft, keeps a newer revision as Live + Draft, and refuses to publish a live page', () => {
    given([created])
      .when({ type: 'PublishPage', at })
      .then([{ type: 'PagePublished', data: { published_at: at } }]);
    const published = { type: 'PagePublished' as const, data: { published_at: at } };
    given([created, published])
      .when({ type: 'SaveRevision', at })
      .then([{ type: 'PageRevisionSaved', data: { saved_at: at } }]);
    given([created, published]).when({ type: 'PublishPage', at }).thenThrows({ code: 'illegal_transition' });
  });
});

import { z } from 'zod';
import { submitForm } from '../commands/cms/handlers';
import { LOCALES, PAGE_STATUSES, PAGE_TYPES, cmsEvents } from '../events/cms';
import {
  DocumentRecord,
  ImageRecord,
  PageRecord,
  SubmissionRecord,
  cmsProjector,
  submissionsProjection,
} from '../projections/cms';
import { seedContent } from '../seed/cms';
import type { FilterDefinition, ModuleDefinition, ResourceDefinition, WriteRoute } from './kit/module';
import { booleanFilter, dateOrTimestamp, enumFilter, idFilter } from './kit/parameters';

const textFilter = (field: string, description: string): FilterDefinition => ({
  field,
  schema: z.string().trim().min(1),
  description,
});

const pages: ResourceDefinition = {
  path: 'pages',
  name: 'Page',
  description: 'pages of the site tree with their publishing state',
  record: PageRecord,
  collection: {
    name: 'cms.pages',
    idKind: 'integer',
    searchFields: ['title', 'slug', 'url_path', 'seo_title', 'search_description'],
    filterFields: ['status', 'locale', 'page_type', 'parent_id', 'live'],
  },
  filters: {
    status: enumFilter('status', PAGE_STATUSES, 'Publishing state'),
    locale: enumFilter('locale', LOCALES),
    page_type: enumFilter('page_type', PAGE_TYPES),
    parent_id: idFilter('parent_id', 'Children of this page'),
    live: booleanFilter('live', 'Pages served to visitors (true) or not (false)'),
  },
};

const images: ResourceDefinition = {
  path: 'images',
  name: 'Image',
  description: 'image assets and their renditions',
  record: ImageRecord,
  collection: {
    name: 'cms.images',
    idKind: 'integer',
    searchFields: ['title', 'tags', 'file'],
    filterFields: ['collection', 'uploaded_by'],
  },
  filters: {
    collection: textFilter('collection', 'Exact collection name (Marketing, Products, Blog...)'),
    uploaded_by: textFilter('uploaded_by', 'Exact name of the uploader'),
  },
};

const documents: ResourceDefinition = {
  path: 'documents',
  name: 'Document',
  description: 'downloadable documents',
  record: DocumentRecord,
  collection: {
    name: 'cms.documents',
    idKind: 'integer',
    searchFields: ['title', 'tags', 'file'],
    filterFields: ['collection', 'mime_type'],
  },
  filters: {
    collection: textFilter('collection', 'Exact collection name'),
    mime_type: textFilter('mime_type', 'Exact MIME type, e.g. application/pdf'),
  },
};

const submissions: ResourceDefinition = {
  path: 'submissions',
  name: 'Submission',
  description: 'form submissions received by form pages',
  record: SubmissionRecord,
  collection: {
    name: 'cms.submissions',
    idKind: 'integer',
    searchFields: ['page_title', 'form_data'],
    jsonSearchFields: ['form_data'],
    filterFields: ['page_id', 'submit_time'],
  },
  filters: {
    page_id: idFilter('page_id', 'Submissions of this form page'),
    submitted_after: {
      field: 'submit_time',
      op: 'gte',
      schema: dateOrTimestamp(),
      description: 'Submitted at or after this date or time',
    },
    submitted_before: {
      field: 'submit_time',
      op: 'lt',
      schema: dateOrTimestamp(),
      description: 'Submitted before this date or time',
    },
  },
};

const FormValue = z.union([
  z.string().max(5000),
  z.number(),
  z.boolean(),
  z.array(z.string().max(200)).max(50),
]);

/** More fields than any form page has: a submission naming more is refused before it is checked. */
const MAX_FORM_FIELDS = 100;

const SubmissionCreation = z
  .strictObject({
    page_id: z.int().positive().meta({ description: 'A live FormPage' }),
    form_data: z
      .record(z.string().max(100), FormValue)
      .refine((data) => Object.keys(data).length <= MAX_FORM_FIELDS, {
        message: `A form has at most ${MAX_FORM_FIELDS} fields`,
      })
      .meta({
        description: 'Field name -> value, checked against the page\u2019s form fields',
        maxProperties: MAX_FORM_FIELDS,
      }),
  })
  .meta({ id: 'SubmissionCreation' });

const submitRoute: WriteRoute<z.infer<typeof SubmissionCreation>> = {
  method: 'post',
  path: '/api/v1/submissions',
  operation: 'createSubmission',
  summary: 'Receive a form submission for a live form page',
  body: SubmissionCreation,
  status: 201,
  resource: submissions,
  projection: submissionsProjection,
  execute: ({ body }, context) => submitForm(context, body),
};

export const cmsModule: ModuleDefinition = {
  id: 'cms',
  title: 'Content management',
  shortTitle: 'Content',
  description:
    'The page tree with publishing state, images with renditions, documents and form submissions. ' +
    'Reads are public; writes need a bearer token.',
  version: '1.0.0',
  itemParam: 'id',
  readErrors: 'envelope',
  list: { defaultLimit: 50, maxLimit: 200 },
  resources: [pages, images, documents, submissions],
  writes: [submitRoute] as WriteRoute[],
  events: cmsEvents,
  projector: cmsProjector,
  seed: seedContent,
};

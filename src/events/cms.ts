import { z } from 'zod';
import { defineEvent, ownPersonalData, type EventsOf } from './catalog';

const id = z.number().int().positive();
const timestamp = z.string();

export const PAGE_TYPES = ['HomePage', 'IndexPage', 'ArticlePage', 'LandingPage', 'FormPage'] as const;
export type PageType = (typeof PAGE_TYPES)[number];
/** Wagtail's page states. */
export const PAGE_STATUSES = [
  'Draft',
  'Live',
  'Live + Draft',
  'Scheduled',
  'Expired',
  'In Moderation',
] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];
/** States in which a page is served: only these receive form submissions. */
export const LIVE_STATUSES: readonly PageStatus[] = ['Live', 'Live + Draft'];
export const LOCALES = ['en', 'de', 'fr', 'nl'] as const;
/** Wagtail form builder field types. */
export const FORM_FIELD_TYPES = [
  'singleline',
  'multiline',
  'email',
  'number',
  'url',
  'checkbox',
  'checkboxes',
  'dropdown',
  'radio',
  'date',
] as const;

export const StreamBlock = z.object({
  type: z.enum(['heading', 'paragraph', 'image', 'quote', 'call_to_action', 'embed']),
  value: z.union([z.string(), z.number().int(), z.record(z.string(), z.string())]),
});

export const FormField = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/),
  label: z.string(),
  field_type: z.enum(FORM_FIELD_TYPES),
  required: z.boolean(),
  choices: z.array(z.string()),
  help_text: z.string(),
});
export type FormField = z.infer<typeof FormField>;

export const FormValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type FormValue = z.infer<typeof FormValue>;

const Rendition = z.object({
  filter_spec: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  file: z.string(),
});

export const cmsEvents = [
  defineEvent(
    'PageCreated',
    z.object({
      id,
      parent_id: id.nullable(),
      page_type: z.enum(PAGE_TYPES),
      locale: z.enum(LOCALES),
      translation_key: z.string().uuid(),
      title: z.string(),
      slug: z.string().regex(/^[a-z0-9-]+$/),
      url_path: z.string(),
      seo_title: z.string(),
      search_description: z.string(),
      body: z.array(StreamBlock),
      form_fields: z.array(FormField),
      owner: z.string(),
      status: z.enum(PAGE_STATUSES),
      first_published_at: timestamp.nullable(),
      last_published_at: timestamp.nullable(),
      go_live_at: timestamp.nullable(),
      expire_at: timestamp.nullable(),
    }),
  ),
  defineEvent('PagePublished', z.object({ published_at: timestamp })),
  defineEvent('PageRevisionSaved', z.object({ saved_at: timestamp })),
  defineEvent(
    'ImageUploaded',
    z.object({
      id,
      title: z.string(),
      file: z.string(),
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      file_size: z.number().int().positive(),
      file_hash: z.string().regex(/^[0-9a-f]{40}$/),
      focal_point: z
        .object({
          x: z.number().int(),
          y: z.number().int(),
          width: z.number().int(),
          height: z.number().int(),
        })
        .nullable(),
      tags: z.array(z.string()),
      collection: z.string(),
      uploaded_by: z.string(),
      renditions: z.array(Rendition),
    }),
  ),
  defineEvent(
    'DocumentUploaded',
    z.object({
      id,
      title: z.string(),
      file: z.string(),
      file_size: z.number().int().positive(),
      file_hash: z.string().regex(/^[0-9a-f]{40}$/),
      mime_type: z.string(),
      tags: z.array(z.string()),
      collection: z.string(),
      uploaded_by: z.string(),
    }),
  ),
  defineEvent(
    'FormSubmitted',
    z.object({
      id,
      page_id: id,
      /** The page's title when the form was submitted. */
      page_title: z.string(),
      form_data: z.record(z.string(), FormValue),
      submit_time: timestamp,
    }),
    /** Whatever the visitor entered: the submission is the only record of them. */
    { personal: ownPersonalData('form_data') },
  ),
] as const;

export type CmsEvent = EventsOf<typeof cmsEvents>;
export type CmsEventOf<Type extends CmsEvent['type']> = Extract<CmsEvent, { type: Type }>;

export const cmsStreams = {
  page: (pageId: number) => `cms.page-${pageId}`,
  image: (imageId: number) => `cms.image-${imageId}`,
  document: (documentId: number) => `cms.document-${documentId}`,
  submission: (submissionId: number) => `cms.submission-${submissionId}`,
};

export const cmsCategories = {
  page: 'cms.page',
  image: 'cms.image',
  document: 'cms.document',
  submission: 'cms.submission',
} as const;

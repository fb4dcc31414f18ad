import { z } from 'zod';
import {
  FormField,
  LIVE_STATUSES,
  LOCALES,
  PAGE_STATUSES,
  PAGE_TYPES,
  StreamBlock,
  type CmsEvent,
  type PageStatus,
  cmsStreams,
} from '../events/cms';
import type { StoredEvent } from '../events/envelope';
import { id, text, oneOf, timestamp } from './fields';
import { createdByOf, idFromStream, type DocumentProjection, type Projector } from './projection';

export const PageRecord = z
  .object({
    id,
    parent_id: id.nullable().meta({ description: 'null for the home page of a locale' }),
    page_type: oneOf(PAGE_TYPES),
    locale: oneOf(LOCALES),
    translation_key: text.meta({ description: 'Shared by the translations of a page' }),
    title: text,
    slug: text,
    url_path: text,
    seo_title: text,
    search_description: text,
    body: z.array(StreamBlock).meta({ description: 'StreamField blocks' }),
    form_fields: z.array(FormField).meta({ description: 'The fields of a FormPage; empty for other pages' }),
    owner: text,
    status: oneOf(PAGE_STATUSES),
    live: z.boolean().meta({ description: 'Served to visitors (Live, Live + Draft)' }),
    has_unpublished_changes: z.boolean().meta({ description: 'A draft revision is newer than the live one' }),
    first_published_at: timestamp.nullable(),
    last_published_at: timestamp.nullable(),
    go_live_at: timestamp.nullable(),
    expire_at: timestamp.nullable(),
    latest_revision_created_at: timestamp,
  })
  .meta({ id: 'Page' });

const Rendition = z.object({
  filter_spec: text,
  width: z.number().int(),
  height: z.number().int(),
  file: text,
});

export const ImageRecord = z
  .object({
    id,
    title: text,
    file: text,
    width: z.number().int(),
    height: z.number().int(),
    file_size: z.number().int().meta({ description: 'Bytes' }),
    file_hash: text.meta({ description: 'SHA-1 of the file' }),
    focal_point: z
      .object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() })
      .nullable(),
    tags: z.array(text),
    collection: text,
    uploaded_by: text,
    renditions: z
      .array(Rendition)
      .meta({ description: 'Generated sizes, by filter spec (fill-300x200, width-800)' }),
    created_at: timestamp,
  })
  .meta({ id: 'Image' });

export const DocumentRecord = z
  .object({
    id,
    title: text,
    file: text,
    file_size: z.number().int().meta({ description: 'Bytes' }),
    file_hash: text.meta({ description: 'SHA-1 of the file' }),
    mime_type: text,
    tags: z.array(text),
    collection: text,
    uploaded_by: text,
    created_at: timestamp,
  })
  .meta({ id: 'ContentDocument' });

export const SubmissionRecord = z
  .object({
    id,
    page_id: id,
    page_title: text.meta({ description: 'The form page\u2019s title when the form was submitted' }),
    form_data: text.meta({ description: 'The submitted fields as a JSON object, in a string' }),
    submit_time: timestamp,
  })
  .meta({ id: 'FormSubmission' });

export type PageRecord = z.infer<typeof PageRecord>;
export type ImageRecord = z.infer<typeof ImageRecord>;
export type DocumentRecord = z.infer<typeof DocumentRecord>;
export type SubmissionRecord = z.infer<typeof SubmissionRecord>;

type Event = StoredEvent & CmsEvent;

const UNPUBLISHED_CHANGES: readonly PageStatus[] = ['Draft', 'Live + Draft', 'Scheduled', 'In Moderation'];

function evolvePage(doc: PageRecord | null, stored: StoredEvent): PageRecord | null {
  const event = stored as Event;
  if (event.type === 'PageCreated') {
    const { status } = event.data;
    return {
      ...event.data,
      live: LIVE_STATUSES.includes(status),
      has_unpublished_changes: UNPUBLISHED_CHANGES.includes(status),
      latest_revision_created_at: event.metadata.occurred_at,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'PagePublished': {
      const at = event.data.published_at;
      return {
        ...doc,
        status: 'Live',
        live: true,
        has_unpublished_changes: false,
        first_published_at: doc.first_published_at ?? at,
        last_published_at: at,
        go_live_at: null,
        expire_at: null,
        latest_revision_created_at: at,
      };
    }
    case 'PageRevisionSaved':
      return {
        ...doc,
        status: doc.status === 'Live' ? 'Live + Draft' : doc.status,
        has_unpublished_changes: true,
        latest_revision_created_at: event.data.saved_at,
      };
    default:
      return doc;
  }
}

export const pagesProjection: DocumentProjection<PageRecord> = {
  collection: 'cms.pages',
  handles: ['PageCreated', 'PagePublished', 'PageRevisionSaved'],
  documentId: idFromStream,
  stream: (id) => cmsStreams.page(Number(id)),
  evolve: evolvePage,
};

const createdBy = createdByOf<Event>();

const images = createdBy('cms.images', 'ImageUploaded', cmsStreams.image, (event): ImageRecord => ({
  ...event.data,
  created_at: event.metadata.occurred_at,
}));

const documents = createdBy(
  'cms.documents',
  'DocumentUploaded',
  cmsStreams.document,
  (event): DocumentRecord => ({
    ...event.data,
    created_at: event.metadata.occurred_at,
  }),
);

export const submissionsProjection = createdBy(
  'cms.submissions',
  'FormSubmitted',
  cmsStreams.submission,
  ({ data }): SubmissionRecord => ({ ...data, form_data: JSON.stringify(data.form_data) }),
);

export const cmsProjector: Projector = {
  name: 'cms',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [pagesProjection, images, documents, submissionsProjection],
};

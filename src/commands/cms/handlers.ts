import { eventCatalog } from '../../events/catalog';
import {
  cmsCategories,
  cmsEvents,
  cmsStreams,
  type CmsEvent,
  type CmsEventOf,
  type FormValue,
} from '../../events/cms';
import { once, type CommandContext } from '../context';
import { fold } from '../decider';
import { moduleCommands } from '../module-commands';
import { documentDecider, imageDecider } from './assets';
import { pageDecider } from './pages';
import { submissionDecider, type PageFacts } from './submissions';

const { run, create } = moduleCommands(eventCatalog(cmsEvents));

type Data<Type extends CmsEvent['type']> = CmsEventOf<Type>['data'];
type PageEvent = Parameters<typeof pageDecider.evolve>[1];

/** The page as it stands: what it was created with, and its status now. */
async function pageFacts(
  context: CommandContext,
  pageId: number,
): Promise<(Data<'PageCreated'> & PageFacts) | undefined> {
  const events = await context.eventStore.readStream(cmsStreams.page(pageId));
  const [first] = events;
  const state = fold(pageDecider, events as unknown as PageEvent[]);
  return first && state ? { ...(first.data as Data<'PageCreated'>), status: state.status } : undefined;
}

export type PageInput = Omit<Data<'PageCreated'>, 'id'>;

export function createPage(context: CommandContext, page: PageInput) {
  return create(context, cmsCategories.page, pageDecider, async (id) => {
    const parent = page.parent_id === null ? null : await pageFacts(context, page.parent_id);
    return { type: 'CreatePage' as const, page: { id, ...page }, parent };
  });
}

export function publishPage(context: CommandContext, pageId: number) {
  const timed = once(context);
  return run(timed.context, cmsStreams.page(pageId), pageDecider, { type: 'PublishPage', at: timed.at });
}

export function saveRevision(context: CommandContext, pageId: number) {
  const timed = once(context);
  return run(timed.context, cmsStreams.page(pageId), pageDecider, { type: 'SaveRevision', at: timed.at });
}

export type ImageInput = Omit<Data<'ImageUploaded'>, 'id'>;

export function uploadImage(context: CommandContext, image: ImageInput) {
  return create(context, cmsCategories.image, imageDecider, (id) => ({
    type: 'UploadImage' as const,
    image: { id, ...image },
  }));
}

export type DocumentInput = Omit<Data<'DocumentUploaded'>, 'id'>;

export function uploadDocument(context: CommandContext, document: DocumentInput) {
  return create(context, cmsCategories.document, documentDecider, (id) => ({
    type: 'UploadDocument' as const,
    document: { id, ...document },
  }));
}

export interface SubmissionInput {
  page_id: number;
  form_data: Record<string, FormValue>;
}

/** Receives a form submission for a live form page; its time is the submission's `submit_time`. */
export function submitForm(context: CommandContext, input: SubmissionInput) {
  const timed = once(context);
  return create(timed.context, cmsCategories.submission, submissionDecider, async (id) => ({
    type: 'SubmitForm' as const,
    id,
    ...input,
    at: timed.at,
    page: await pageFacts(context, input.page_id),
  }));
}

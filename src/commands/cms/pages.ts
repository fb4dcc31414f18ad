import type { CmsEvent, CmsEventOf, PageStatus, PageType } from '../../events/cms';
import type { Decider } from '../decider';
import { DomainError, illegalTransition, invalidField } from '../errors';

type PageEvent = Extract<CmsEvent, { type: `Page${string}` }>;
type PageData = CmsEventOf<'PageCreated'>['data'];

export interface CreatePage {
  type: 'CreatePage';
  page: PageData;
  /** The parent page; `undefined`: the parent named does not exist. */
  parent: { url_path: string; locale: string } | null | undefined;
}

export type PageCommand =
  CreatePage | { type: 'PublishPage'; at: string } | { type: 'SaveRevision'; at: string };

export type PageState = { status: PageStatus; page_type: PageType } | null;

/** Where a page lives: its parent's path and its own slug (`/en/blog/` + `spring-launch/`). */
export function urlPath(parentPath: string | null, locale: string, slug: string): string {
  return parentPath === null ? `/${locale}/` : `${parentPath}${slug}/`;
}

const PUBLISHED: readonly PageStatus[] = ['Live', 'Live + Draft', 'Expired'];

function create({ page, parent }: CreatePage): PageEvent[] {
  if (parent === undefined) throw invalidField('parent_id', `page ${page.parent_id} does not exist`);
  if ((page.page_type === 'HomePage') !== (parent === null)) {
    throw invalidField('parent_id', 'a home page is a root page, and only a home page is');
  }
  if (parent && parent.locale !== page.locale)
    throw invalidField('locale', `must be the parent's (${parent.locale})`);
  if (page.url_path !== urlPath(parent?.url_path ?? null, page.locale, page.slug)) {
    throw invalidField('url_path', 'must be the parent path followed by the slug');
  }
  if ((page.page_type === 'FormPage') !== page.form_fields.length > 0) {
    throw invalidField('form_fields', 'a form page has form fields, and only a form page has');
  }
  if (
    PUBLISHED.includes(page.status) &&
    (page.first_published_at === null || page.last_published_at === null)
  ) {
    throw invalidField('first_published_at', `is required for a page that is ${page.status}`);
  }
  if (page.status === 'Scheduled' && page.go_live_at === null)
    throw invalidField('go_live_at', 'is required');
  if (page.status === 'Expired' && page.expire_at === null) throw invalidField('expire_at', 'is required');
  return [{ type: 'PageCreated', data: page }];
}

export const pageDecider: Decider<PageCommand, PageState, PageEvent> = {
  initialState: () => null,
  evolve(state, event) {
    switch (event.type) {
      case 'PageCreated':
        return { status: event.data.status, page_type: event.data.page_type };
      case 'PagePublished':
        return state && { ...state, status: 'Live' };
      case 'PageRevisionSaved':
        return state && { ...state, status: state.status === 'Live' ? 'Live + Draft' : state.status };
    }
  },
  decide(command, state) {
    if (command.type === 'CreatePage') {
      if (state) throw new DomainError('already_exists', `Page ${command.page.id} exists`);
      return create(command);
    }
    if (!state) throw new DomainError('not_found', 'Page not found');
    if (command.type === 'PublishPage') {
      if (state.status === 'Live') throw illegalTransition('page', state.status, 'publish');
      return [{ type: 'PagePublished', data: { published_at: command.at } }];
    }
    return [{ type: 'PageRevisionSaved', data: { saved_at: command.at } }];
  },
};

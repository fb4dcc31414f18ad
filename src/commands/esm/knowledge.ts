import type { EsmEvent, EsmEventOf } from '../../events/esm';
import type { Decider } from '../decider';
import { DomainError, illegalTransition, invalidField } from '../errors';

type ArticleStatus = 'Draft' | 'Published' | 'Archived';

export type KnowledgeCommand =
  | {
      type: 'DraftArticle';
      article: EsmEventOf<'KnowledgeArticleDrafted'>['data'];
      /** Whether the department it names exists (read by the handler); absent: not checked. */
      departmentExists?: boolean;
    }
  | { type: 'PublishArticle'; at: string }
  | { type: 'ArchiveArticle'; at: string }
  | { type: 'RecordArticleViews'; views: number };

type ArticleEvent = Extract<
  EsmEvent,
  {
    type:
      | 'KnowledgeArticleDrafted'
      | 'KnowledgeArticlePublished'
      | 'KnowledgeArticleArchived'
      | 'KnowledgeArticleViewsRecorded';
  }
>;

type ArticleState = { status: ArticleStatus | null; views: number };

export const articleDecider: Decider<KnowledgeCommand, ArticleState, ArticleEvent> = {
  initialState: () => ({ status: null, views: 0 }),
  evolve(state, event) {
    switch (event.type) {
      case 'KnowledgeArticleDrafted':
        return { ...state, status: 'Draft' };
      case 'KnowledgeArticlePublished':
        return { ...state, status: 'Published' };
      case 'KnowledgeArticleArchived':
        return { ...state, status: 'Archived' };
      case 'KnowledgeArticleViewsRecorded':
        return { ...state, views: event.data.views };
    }
  },
  decide(command, state) {
    if (command.type === 'DraftArticle') {
      if (state.status) throw new DomainError('already_exists', `Article ${command.article.id} exists`);
      const { department_id } = command.article;
      if (department_id !== null && command.departmentExists === false) {
        throw invalidField('department_id', `department ${department_id} does not exist`);
      }
      return [{ type: 'KnowledgeArticleDrafted', data: command.article }];
    }
    if (!state.status) throw new DomainError('not_found', 'Article not found');
    switch (command.type) {
      case 'PublishArticle':
        if (state.status === 'Published')
          throw illegalTransition('knowledge article', state.status, 'publish');
        return [{ type: 'KnowledgeArticlePublished', data: { published_on: command.at } }];
      case 'ArchiveArticle':
        if (state.status === 'Archived')
          throw illegalTransition('knowledge article', state.status, 'archive');
        return [{ type: 'KnowledgeArticleArchived', data: { archived_on: command.at } }];
      case 'RecordArticleViews':
        if (command.views < state.views) {
          throw new DomainError('validation_error', `views cannot go down from ${state.views}`);
        }
        return [{ type: 'KnowledgeArticleViewsRecorded', data: { views: command.views } }];
    }
  },
};

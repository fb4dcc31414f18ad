import { ARTICLE_TRANSITIONS, type ArticleStatus, type EsmEvent, type EsmEventOf } from '../../events/esm';
import type { Decider } from '../decider';
import { DomainError, illegalMove, invalidField } from '../errors';

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
        checkMove(state.status, 'Published');
        return [{ type: 'KnowledgeArticlePublished', data: { published_on: command.at } }];
      case 'ArchiveArticle':
        checkMove(state.status, 'Archived');
        return [{ type: 'KnowledgeArticleArchived', data: { archived_on: command.at } }];
      case 'RecordArticleViews':
        if (command.views < state.views) {
          throw new DomainError('validation_error', `views cannot go down from ${state.views}`);
        }
        return [{ type: 'KnowledgeArticleViewsRecorded', data: { views: command.views } }];
    }
  },
};

function checkMove(from: ArticleStatus, to: ArticleStatus): void {
  const allowed = ARTICLE_TRANSITIONS[from];
  if (!allowed.includes(to)) throw illegalMove('A knowledge article', from, to, allowed);
}

import { articleDecider } from '../../src/commands/esm/knowledge';
import { deciderSpec } from '../support/decider-spec';

const given = deciderSpec(articleDecider);
const drafted = {
  type: 'KnowledgeArticleDrafted' as const,
  data: {
    id: 1,
    title: 'Reset a password',
    category_id: 1,
    department_id: 1,
    content: 'Steps',
    author: 'Ana',
  },
};
const now = '2026-11-21T09:30:00Z';

describe('knowledge articles', () => {
  it('publishes a draft, and refuses to publish twice', () => {
    given([drafted])
      .when({ type: 'PublishArticle', at: now })
      .then([{ type: 'KnowledgeArticlePublished', data: { published_on: now } }]);
    given([drafted, { type: 'KnowledgeArticlePublished', data: { published_on: now } }])
      .when({ type: 'PublishArticle', at: now })
      .thenThrows({ code: 'illegal_transition' });
  });

  it('drafts an article in a department that exists, and refuses one that does not', () => {
    given([]).when({ type: 'DraftArticle', article: drafted.data, departmentExists: true }).then([drafted]);
    given([])
      .when({ type: 'DraftArticle', article: drafted.data, departmentExists: false })
      .thenThrows({ code: 'validation_error', message: expect.stringContaining('department_id') });
  });

  it('archives a published article, and may publish it again', () => {
    const published = { type: 'KnowledgeArticlePublished' as const, data: { published_on: now } };
    given([drafted, published])
      .when({ type: 'ArchiveArticle', at: now })
      .then([{ type: 'KnowledgeArticleArchived', data: { archived_on: now } }]);
    given([drafted, published, { type: 'KnowledgeArticleArchived', data: { archived_on: now } }])
      .when({ type: 'ArchiveArticle', at: now })
      .thenThrows({
        code: 'illegal_transition',
        details: { from: 'Archived', to: 'Archived', allowed: ['Published'] },
      });
  });

  it('records views that only go up', () => {
    given([drafted])
      .when({ type: 'RecordArticleViews', views: 10 })
      .then([{ type: 'KnowledgeArticleViewsRecorded', data: { views: 10 } }]);
    given([drafted, { type: 'KnowledgeArticleViewsRecorded', data: { views: 10 } }])
      .when({ type: 'RecordArticleViews', views: 3 })
      .thenThrows({ code: 'validation_error' });
  });
});

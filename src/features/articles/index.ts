/**
 * The articles area's public face: the only module other areas, views and the app import from.
 * (Its registration is register.ts, which only src/features/areas.ts imports.)
 */
export { featurableArticles, newestPublished, onTheirWayOf, publicArticles, type NewestArticle, type PublicArticle } from './activity.ts';
export type { BoardQuery } from './board.ts';
export type { BylineField } from './byline-terms.ts';
export { HostedCopyScanner } from './copy-scan/hosted.ts';
export { LocalCopyScanner } from './copy-scan/local.ts';
export type { CopyScanner } from './copy-scan/scanner.ts';
export type { DiffPart, RevisionDiff } from './diff.ts';
export type { listFeedback } from './feedback.ts';
export { publishedArticleOf, type ArticleRow, type PublishedArticleFacts } from './queries.ts';
export { ARTICLE_STATUSES, AUTHOR_EDITABLE, EDITORS_AT_WORK, IN_FLIGHT, PENDING_PUBLICATION, PUBLISHED, type ArticleStatus, type EditorLink } from './rules.ts';
export { publishedArticlesForLibrary } from './library.ts';
// The review pipeline as a funnel, for the staff's insights (issue 29).
export { ARTICLE_FUNNEL, articleFunnelByDay, articleSubmissionsByMember, type ArticleFunnelStage } from './figures.ts';

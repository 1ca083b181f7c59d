import type { ArticlePerson } from '#src/core/guardian/index.ts';
import { AUTHOR_EDITABLE, EDITOR_EDITABLE, PUBLISHED, type ArticleStatus } from './rules.ts';

/**
 * The Guardian's article predicates (spec section 6): only the author edits, approves and sets the
 * byline; only staff act as editors; canView decides who reads. The services check them, the
 * GraphQL `canView` field reports them and the views offer only what they allow. They live in the
 * area (core imports no area); the core Guardian gives the person they take (guardian.articlePerson).
 */

export type { ArticlePerson };
type ArticleRef = { author_id: number; status: ArticleStatus | string };

const among = (list: readonly ArticleStatus[], status: string) => (list as readonly string[]).includes(status);

/** The author, staff, or anyone once the article is published. */
export function canViewArticle(person: ArticlePerson, article: ArticleRef): boolean {
  return person.isStaff || article.author_id === person.userId || among(PUBLISHED, article.status);
}

/** Only the author, and only while the article is theirs to write (DRAFT, NEEDS_REVISION). */
export function canEditArticle(person: ArticlePerson, article: ArticleRef): boolean {
  return article.author_id === person.userId && among(AUTHOR_EDITABLE, article.status);
}

/** Only the author approves, and only the version the editors put before them. */
export function canApproveArticle(person: ArticlePerson, article: ArticleRef): boolean {
  return article.author_id === person.userId && article.status === 'READY_TO_APPROVE';
}

/** Only staff assign editors, move articles through the editors' statuses and correct the text. */
export function canActAsEditor(person: ArticlePerson): boolean {
  return person.isStaff;
}

/** Staff correct the text while the article is in the editors' hands (rules.EDITOR_EDITABLE). */
export function canEditorEditText(person: ArticlePerson, article: ArticleRef): boolean {
  return person.isStaff && among(EDITOR_EDITABLE, article.status);
}

/** The feedback thread is between the author and the editors. */
export function canJoinFeedback(person: ArticlePerson, article: ArticleRef): boolean {
  return person.isStaff || article.author_id === person.userId;
}

/**
 * The author asks for a copy scan of the article they have just submitted (spec section 7's
 * articleScanCreate after articleSendForReview); staff scan any article.
 */
export function canScanArticle(person: ArticlePerson, article: ArticleRef): boolean {
  return person.isStaff || (article.author_id === person.userId && article.status === 'SUBMITTED_FOR_REVIEW');
}

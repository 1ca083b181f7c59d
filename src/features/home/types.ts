/** What the signed-in home page shows (types only: the view imports these, never the service). */
import type { MemberFeed } from '#src/features/feeds/index.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';

/** A new forum post: links to `/forum/post/{id}`. */
export type HomePost = { id: number; title: string; authorName: string; replyCount: number; createdAt: Date };

/**
 * A newly published article. `path` is where its tile leads: the author's profile, whose articles
 * list links the article's public page (the product has no member page that reads an article).
 */
export type HomeArticle = { id: number; title: string; authorName: string; publishedDate: Date | null; path: string };

/** A member who joined recently: links to `/profile/{id}`. */
export type HomeMember = MemberSnapshot & { joinedAt: Date };

/** One of the member's own items still open, each with the page that deals with it. */
export type OpenItem =
  | { kind: 'article'; id: number; title: string; stage: 'draft' | 'review' | 'revision' | 'approval' | 'scheduled'; path: '/articles' }
  | { kind: 'introduction'; id: number; targetName: string; createdAt: Date; path: '/members/introductions' }
  | { kind: 'forumPost'; id: number; title: string; createdAt: Date; path: string };

export type WhatsNew = {
  /** Null where the community has no forum (the section is not shown at all). */
  forumPosts: HomePost[] | null;
  articles: HomeArticle[];
  newMembers: HomeMember[];
  openItems: OpenItem[];
  /** The member's feed from the team: announcements and featured items (the feeds area). */
  feed: MemberFeed;
};

/** What the signed-in home page shows (types only: the view imports these, never the service). */
import type { MemberFeed } from '#src/features/feeds/index.ts';
import type { NewestPost } from '#src/features/forum/index.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';

/**
 * A new forum post, as the forum gives it (NewestPost): links to `/forum/post/{id}`; its author's
 * face, whether the member never opened it or how many replies came since they did, and the faces of
 * those who replied last.
 */
export type HomePost = NewestPost;

/**
 * A newly published article. `path` is where its tile leads: the author's profile, whose articles
 * list links the article's public page (the product has no member page that reads an article).
 */
export type HomeArticle = { id: number; title: string; authorName: string; author: MemberSnapshot; publishedDate: Date | null; path: string };

/** A member who joined recently: links to `/profile/{id}`. */
export type HomeMember = MemberSnapshot & { joinedAt: Date };

/** One of the member's own items still open, each with the page that deals with it. */
export type OpenItem =
  | { kind: 'article'; id: number; title: string; stage: 'draft' | 'review' | 'revision' | 'approval' | 'scheduled'; path: '/articles' }
  | { kind: 'introduction'; id: number; targetName: string; createdAt: Date; path: '/members/introductions' }
  | { kind: 'forumPost'; id: number; title: string; createdAt: Date; path: string };

/**
 * One kind of news for this member, counted (a tile of the strip at the top of the page): how many
 * (counting stops past 99: `over` says there are more, shown "99+"), the faces behind it, and where it
 * is: a part of the home page (`#…`) or a page of the app. Only kinds with news are listed.
 */
export type NewsTile = {
  kind: 'unread' | 'replies' | 'team' | 'members';
  count: number;
  over: boolean;
  faces: MemberSnapshot[];
  to: '#home-forum' | '/forum' | '#feed' | '#home-members';
};

export type WhatsNew = {
  /** What is new for this member, first; empty when nothing is. */
  news: NewsTile[];
  /** Null where the community has no forum (the section is not shown at all). */
  forumPosts: HomePost[] | null;
  articles: HomeArticle[];
  newMembers: HomeMember[];
  openItems: OpenItem[];
  /** The member's feed from the team: announcements and featured items (the feeds area). */
  feed: MemberFeed;
};

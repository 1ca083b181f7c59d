import type { ForumStatus, ForumTargetKind, ReactionCount, TopicView } from '#src/features/forum/index.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import { CsrfField, Hidden } from '#views/kit/form.tsx';
import { useHref, usePage, showsRelativeTimes } from '#views/layout/page-context.tsx';
import {
  authorLineInner,
  itemActionsAction,
  itemActionsInner,
  likeInner,
  likeRootAttributes,
  reactionsInner,
  reactionsRootAttributes,
  whenText,
  type Back,
  type HtmlContext,
} from '#src/features/forum/views/item-html.ts';

/** Where a post or a reply is on its post's page (a reply: its anchor there). */
export const itemHref = (kind: 'post' | 'reply', id: number, postId: number) => (kind === 'post' ? `/forum/post/${postId}` : `/forum/post/${postId}#reply-${id}`);

export type { Back } from '#src/features/forum/views/item-html.ts';

/** What item-html.ts needs of the page being drawn. */
export function useHtmlContext(): HtmlContext {
  const { t, basePath, now, csrfToken } = usePage();
  return { t, basePath, now, csrfToken };
}

/** A member's face: the view kit's (the expert panels' roundups draw the same). */
export { MemberAvatar as ForumAvatar } from '#views/kit/member-avatar.tsx';

/** Relative time ("5 minutes ago", a date after 21 days) with the exact time for machines. */
export function When({ at, template }: { at: Date; template?: string }) {
  const page = usePage();
  showsRelativeTimes(page);
  return (
    <time dateTime={new Date(at).toISOString()} data-rel={template ? page.t(template, { when: '{when}' }) : ''}>
      {whenText(at, page, template)}
    </time>
  );
}

/** Name (a profile link), company, face, and when (left out where the date shown would not be the item's own). */
export function AuthorLine({ author, at, edited }: { author: MemberSnapshot; at?: Date; edited?: boolean }) {
  if (at) showsRelativeTimes(usePage());
  return <div className="forum-author" dangerouslySetInnerHTML={{ __html: authorLineInner(author, useHtmlContext(), at, edited) }} />;
}

export function StatusBadges({ status, pinned, locked }: { status: ForumStatus; pinned?: boolean; locked?: boolean }) {
  const { t } = usePage();
  return (
    <>
      {pinned ? <span className="badge">{t('forumPages.badges.pinned')}</span> : null}
      {locked ? <span className="badge">{t('forumPages.badges.locked')}</span> : null}
      {status !== 'published' ? <span className="badge forum-badge-wait">{t(`forumPages.badges.${status}`)}</span> : null}
    </>
  );
}

/** An item's like and reactions in one form (the markup: item-html.ts itemActionsInner). */
export function ItemActions({ kind, id, likeCount, liked, reactions, back }: { kind: ForumTargetKind; id: number; likeCount: number; liked: boolean; reactions: ReactionCount[]; back: Back }) {
  const ctx = useHtmlContext();
  return <form className="forum-actions-form" action={itemActionsAction(kind, id, ctx)} method="post" dangerouslySetInnerHTML={{ __html: itemActionsInner(kind, id, likeCount, liked, reactions, back, ctx) }} />;
}

/**
 * The like button and its count, inside ItemActions' form: the button posts `on` to the like address;
 * with htmx this part replaces itself with the like route's answer.
 */
export function LikeButton({ kind, id, count, liked, error }: { kind: ForumTargetKind; id: number; count: number; liked: boolean; error?: string }) {
  const root = likeRootAttributes(kind, id);
  return <span className={root.className} id={root.id} hx-target="this" hx-swap="outerHTML" dangerouslySetInnerHTML={{ __html: likeInner(kind, id, count, liked, useHtmlContext(), error) }} />;
}

/**
 * The fixed set of reactions, each a toggle with its count, inside ItemActions' form: a button posts
 * `toggle` ("celebrate:1") to the reaction address; with htmx this group replaces itself.
 */
export function Reactions({ kind, id, reactions, error }: { kind: ForumTargetKind; id: number; reactions: ReactionCount[]; error?: string }) {
  const ctx = useHtmlContext();
  const root = reactionsRootAttributes(kind, id, ctx);
  return <div className={root.className} id={root.id} role="group" aria-label={root.label} hx-target="this" hx-swap="outerHTML" dangerouslySetInnerHTML={{ __html: reactionsInner(kind, id, reactions, ctx, error) }} />;
}

/**
 * The post page's one polite live region (role="status"). An htmx answer to a like, a reaction or a
 * follow fills it out of band (`hx-swap-oob="innerHTML"`): the region itself stays in the page, so a
 * screen reader announces the new text, which it would not for a region swapped in with the button.
 */
export function ForumLive({ text }: { text?: string }) {
  if (text === undefined) return <p id="forum-live" className="visually-hidden" role="status" />;
  return (
    <p id="forum-live" className="visually-hidden" role="status" hx-swap-oob="innerHTML">
      {text}
    </p>
  );
}

/** Follow or unfollow a post: followers get a notification for each new reply. */
export function FollowButton({ postId, followed, back, error }: { postId: number; followed: boolean; back: Back; error?: string }) {
  const { t } = usePage();
  const href = useHref();
  const action = href(`/forum/post/${postId}/follow`);
  return (
    <form method="post" action={action} className="forum-follow" id={`follow-${postId}`} hx-post={action} hx-swap="outerHTML">
      <CsrfField />
      <input type="hidden" name="post" value={String(back.postId)} />
      <Hidden name="after" value={back.after} />
      <input type="hidden" name="on" value={followed ? '0' : '1'} />
      <button type="submit" className="chip" id={`follow-${postId}-button`} aria-describedby={`follow-${postId}-hint`}>
        {t(followed ? 'forumPages.post.unfollow' : 'forumPages.post.follow')}
      </button>{' '}
      <span className="muted" id={`follow-${postId}-hint`}>
        {t(followed ? 'forumPages.post.following' : 'forumPages.post.followHint')}
      </span>
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  );
}

export { TextArea } from '#views/kit/form.tsx';

/** How many colours topics take turns in (`forum-topic-c0`.. in the stylesheet, each a pair of tokens). */
const TOPIC_COLOURS = 6;

/** A topic's colour: stable per topic (its id), from the stylesheet's small palette of tokens. */
export const topicColourClass = (topicId: number) => `forum-topic-c${topicId % TOPIC_COLOURS}`;

/** A post's topics, each a link to the list filtered by it (the list and the post page), each in its colour. */
export function TopicLinks({ topics }: { topics: TopicView[] }) {
  const { t } = usePage();
  const href = useHref();
  if (topics.length === 0) return null;
  return (
    <ul className="forum-topics" aria-label={t('forumPages.list.topics')}>
      {topics.map((topic) => (
        <li key={topic.id} className={topicColourClass(topic.id)}>
          <a href={href(`/forum?topic=${topic.id}`)}>{topic.name}</a>
        </li>
      ))}
    </ul>
  );
}

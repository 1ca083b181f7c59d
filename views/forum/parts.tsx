import type { ReactNode } from 'react';
import { formatRelative } from '#src/core/format.ts';
import type { ForumStatus, ForumTargetKind, ReactionCount, TopicView } from '#src/features/forum/types.ts';
import type { MemberSnapshot } from '#src/features/members/types.ts';
import { CsrfField, Hidden } from '#views/auth/parts.tsx';
import { avatarAt } from '#views/members/avatar.ts';
import { useHref, usePage } from '#views/layout/page-context.tsx';

const initialsOf = (m: MemberSnapshot) => `${m.firstName.charAt(0)}${m.lastName.charAt(0)}`.toUpperCase() || '?';

/** A member's face as the directory draws it: the photo (the 80 px preset), or the initials. */
export function ForumAvatar({ member }: { member: MemberSnapshot }) {
  const href = useHref();
  if (member.avatar) {
    const src = member.avatar.startsWith('/') ? href(avatarAt(member.avatar, 80)) : member.avatar;
    return <img className="forum-avatar" src={src} alt="" width={40} height={40} loading="lazy" decoding="async" />;
  }
  return (
    <span className="forum-avatar member-initials" aria-hidden="true">
      {initialsOf(member)}
    </span>
  );
}

/** Relative time ("5 minutes ago", a date after 21 days) with the exact time for machines. */
export function When({ at, template }: { at: Date; template?: string }) {
  const { t, now } = usePage();
  const text = formatRelative(at, now, t).text;
  return <time dateTime={new Date(at).toISOString()}>{template ? t(template, { when: text }) : text}</time>;
}

/** Name (a profile link), company, face, and when (left out where the date shown would not be the item's own). */
export function AuthorLine({ author, at, edited, children }: { author: MemberSnapshot; at?: Date; edited?: boolean; children?: ReactNode }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <div className="forum-author">
      <ForumAvatar member={author} />
      <p>
        <a href={href(`/profile/${author.id}`)}>{author.name}</a>
        {author.companyName ? <span className="muted"> · {author.companyName}</span> : null}
        {at ? (
          <>
            <br />
            <span className="muted">
              <When at={at} />
              {edited ? ` · ${t('forumPages.badges.edited')}` : null}
            </span>
          </>
        ) : null}
        {children}
      </p>
    </div>
  );
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

/** Where a form on the post page sends the member back to: the post, the reply page and the item. */
export type Back = { postId: number; after?: string | null };

function BackFields({ back }: { back: Back }) {
  return (
    <>
      <input type="hidden" name="post" value={String(back.postId)} />
      <Hidden name="after" value={back.after} />
    </>
  );
}

/**
 * An item's like and reactions: ONE form (the CSRF field and where to go back to, once), each toggle a
 * submit button carrying its own value. Without JavaScript a button is a plain POST (then back to the
 * item): the like button to the like address (formaction), a reaction to the form's own. With htmx each
 * button posts in the background and only its part (LikeButton or Reactions) is swapped.
 */
export function ItemActions({ kind, id, likeCount, liked, reactions, back }: { kind: ForumTargetKind; id: number; likeCount: number; liked: boolean; reactions: ReactionCount[]; back: Back }) {
  const href = useHref();
  return (
    <form method="post" action={href(`/forum/${kind}/${id}/react`)} className="forum-actions-form">
      <CsrfField />
      <BackFields back={back} />
      <LikeButton kind={kind} id={id} count={likeCount} liked={liked} />
      <Reactions kind={kind} id={id} reactions={reactions} />
    </form>
  );
}

/**
 * The like button and its count, inside ItemActions' form: the button posts `on` to the like address;
 * with htmx this part replaces itself with the like route's answer.
 */
export function LikeButton({ kind, id, count, liked, error }: { kind: ForumTargetKind; id: number; count: number; liked: boolean; error?: string }) {
  const { t } = usePage();
  const href = useHref();
  const action = href(`/forum/${kind}/${id}/like`);
  return (
    <span className="forum-like" id={`like-${kind}-${id}`} hx-target="this" hx-swap="outerHTML">
      <button
        type="submit"
        formAction={action}
        hx-post={action}
        name="on"
        value={liked ? '0' : '1'}
        className="forum-chip"
        id={`like-${kind}-${id}-button`}
        aria-pressed={liked}
        aria-label={t(kind === 'post' ? 'forumPages.post.likeLabel' : 'forumPages.post.likeReplyLabel')}
      >
        {t('forumPages.post.like')}
      </button>{' '}
      <span className="forum-count" aria-live="polite">
        {t('forumPages.post.likeCount', { n: count })}
      </span>
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The fixed set of reactions, each a toggle with its count, inside ItemActions' form: a button posts
 * `toggle` ("celebrate:1") to the reaction address; with htmx this group replaces itself.
 */
export function Reactions({ kind, id, reactions, error }: { kind: ForumTargetKind; id: number; reactions: ReactionCount[]; error?: string }) {
  const { t } = usePage();
  const href = useHref();
  const action = href(`/forum/${kind}/${id}/react`);
  return (
    <div className="forum-reactions" id={`reactions-${kind}-${id}`} role="group" aria-label={t('forumPages.post.reactions')} hx-target="this" hx-swap="outerHTML">
      {reactions.map((r) => (
        <button key={r.reaction} type="submit" name="toggle" value={`${r.reaction}:${r.mine ? '0' : '1'}`} hx-post={action} className="forum-chip" id={`react-${kind}-${id}-${r.reaction}`} aria-pressed={r.mine}>
          {t(`forum.reactions.${r.reaction}`)}{' '}
          <span className="forum-count" aria-live="polite">
            {r.count}
          </span>
        </button>
      ))}
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
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
      <BackFields back={back} />
      <input type="hidden" name="on" value={followed ? '0' : '1'} />
      <button type="submit" className="forum-chip" id={`follow-${postId}-button`} aria-describedby={`follow-${postId}-hint`}>
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

/** A labelled textarea with its hint and its message, for the message of a post or a reply. */
export function TextArea({ id, name, label, value, error, hint, rows = 8 }: { id: string; name: string; label: string; value: string; error?: string; hint?: string; rows?: number }) {
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <textarea id={id} name={name} rows={rows} defaultValue={value} aria-invalid={error ? true : undefined} aria-describedby={described} />
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A post's topics, each a link to the list filtered by it (the list and the post page). */
export function TopicLinks({ topics }: { topics: TopicView[] }) {
  const { t } = usePage();
  const href = useHref();
  if (topics.length === 0) return null;
  return (
    <ul className="forum-topics" aria-label={t('forumPages.list.topics')}>
      {topics.map((topic) => (
        <li key={topic.id}>
          <a href={href(`/forum?topic=${topic.id}`)}>{topic.name}</a>
        </li>
      ))}
    </ul>
  );
}

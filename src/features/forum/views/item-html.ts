// The repeated parts of a thread as HTML strings (decision 0034): a post page draws up to 20 replies,
// each with its author line, message, like and reactions form and links, about 45 elements apiece.
// Drawn by React element by element, that was most of the page's rendering time; these functions
// write the same markup directly. The React components in parts.tsx (the post itself, the htmx
// fragments, the moderation pages) wrap the same functions, so the markup is written once.
//
// Everything interpolated goes through `esc` (text and attribute values alike), except `bodyHtml`,
// which the forum's service sanitised when it was saved (as the React page's dangerouslySetInnerHTML
// did before).
import { formatRelative } from '#shared/format.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { ForumAbilities, ForumStatus, ForumTargetKind, ReactionCount, ReplyView } from '#src/features/forum/index.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import { faceOf } from '#views/kit/member-avatar.tsx';

/** What the strings need of the page: messages, links under the base path, the clock, the CSRF token. */
export type HtmlContext = { t: Translate; basePath: string; now: Date; csrfToken: string };

/** Where a form on the post page sends the member back to: the post, the reply page and the item. */
export type Back = { postId: number; after?: string | null };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
/** Escapes text and attribute values (as React does). */
export const esc = (value: string | number): string => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export const hrefIn = (ctx: Pick<HtmlContext, 'basePath'>, path: string) => `${ctx.basePath}${path === '/' && ctx.basePath ? '' : path}` || '/';

/** A member's face as the HTML string: the view kit's face (MemberAvatar draws the same in React). */
export function avatarHtml(member: MemberSnapshot, ctx: HtmlContext): string {
  const face = faceOf(member, ctx.basePath);
  if ('src' in face) return `<img class="forum-avatar" src="${esc(face.src)}" alt="" width="40" height="40" loading="lazy" decoding="async"/>`;
  return `<span class="forum-avatar member-initials" aria-hidden="true">${esc(face.initials)}</span>`;
}

/** Relative time ("5 minutes ago", a date after 21 days), in a message template if given. */
export function whenText(at: Date, ctx: Pick<HtmlContext, 't' | 'now'>, template?: string): string {
  const text = formatRelative(at, ctx.now, ctx.t).text;
  return template ? ctx.t(template, { when: text }) : text;
}

/** The relative time with the exact time for machines; `data-rel` lets the page's script keep it current. */
export const whenHtml = (at: Date, ctx: HtmlContext) => `<time dateTime="${new Date(at).toISOString()}" data-rel="">${esc(whenText(at, ctx))}</time>`;

/** Inside `.forum-author`: face, name (a profile link while the member is active), company, and when (where it is the item's own). */
export function authorLineInner(author: MemberSnapshot, ctx: HtmlContext, at?: Date, edited?: boolean): string {
  const company = author.companyName ? `<span class="muted"> · ${esc(author.companyName)}</span>` : '';
  const when = at ? `<br/><span class="muted">${whenHtml(at, ctx)}${edited ? ` · ${esc(ctx.t('forumPages.badges.edited'))}` : ''}</span>` : '';
  // A former or deactivated member has no profile to open: their name stays text.
  const name = author.isActive ? `<a href="${esc(hrefIn(ctx, `/profile/${author.id}`))}">${esc(author.name)}</a>` : esc(author.name);
  return `${avatarHtml(author, ctx)}<p>${name}${company}${when}</p>`;
}

const errorHtml = (error?: string) => (error ? `<span class="field-error" role="alert">${esc(error)}</span>` : '');

/** Inside `.forum-like`: the like button (posts `on` to the like address) and the count. */
export function likeInner(kind: ForumTargetKind, id: number, count: number, liked: boolean, ctx: HtmlContext, error?: string): string {
  const action = esc(hrefIn(ctx, `/forum/${kind}/${id}/like`));
  const label = esc(ctx.t(kind === 'post' ? 'forumPages.post.likeLabel' : 'forumPages.post.likeReplyLabel'));
  return (
    `<button type="submit" hx-post="${action}" value="${liked ? '0' : '1'}" class="chip" id="like-${kind}-${id}-button" aria-pressed="${liked}" aria-label="${label}" name="on" formAction="${action}">` +
    `${esc(ctx.t('forumPages.post.like'))}</button> <span class="forum-count">${esc(ctx.t('forumPages.post.likeCount', { n: count }))}</span>${errorHtml(error)}`
  );
}

export const likeRootAttributes = (kind: ForumTargetKind, id: number) => ({ className: 'forum-like', id: `like-${kind}-${id}` });

function likeHtml(kind: ForumTargetKind, id: number, count: number, liked: boolean, ctx: HtmlContext): string {
  const root = likeRootAttributes(kind, id);
  return `<span class="${root.className}" id="${root.id}" hx-target="this" hx-swap="outerHTML">${likeInner(kind, id, count, liked, ctx)}</span>`;
}

/**
 * Inside `.forum-reactions`: each reaction a toggle with its count (`toggle` = "celebrate:1"). A post
 * or a reply shows only the reactions members gave, as chips with their counts; the others wait one
 * press away behind its React disclosure (the same buttons, in the same form, so it works without
 * JavaScript), rather than a row of zeros under every item (issue 30).
 */
export function reactionsInner(kind: ForumTargetKind, id: number, reactions: ReactionCount[], ctx: HtmlContext, error?: string): string {
  const action = esc(hrefIn(ctx, `/forum/${kind}/${id}/react`));
  const button = (r: ReactionCount, withCount: boolean) =>
    `<button type="submit" value="${r.reaction}:${r.mine ? '0' : '1'}" hx-post="${action}" class="chip" id="react-${kind}-${id}-${r.reaction}" aria-pressed="${r.mine}" name="toggle">` +
    `${esc(ctx.t(`forum.reactions.${r.reaction}`))}${withCount ? ` <span class="forum-count">${r.count}</span>` : ''}</button>`;
  const given = reactions.filter((r) => r.count > 0);
  const others = reactions.filter((r) => r.count === 0);
  const more = others.length
    ? `<details class="forum-react-more"><summary class="chip">${esc(ctx.t('forumPages.post.react'))}</summary>` +
      `<span class="forum-react-menu">${others.map((r) => button(r, false)).join('')}</span></details>`
    : '';
  return given.map((r) => button(r, true)).join('') + more + errorHtml(error);
}

export const reactionsRootAttributes = (kind: ForumTargetKind, id: number, ctx: HtmlContext) => ({ className: 'forum-reactions', id: `reactions-${kind}-${id}`, label: ctx.t('forumPages.post.reactions') });

function reactionsHtml(kind: ForumTargetKind, id: number, reactions: ReactionCount[], ctx: HtmlContext): string {
  const root = reactionsRootAttributes(kind, id, ctx);
  return `<div class="${root.className}" id="${root.id}" role="group" aria-label="${esc(root.label)}" hx-target="this" hx-swap="outerHTML">${reactionsInner(kind, id, reactions, ctx)}</div>`;
}

/** The hidden fields that send a form's member back to where they were (the post, the reply page). */
export function backFieldsHtml(back: Back): string {
  const after = back.after ? `<input type="hidden" name="after" value="${esc(back.after)}"/>` : '';
  return `<input type="hidden" name="post" value="${back.postId}"/>${after}`;
}

export const csrfFieldHtml = (ctx: HtmlContext) => `<input type="hidden" name="_csrf" value="${esc(ctx.csrfToken)}"/>`;

/**
 * An item's like and reactions: ONE form (the CSRF field and where to go back to, once), each toggle a
 * submit button carrying its own value. Without JavaScript a button is a plain POST (then back to the
 * item): the like button to the like address (formaction), a reaction to the form's own. With htmx each
 * button posts in the background and only its part (the like or the reactions) is swapped.
 */
export function itemActionsInner(kind: ForumTargetKind, id: number, likeCount: number, liked: boolean, reactions: ReactionCount[], back: Back, ctx: HtmlContext): string {
  return `${csrfFieldHtml(ctx)}${backFieldsHtml(back)}${likeHtml(kind, id, likeCount, liked, ctx)}${reactionsHtml(kind, id, reactions, ctx)}`;
}

export const itemActionsAction = (kind: ForumTargetKind, id: number, ctx: Pick<HtmlContext, 'basePath'>) => hrefIn(ctx, `/forum/${kind}/${id}/react`);

function itemActionsHtml(kind: ForumTargetKind, id: number, likeCount: number, liked: boolean, reactions: ReactionCount[], back: Back, ctx: HtmlContext): string {
  return `<form class="forum-actions-form" action="${esc(itemActionsAction(kind, id, ctx))}" method="post">${itemActionsInner(kind, id, likeCount, liked, reactions, back, ctx)}</form>`;
}

/** A pending, rejected or removed item's note (the reason goes to the author and moderators). */
export function stateNoteHtml(status: ForumStatus, note: string | null, kind: ForumTargetKind, ctx: HtmlContext): string {
  const alert = (k: 'info' | 'error', text: string) => `<div class="alert alert-${k}" role="${k === 'error' ? 'alert' : 'status'}">${esc(text)}</div>`;
  if (status === 'pending') return alert('info', ctx.t(kind === 'post' ? 'forumPages.post.pendingNote' : 'forumPages.post.pendingReplyNote'));
  if (status === 'rejected') return alert('error', ctx.t('forumPages.post.rejectedNote', { reason: note ?? '' }));
  if (status === 'removed') return alert('error', ctx.t('forumPages.post.removedNote', { reason: note ?? '' }));
  return '';
}

/** Inside `ul.forum-links`: edit, delete (one's own), remove (a moderator, someone else's), report (or 'Reported By You'), each only when the service says the viewer may. */
export function itemLinksInner(kind: ForumTargetKind, id: number, abilities: ForumAbilities, reportedByMe: boolean, ctx: HtmlContext): string {
  const link = (path: string, key: string) => `<li><a href="${esc(hrefIn(ctx, path))}">${esc(ctx.t(key))}</a></li>`;
  let out = '';
  if (abilities.canEdit) out += link(`/forum/${kind}/${id}/edit`, 'forumPages.post.edit');
  if (abilities.canDelete) out += link(`/forum/${kind}/${id}/delete`, 'forumPages.post.delete');
  if (abilities.canRemove) out += link(`/forum/${kind}/${id}/remove`, 'forumPages.post.remove');
  if (reportedByMe) out += `<li><span class="badge forum-reported">${esc(ctx.t('forum.reportedByYou'))}</span></li>`;
  else if (abilities.canReport) out += link(`/forum/report/${kind}/${id}`, 'forumPages.post.report');
  return out;
}

/** A reply's article: author, state note, message, like and reactions (when published), links. */
export function replyArticleInner(reply: ReplyView, back: Back, ctx: HtmlContext): string {
  const actions =
    reply.status === 'published'
      ? `<div class="forum-actions">${itemActionsHtml('reply', reply.id, reply.likeCount, reply.likedByMe, reply.reactions, back, ctx)}</div>`
      : '';
  return (
    `<div class="forum-author">${authorLineInner(reply.author, ctx, reply.createdAt, reply.editedAt !== null)}</div>` +
    stateNoteHtml(reply.status, reply.moderationNote, 'reply', ctx) +
    `<div class="forum-body">${reply.bodyHtml}</div>${actions}` +
    `<ul class="forum-links">${itemLinksInner('reply', reply.id, reply.abilities, reply.reportedByMe, ctx)}</ul>`
  );
}

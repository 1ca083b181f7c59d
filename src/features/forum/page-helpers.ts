import type { FastifyRequest } from 'fastify';
import { AppError, notFound } from '#src/core/errors.ts';
import type { Translate } from '#src/core/i18n.ts';
import { str, type FormBody } from '#src/lib/form.ts';
import { parseId, requireId } from '#src/core/ids.ts';
import { REACTIONS } from './rules.ts';
import type { ForumTargetKind, ReactionCount } from './types.ts';

/** The forum pages' small shared parsing: ids in the address, the kind of target, where to go back to. */

export const KINDS: readonly ForumTargetKind[] = ['post', 'reply'];

export function idParam(request: FastifyRequest, name = 'id'): number {
  return requireId((request.params as Record<string, string | undefined>)[name]);
}

export function kindParam(request: FastifyRequest): ForumTargetKind {
  const kind = (request.params as { kind?: string }).kind;
  if (kind !== 'post' && kind !== 'reply') throw notFound();
  return kind;
}

/** A keyset cursor as the forms carry it: opaque, short, URL-safe; anything else is dropped. */
export function cursorOf(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : null;
}

/** The post page (its page of replies) and the item on it, for the redirect after a plain POST. */
export function postPath(postId: number, options: { after?: string | null; anchor?: string; notice?: string } = {}): string {
  const q = new URLSearchParams();
  if (options.after) q.set('after', options.after);
  if (options.notice) q.set('notice', options.notice);
  const s = q.toString();
  return `/forum/post/${postId}${s ? `?${s}` : ''}${options.anchor ? `#${options.anchor}` : ''}`;
}

/** Where a form on the post page came from: the post id and the page of replies. */
export function backOf(body: FormBody): { postId: number | null; after: string | null } {
  return { postId: parseId(body.post), after: cursorOf(body.after) };
}

/** An AppError's field messages, translated; a message for the whole form under `form` when none names a field. */
export function fieldMessages(e: AppError, t: Translate): Record<string, string> {
  if (e.fields && Object.keys(e.fields).length > 0) {
    return Object.fromEntries(Object.entries(e.fields).map(([f, v]) => [f, t(v.key, v.values)]));
  }
  return { form: t(e.key, e.values) };
}

/** `on` from a toggle form: '1' or '0'; anything else is a bad request. */
export function onOf(body: FormBody): boolean {
  const on = str(body.on);
  if (on !== '1' && on !== '0') throw new AppError('BadRequest.Validation');
  return on === '1';
}

/**
 * The reaction and `on` of a reaction toggle: from the one form of an item's actions, the pressed
 * button's `toggle` ("celebrate:1", "celebrate:0"); else the fields `reaction` and `on` (the API of
 * old). Anything else is a bad request (a reaction outside the set is refused by the service).
 */
export function reactionToggleOf(body: FormBody): { reaction: unknown; on: boolean } {
  if (body.toggle === undefined) return { reaction: body.reaction, on: onOf(body) };
  const m = /^([a-z]{1,40}):([01])$/.exec(str(body.toggle));
  if (!m) throw new AppError('BadRequest.Validation');
  return { reaction: m[1], on: m[2] === '1' };
}

/** Notices the pages show after a redirect (`?notice=`), by id: nothing else reaches the page. */
export const NOTICES = ['created', 'createdPending', 'replied', 'repliedPending', 'edited', 'deleted', 'reported', 'alreadyReported', 'approved', 'rejected', 'removed', 'dismissed'] as const;
export type NoticeId = (typeof NOTICES)[number];
export const noticeOf = (value: unknown): NoticeId | undefined => (NOTICES as readonly unknown[]).includes(value) ? (value as NoticeId) : undefined;

/** The whole fixed set of reactions, in its order, each with its count (0 when nobody gave it): every one can be given. */
export function allReactions(given: readonly ReactionCount[]): ReactionCount[] {
  return REACTIONS.map((reaction) => given.find((r) => r.reaction === reaction) ?? { reaction, count: 0, mine: false });
}

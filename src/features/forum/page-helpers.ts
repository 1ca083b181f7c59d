import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import type { Translate } from '#src/core/i18n.ts';
import { id, optionalId } from '#src/lib/form.ts';
import { REACTIONS } from './rules.ts';
import type { ForumTargetKind, ReactionCount } from './types.ts';

/**
 * The forum pages' small shared pieces of their edge schemas (each route declares its own beside it,
 * read with formOf, queryOf, paramsOf from #src/lib/form.ts): ids and the kind of target in the
 * address, the cursor and the way back that forms carry, where to go back to.
 */

export const KINDS: readonly ForumTargetKind[] = ['post', 'reply'];

/** `/forum/post/:postId/...` */
export const PostParams = z.object({ postId: id });
/** `/forum/:kind/:id/...`: a post or a reply (anything else names nothing: 404). */
export const KindIdParams = z.object({ kind: z.enum(['post', 'reply']), id });

/** A keyset cursor as the forms and links carry it: opaque, short, URL-safe; anything else is dropped (null). */
export const cursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,200}$/)
  .optional()
  .catch(undefined)
  .transform((v) => v ?? null);

/** Notices the pages show after a redirect (`?notice=`), by id: nothing else reaches the page. */
export const NOTICES = ['created', 'createdPending', 'replied', 'repliedPending', 'edited', 'deleted', 'reported', 'alreadyReported', 'approved', 'rejected', 'removed', 'dismissed'] as const;
export type NoticeId = (typeof NOTICES)[number];

/** A notice a page shows after a redirect (`?notice=`): one of NOTICES, anything else dropped. */
export const notice = z
  .enum(NOTICES)
  .optional()
  .catch(undefined);

/** `on` from a toggle form: '1' or '0' (anything else is a bad request). */
export const toggleOn = z.enum(['1', '0']).transform((v) => v === '1');

/** What a form on the post page carries to come back to: the post (of a reply) and its page of replies. */
export const BackFields = { post: optionalId, after: cursor };

/** The post page (its page of replies) and the item on it, for the redirect after a plain POST. */
export function postPath(postId: number, options: { after?: string | null; anchor?: string; notice?: string } = {}): string {
  const q = new URLSearchParams();
  if (options.after) q.set('after', options.after);
  if (options.notice) q.set('notice', options.notice);
  const s = q.toString();
  return `/forum/post/${postId}${s ? `?${s}` : ''}${options.anchor ? `#${options.anchor}` : ''}`;
}

/** An AppError's field messages, translated; a message for the whole form under `form` when none names a field. */
export function fieldMessages(e: AppError, t: Translate): Record<string, string> {
  if (e.fields && Object.keys(e.fields).length > 0) {
    return Object.fromEntries(Object.entries(e.fields).map(([f, v]) => [f, t(v.key, v.values)]));
  }
  return { form: t(e.key, e.values) };
}

/**
 * A reaction toggle: from the one form of an item's actions, the pressed button's `toggle`
 * ("celebrate:1", "celebrate:0"); else the fields `reaction` and `on` (the API of old). Anything else
 * is a bad request (a reaction outside the set is refused by the service).
 */
export const ReactFields = {
  toggle: z
    .string()
    .regex(/^[a-z]{1,40}:[01]$/)
    .optional(),
  reaction: z.string().max(40).optional(),
  on: toggleOn.optional(),
};

/** The reaction and `on` of a reaction toggle form (ReactFields). */
export function reactionToggleOf(form: { toggle?: string; reaction?: string; on?: boolean }): { reaction: unknown; on: boolean } {
  if (form.toggle === undefined) {
    if (form.on === undefined) throw new AppError('BadRequest.Validation');
    return { reaction: form.reaction, on: form.on };
  }
  const [reaction, on] = form.toggle.split(':');
  return { reaction, on: on === '1' };
}


/** The whole fixed set of reactions, in its order, each with its count (0 when nobody gave it): every one can be given. */
export function allReactions(given: readonly ReactionCount[]): ReactionCount[] {
  return REACTIONS.map((reaction) => given.find((r) => r.reaction === reaction) ?? { reaction, count: 0, mine: false });
}

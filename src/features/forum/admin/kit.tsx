import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { z } from 'zod';
import type { AppError } from '#src/core/errors.ts';
import { id, queryOf } from '#src/lib/form.ts';
import { staffAction, type StaffActionAgain } from '#src/lib/admin/act.ts';
import { ForumOff, type ForumStaffTab, type StaffForm } from '#src/features/forum/views/admin.tsx';
import { searchTerm, STAFF_POST_STATUSES, type StaffPostQuery } from '../staff.ts';
import { isIdCursor } from '../targets.ts';

/**
 * What every section of the staff's forum area shares: the pieces of its routes' edge schemas (each
 * route declares its own beside it, read with formOf, queryOf, paramsOf from #src/lib/form.ts), the
 * page frame (or the notice that the forum is off), the notices an action comes back with, and the
 * act-then-redirect helper whose refusals re-render the page with the message beside the field.
 */

/** The notices an action may come back with (`?done=<key>`): only these render. */
const DONE = [
  'approved',
  'rejected',
  'dismissed',
  'removed',
  'restored',
  'locked',
  'unlocked',
  'pinned',
  'unpinned',
  'topicCreated',
  'topicRenamed',
  'topicMoved',
  'topicArchived',
  'topicUnarchived',
  'moderatorOn',
  'moderatorOff',
  'settingsSaved',
] as const;
export type Done = (typeof DONE)[number];

/** `/admin/forum/.../:kind/:id/...`: a post or a reply (anything else names nothing: 404). */
export const KindIdParams = z.object({ kind: z.enum(['post', 'reply']), id });

/** A staff switch: 'true' or 'false' (anything else is a bad request). */
export const staffOn = z.enum(['true', 'false']).transform((v) => v === 'true');

/** A list's cursor as sent, null when absent or empty (checked where it is used). */
export const after = z
  .string()
  .optional()
  .catch(undefined)
  .transform((v) => v || null);

/** A list's own page: its cursor. */
export const AfterQuery = z.object({ after });

/**
 * The posts list's query (the list, its pages, and the actions' way back): a search as sent (checked
 * by searchTerm), a state, an id cursor; what does not fit is dropped.
 */
export const PostsQuery = z.object({
  q: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v) => v ?? null),
  status: z
    .enum(STAFF_POST_STATUSES)
    .optional()
    .catch(undefined)
    .transform((v) => v ?? null),
  after: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v) => (isIdCursor(v) ? v : null)),
});

/** The posts list's query from a query string's fields (never refused: PostsQuery drops what does not fit). */
export const postQueryOf = (q: Record<string, unknown>): StaffPostQuery => PostsQuery.parse(q);

export { searchTerm };

/** `?done=<key>`: the notice an action came back with; anything else shows none. */
const DoneQuery = z.object({
  done: z
    .enum(DONE)
    .optional()
    .catch(undefined),
});

/** The shared helpers of the sections, bound to the app (its translations). */
export function forumStaffKit(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };

  const noticeOf = (request: FastifyRequest) => {
    const { done } = queryOf(DoneQuery, request);
    return done ? t(`forumStaff.done.${done}`) : undefined;
  };
  const fieldsOf = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));

  /** The page, or where the forum is off, the notice that says so (staff must be able to find the switch). */
  async function page(request: FastifyRequest, reply: FastifyReply, tab: ForumStaffTab, body: () => Promise<ReactNode>, status?: number) {
    request.guardian.ensureAdmin();
    const title = t(`forumStaff.titles.${tab}`);
    if (!request.community.forum_enabled) {
      return reply.page({ title, body: <ForumOff sitePath={`/admin/sites/${encodeURIComponent(request.community.code)}`} /> });
    }
    return reply.page({ title, body: await body(), status });
  }

  /**
   * Runs an action; done, back to `path` with its notice. Refused with a message the form can show (a
   * field's, or the whole form's: already moderated, gone), the page comes back with it and what was
   * typed. Anything else (not found, forbidden, a malformed request) goes to the error handler.
   */
  const staffAct = staffAction<Done>(t, ['Forum.AlreadyModerated', 'Forum.PostNotFound', 'Forum.ReplyNotFound', 'Forum.TopicNotFound']);
  const act = (request: FastifyRequest, reply: FastifyReply, run: () => Promise<Done>, again: StaffActionAgain & { path: string }) =>
    staffAct(request, reply, async () => ({ done: await run(), path: again.path }), again);

  return { admin, noticeOf, fieldsOf, page, act };
}

export type ForumStaffKit = ReturnType<typeof forumStaffKit>;
export type { StaffForm };

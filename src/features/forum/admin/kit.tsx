import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { AppError, notFound } from '#src/core/errors.ts';
import { requireId } from '#src/core/ids.ts';
import type { ForumTargetKind } from '#src/db/types.ts';
import { type FormBody as Body, str } from '#src/lib/form.ts';
import { staffAction, type StaffActionAgain } from '#src/lib/admin/act.ts';
import { ForumOff, type ForumStaffTab, type StaffForm } from '#src/features/forum/views/admin.tsx';
import { searchTerm, STAFF_POST_STATUSES, type StaffPostQuery } from '../staff.ts';
import { isIdCursor } from '../targets.ts';

/**
 * What every section of the staff's forum area shares: reading a route's ids and form fields, the
 * page frame (or the notice that the forum is off), the notices an action comes back with, and the
 * act-then-redirect helper whose refusals re-render the page with the message beside the field.
 */

export type { Body };

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

export const kindOf = (value: unknown): ForumTargetKind => {
  if (value === 'post' || value === 'reply') return value;
  throw notFound();
};
export const onOf = (value: unknown): boolean => {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new AppError('BadRequest.Validation');
};

/** A route's id parameter (`:id`, or the one named), a 404 unless it is a positive id. */
export const idParam = (request: FastifyRequest, name = 'id'): number => requireId((request.params as Record<string, string | undefined>)[name]);
/** A form POST's fields (none: an empty body). */
export const bodyOf = (request: FastifyRequest): Body => (request.body ?? {}) as Body;
/** A list's cursor as sent (checked where it is used). */
export const afterOf = (value: unknown) => (typeof value === 'string' && value ? value : null);

/** The posts list's query from a query string (the list, its pages, and the actions' way back). */
export function postQueryOf(q: Record<string, unknown>): StaffPostQuery {
  const status = (STAFF_POST_STATUSES as readonly string[]).includes(str(q.status)) ? (q.status as StaffPostQuery['status']) : null;
  const after = isIdCursor(q.after) ? q.after : null;
  return { q: typeof q.q === 'string' ? q.q : null, status, after };
}

export { searchTerm };

export { formOf } from '#src/lib/form.ts';

/** The shared helpers of the sections, bound to the app (its translations). */
export function forumStaffKit(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };

  const noticeOf = (request: FastifyRequest) => {
    const done = (request.query as Record<string, unknown>).done;
    return typeof done === 'string' && (DONE as readonly string[]).includes(done) ? t(`forumStaff.done.${done}`) : undefined;
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

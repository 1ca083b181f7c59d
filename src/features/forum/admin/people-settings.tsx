import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isAppError, notFound } from '#src/core/errors.ts';
import { formOf, id, paramsOf, queryOf } from '#src/lib/form.ts';
import { adminMembersDeps, setModerator, staffOf } from '#src/features/members/index.ts';
import { ForumLog, ForumModerators, ForumOverview, ForumSettings } from '#src/features/forum/views/admin.tsx';
import { listActions } from '../actions-log.ts';
import { forumDeps, forumViewer } from '../deps.ts';
import { setAllPostsWait } from '../moderation.ts';
import { allPostsWaitOf, forumCounts, listModerators, moderatorCandidates } from '../staff.ts';
import { AfterQuery, searchTerm, staffOn, type ForumStaffKit } from './kit.tsx';

/** The settings form: the checkbox is 'on' or absent. */
const SettingsForm = z.object({ allPostsWait: z.literal('on').optional() });

/** A search as sent (checked by searchTerm); not a string, none. */
const search = z.string().optional().catch(undefined);
/** The moderators' page: a search for members to make moderators. */
const ModeratorsQuery = z.object({ q: search });
/** `/admin/forum/moderators/:userId` */
const ModeratorParams = z.object({ userId: id });
/** A member made a moderator or not, and the search to go back to. */
const ModeratorForm = z.object({ moderator: staffOn, q: search });

/** Staff's overview, moderators (the members area's flag), the forum's settings and its log. */
export function forumOverviewPages(app: FastifyInstance, { admin, noticeOf, page }: ForumStaffKit) {
  app.get('/admin/forum', admin, async (request, reply) =>
    page(request, reply, 'overview', async () => <ForumOverview counts={await forumCounts(forumDeps(request))} notice={noticeOf(request)} />),
  );
}

/** Staff's moderators (the members area's flag), the forum's settings and its log. */
export function forumPeopleSettingsPages(app: FastifyInstance, { admin, noticeOf, fieldsOf, page }: ForumStaffKit) {
  // ---- Moderators (the members area's flag: recorded in the member's staff history) ----

  app.get('/admin/forum/moderators', admin, async (request, reply) => {
    const raw = queryOf(ModeratorsQuery, request).q;
    let q: string | null = null;
    let errors: Record<string, string> = {};
    let status: number | undefined;
    try {
      q = searchTerm(raw);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      errors = fieldsOf(e);
      status = e.status;
    }
    return page(
      request,
      reply,
      'moderators',
      async () => {
        const deps = forumDeps(request);
        const [moderators, candidates] = await Promise.all([listModerators(deps), q ? moderatorCandidates(deps, q) : Promise.resolve(null)]);
        return <ForumModerators moderators={moderators} q={q ?? ''} candidates={candidates} notice={noticeOf(request)} errors={errors} />;
      },
      status,
    );
  });

  app.post('/admin/forum/moderators/:userId', admin, async (request, reply) => {
    const { userId } = paramsOf(ModeratorParams, request);
    const body = formOf(ModeratorForm, request);
    const on = body.moderator;
    if (!request.community.forum_enabled) throw notFound();
    const { id, code, name } = request.community;
    await setModerator(adminMembersDeps(request), staffOf(request), { id, code, name }, userId, on);
    let q: string | null = null;
    try {
      q = searchTerm(body.q);
    } catch {
      q = null;
    }
    return reply.redirectTo(`/admin/forum/moderators?${q ? `q=${encodeURIComponent(q)}&` : ''}done=${on ? 'moderatorOn' : 'moderatorOff'}`);
  });

  // ---- Settings ----

  app.get('/admin/forum/settings', admin, async (request, reply) =>
    page(request, reply, 'settings', async () => <ForumSettings allPostsWait={await allPostsWaitOf(forumDeps(request))} notice={noticeOf(request)} />),
  );

  app.post('/admin/forum/settings', admin, async (request, reply) => {
    const { allPostsWait } = formOf(SettingsForm, request);
    await setAllPostsWait(forumDeps(request), forumViewer(request), allPostsWait === 'on');
    // This process forgets its cached communities now; the others hear the change.
    app.communities.invalidate();
    return reply.redirectTo('/admin/forum/settings?done=settingsSaved');
  });

  // ---- Log ----

  app.get('/admin/forum/log', admin, async (request, reply) => {
    const { after } = queryOf(AfterQuery, request);
    return page(request, reply, 'log', async () => {
      const { actions, next } = await listActions(forumDeps(request), forumViewer(request), { after });
      return <ForumLog actions={actions} next={next} after={after} />;
    });
  });
}

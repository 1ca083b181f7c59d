import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { toCsv } from '#src/lib/csv.ts';
import { field, formOf, id, paramsOf, queryOf } from '#src/lib/form.ts';
import { MemberDetail, MembersTable, memberPath } from '#src/features/members/views/admin-members.tsx';
import { ACTIVE_STATES, MEMBER_SORTS, adminView, exportMembers, filterChoices, searchMembers, staffCommunity, type MemberSearch, type Staff, type StaffCommunity } from './admin.ts';
import { adminMembersDeps, staffOf } from './admin-request.ts';
import { addNote, listNotes, listStaffActions, sendPasswordReset, setActive, setGeneratedPassword, setModerator } from './admin-actions.ts';

// Until the forum imports these from the members face (src/features/members/index.ts): remove then.
export { adminMembersDeps, staffOf } from './admin-request.ts';

/** A free-text filter: trimmed and cut to its longest, or null when blank or not text. */
const text = (max: number) => z.unknown().optional().transform((v) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null));

/** The search's query string (the table, its next pages and the CSV export share it): anything unknown is its default. */
const memberSearchQuery = z.object({
  q: text(200),
  community: text(100),
  standing: text(200),
  tier: text(200),
  founding: z.unknown().optional().transform((v) => (v === 'yes' ? true : v === 'no' ? false : null)),
  active: z.enum(ACTIVE_STATES).catch('all'),
  sort: z.enum(MEMBER_SORTS).catch('name'),
  after: z.unknown().optional().transform((v) => (typeof v === 'string' ? v.slice(0, 1000) : null)),
});

/** The search from the query string. */
export function memberSearchOf(request: FastifyRequest): MemberSearch {
  return queryOf(memberSearchQuery, request);
}

/** A member's page: the community's code and the member's id; anything else names no member (NotFound). */
const MemberParams = z.object({ code: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), userId: id });
/** The notice after a redirect: anything else is none. */
const DoneQuery = z.object({ done: z.string().optional().catch(undefined) });
const ActiveForm = z.object({ active: field() });
const ModeratorForm = z.object({ moderator: field() });
const NoteForm = z.object({ body: field() });

const NOTICES = ['reset', 'activated', 'deactivated', 'moderatorOn', 'moderatorOff', 'note'] as const;

/** The staff's members area (ADMIN only): /admin/members and /admin/members/{communityCode}/{userId}. */
export default async function adminMembersRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const fieldErrors = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));

  app.get('/admin/members', admin, async (request, reply) => {
    const deps = adminMembersDeps(request);
    const staff = staffOf(request);
    let query = memberSearchOf(request);
    // A search holding a control character comes back with the message beside the field.
    let errors: Record<string, string> = {};
    const page = await searchMembers(deps, staff, query).catch((e: unknown) => {
      if (!isAppError(e) || !e.fields) throw e;
      errors = fieldErrors(e);
      query = { ...query, q: null, standing: null, tier: null, community: null, after: null };
      return searchMembers(deps, staff, query);
    });
    const choices = await filterChoices(deps, staff);
    return reply.page({
      title: t('adminMembers.title'),
      status: Object.keys(errors).length > 0 ? 400 : 200,
      body: <MembersTable rows={page.rows} total={page.total} next={page.next} query={query} choices={choices} errors={errors} />,
    });
  });

  app.get('/admin/members/export.csv', admin, async (request, reply) => {
    const query = { ...memberSearchOf(request), after: null };
    const { rows, truncated } = await exportMembers(adminMembersDeps(request), staffOf(request), query);
    const yesNo = (v: boolean) => (v ? t('adminMembers.yes') : t('adminMembers.no'));
    const csv = toCsv(
      ['name', 'email', 'community', 'communityCode', 'company', 'standing', 'tier', 'founding', 'joined', 'lastAccess', 'active'].map((c) => t(`adminMembers.csv.${c}`)),
      rows.map((r) => [r.name, r.email, r.communityName, r.communityCode, r.companyName, r.standing, r.membershipTier, yesNo(r.isFounding), r.joinedAt, r.lastAccessedAt, yesNo(r.isActive)]),
    );
    const filename = `members-${app.clock.now().toISOString().slice(0, 10)}.csv`;
    if (truncated) reply.header('x-export-truncated', 'true');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  /** The community (one the admin administers) and the member id of the path, or NotFound. */
  async function target(request: FastifyRequest): Promise<{ community: StaffCommunity; userId: number; staff: Staff }> {
    const params = paramsOf(MemberParams, request);
    const userId = params.userId;
    const staff = staffOf(request);
    const community = await staffCommunity(adminMembersDeps(request), staff, params.code);
    return { community, userId, staff };
  }

  async function detail(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { notice?: string; password?: string; errors?: Record<string, string>; noteValue?: string; status?: number } = {},
  ) {
    const { community, userId, staff } = await target(request);
    const deps = adminMembersDeps(request);
    const member = await adminView(deps, community, userId);
    const [notes, history] = await Promise.all([listNotes(deps, community, userId), listStaffActions(deps, community, userId)]);
    // A shown password must not be kept by any cache.
    if (extra.password) reply.header('cache-control', 'no-store');
    return reply.page({
      title: t('adminMembers.detail.title', { name: member.name }),
      status: extra.status,
      body: <MemberDetail member={member} notes={notes} history={history} isSelf={userId === staff.userId} {...extra} />,
    });
  }

  const noticeText = (done: string, name: string, email: string): string | undefined => {
    switch (done) {
      case 'reset':
        return t('adminMembers.actions.resetSent', { email });
      case 'activated':
        return t('adminMembers.actions.activated', { name });
      case 'deactivated':
        return t('adminMembers.actions.deactivated', { name });
      case 'moderatorOn':
        return t('adminMembers.actions.moderatorOn', { name });
      case 'moderatorOff':
        return t('adminMembers.actions.moderatorOff', { name });
      case 'note':
        return t('adminMembers.notes.added');
      default:
        return undefined;
    }
  };

  app.get('/admin/members/:code/:userId', admin, async (request, reply) => {
    const { done } = queryOf(DoneQuery, request);
    if (typeof done === 'string' && (NOTICES as readonly string[]).includes(done)) {
      const { community, userId } = await target(request);
      const member = await adminView(adminMembersDeps(request), community, userId);
      return detail(request, reply, { notice: noticeText(done, member.name, member.email) });
    }
    return detail(request, reply);
  });

  const back = (c: StaffCommunity, userId: number, done: string, anchor = '') => `${memberPath(c.code, userId)}?done=${done}${anchor}`;

  app.post('/admin/members/:code/:userId/password-reset', admin, async (request, reply) => {
    const { community, userId, staff } = await target(request);
    await sendPasswordReset(adminMembersDeps(request), staff, community, userId);
    return reply.redirectTo(back(community, userId, 'reset'));
  });

  // The generated password is in this answer only (no redirect: nothing keeps it after the page).
  app.post('/admin/members/:code/:userId/password', admin, async (request, reply) => {
    const { community, userId, staff } = await target(request);
    let password: string;
    try {
      password = await setGeneratedPassword(adminMembersDeps(request), staff, community, userId);
    } catch (e) {
      if (!isAppError(e) || !e.fields?.password) throw e;
      return detail(request, reply, { errors: { form: t(e.fields.password.key) }, status: e.status });
    }
    return detail(request, reply, { password });
  });

  app.post('/admin/members/:code/:userId/active', admin, async (request, reply) => {
    const { community, userId, staff } = await target(request);
    const active = formOf(ActiveForm, request).active === 'true';
    try {
      await setActive(adminMembersDeps(request), staff, community, userId, active);
    } catch (e) {
      if (!isAppError(e) || !e.fields?.active) throw e;
      return detail(request, reply, { errors: { form: t(e.fields.active.key) }, status: e.status });
    }
    return reply.redirectTo(back(community, userId, active ? 'activated' : 'deactivated'));
  });

  app.post('/admin/members/:code/:userId/moderator', admin, async (request, reply) => {
    const { community, userId, staff } = await target(request);
    const on = formOf(ModeratorForm, request).moderator === 'true';
    await setModerator(adminMembersDeps(request), staff, community, userId, on);
    return reply.redirectTo(back(community, userId, on ? 'moderatorOn' : 'moderatorOff'));
  });

  app.post('/admin/members/:code/:userId/notes', admin, async (request, reply) => {
    const { community, userId, staff } = await target(request);
    const body = formOf(NoteForm, request);
    try {
      await addNote(adminMembersDeps(request), staff, community, userId, { body: body.body });
    } catch (e) {
      if (!isAppError(e) || !e.fields?.body) throw e;
      return detail(request, reply, { errors: fieldErrors(e), noteValue: body.body, status: e.status });
    }
    return reply.redirectTo(back(community, userId, 'note', '#notes'));
  });
}

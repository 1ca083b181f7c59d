import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isAppError } from '#src/core/errors.ts';
import { staffAction, type StaffActionForm } from '#src/lib/admin/act.ts';
import { field, formOf, queryOf } from '#src/lib/form.ts';
import { StaffBadgesPage } from '#src/features/badges/views/StaffBadges.tsx';
import { badgeDeps } from './deps.ts';
import { awardStaffBadge, revokeStaffBadge, searchTermOf, staffBadgesData } from './staff.ts';

const PATH = '/admin/marketplace/badges';
const DONE = ['awarded', 'revoked'] as const;
type Done = (typeof DONE)[number];

/** The tab's query: a member search, the log's page, a member picked for the award form, a notice. */
const TabQuery = z.object({ q: z.string().optional(), after: z.string().max(20).optional(), member: z.string().max(20).optional(), done: z.string().max(20).optional() });
/** An award or a revocation: the member (id or email), the staff badge, an optional reason. */
const BadgeForm = z.object({ member: field(400), badge: field(60), reason: field(4000) });

/**
 * The staff's badges tab of the marketplace (ADMIN only): GET shows it; POST award and revoke act,
 * then come back with a notice (303), or re-render the page with the messages beside the fields and
 * what was typed. The marketplace's other tabs are served by their own areas.
 */
export default async function badgeAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const act = staffAction<Done>(t, ['Badges.AlreadyHeld', 'Badges.NotHeld']);

  async function render(request: FastifyRequest, reply: FastifyReply, options: { form?: StaffActionForm; status?: number } = {}) {
    request.guardian.ensureAdmin();
    const query = queryOf(TabQuery, request);
    let q: string | null = null;
    let form = options.form;
    let status = options.status;
    try {
      q = searchTermOf(query.q);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      form ??= { key: 'find', values: { q: String(query.q ?? '') }, errors: Object.fromEntries(Object.entries(e.fields).map(([f, v]) => [f, t(v.key, v.values)])) };
      status ??= e.status;
    }
    const data = await staffBadgesData(badgeDeps(request), { q, after: query.after ?? null });
    const notice = (DONE as readonly string[]).includes(query.done ?? '') ? t(`badges.staff.done.${query.done}`) : undefined;
    const member = query.member && /^\d{1,10}$/.test(query.member) ? query.member : undefined;
    return reply.page({ title: t('badges.staff.title'), body: <StaffBadgesPage data={data} notice={notice} form={form} member={member} />, status });
  }

  app.get(PATH, admin, async (request, reply) => render(request, reply));

  app.post(`${PATH}/award`, admin, async (request, reply) => {
    const input = formOf(BadgeForm, request);
    return act(request, reply, async () => {
      await awardStaffBadge(badgeDeps(request), { userId: request.guardian.userId! }, input);
      return { done: 'awarded', path: PATH };
    }, { key: 'award', values: input, render: (form, status) => render(request, reply, { form, status }) });
  });

  app.post(`${PATH}/revoke`, admin, async (request, reply) => {
    const input = formOf(BadgeForm, request);
    return act(request, reply, async () => {
      await revokeStaffBadge(badgeDeps(request), { userId: request.guardian.userId! }, input);
      return { done: 'revoked', path: PATH };
    }, { key: `revoke-${input.member.trim()}-${input.badge}`, values: input, render: (form, status) => render(request, reply, { form, status }) });
  });
}

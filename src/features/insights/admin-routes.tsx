import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { staffCommunities } from '#src/features/members/index.ts';
import { field, queryOf } from '#src/lib/form.ts';
import { StaffHome } from '#src/features/insights/views/StaffHome.tsx';
import { dayString } from './calendar.ts';
import { insightsDeps } from './deps.ts';
import { parseRange } from './range.ts';
import { staffFigures } from './series.ts';
import type { InsightBrand, StaffHomeView } from './types.ts';

const HomeQuery = z.object({ range: field(20), from: field(40), to: field(40), community: field(60) });

/** The code of the network staff's own community (spec section 2: its admins land on the sites page). */
const NETWORK_CODE = 'admin';

/**
 * The staff home, `/admin` (ADMIN only; the Guardian sends others to sign-in with a way back): the
 * admin areas, then the community's insights for a period, read from the roll-up only (four
 * statements with the session's, whatever the events' volume). Staff of several brands pick one; the
 * network staff's own community (code `admin`) lands on the sites page unless a brand is asked for.
 */
export default async function insightsAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  app.get('/admin', { config: { access: 'admin' } }, async (request, reply) => {
    const query = queryOf(HomeQuery, request);
    const asked = query.community.trim().toLowerCase();
    if (request.community.code === NETWORK_CODE && !asked) return reply.redirectTo('/admin/sites', 302);
    request.guardian.ensureAdmin();
    const administered = await staffCommunities({ db: app.db }, { userId: request.guardian.userId! });
    const brands: (InsightBrand & { id: number })[] = administered.filter((c) => c.code !== NETWORK_CODE);
    const here = { id: request.community.id, code: request.community.code, name: request.community.name };
    let brand = here;
    if (asked && asked !== here.code.toLowerCase()) {
      // Another brand: only one this admin administers (any other is the same 404 as one that is not there).
      const found = brands.find((b) => b.code.toLowerCase() === asked);
      if (!found) throw new AppError('NotFound');
      brand = found;
    }
    if (brand.code === NETWORK_CODE) return reply.redirectTo('/admin/sites', 302);
    const today = dayString(app.clock.now());
    const range = parseRange(query, today);
    const figures = await staffFigures(insightsDeps(request, { id: brand.id }), range, today);
    const errors = Object.fromEntries(Object.entries(range.errors).flatMap(([k, v]) => (v ? [[k, t(v)]] : [])));
    const view: StaffHomeView = {
      brand: { code: brand.code, name: brand.name },
      brands: brands.map((b) => ({ code: b.code, name: b.name })),
      form: { ...range.form, community: asked ? brand.code : '' },
      errors,
      ...figures,
    };
    return reply.page({ title: t('admin.home.title'), body: <StaffHome view={view} />, status: Object.keys(errors).length ? 400 : 200 });
  });
}

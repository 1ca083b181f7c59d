import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkbox, field, formOf, paramsOf, queryOf } from '#src/lib/form.ts';
import { AppError, isAppError } from '#src/core/errors.ts';
import { DashboardsPage, SiteFormPage, SitesList, type Contrast } from '#src/features/communities/views/sites.tsx';
import { createSite, dashboardLinks, getSite, listSites, updateSite, type SiteActor, type SiteDeps } from './admin.ts';
import { blankSiteForm, COLOR_PATTERN, CONTRAST_MIN, contrastWithWhite, NAV_BLANK_ROWS, NAV_MAX, SITE_TEXT_FIELDS, siteFormFromBody, siteFormOf, type SiteForm, type SiteTextField } from './site-form.ts';
import { isPlatformStaff } from './site-staff.ts';

export function siteDeps(request: FastifyRequest): SiteDeps {
  return { db: request.server.db, publicHost: new URL(request.server.config.publicUrl).hostname.toLowerCase() };
}

export function siteActor(request: FastifyRequest): SiteActor {
  const user = request.identity.user;
  if (!user) throw new AppError('NotAuthenticated');
  return { userId: user.id };
}

const contrastOf = (value: string): Contrast => {
  const v = value.trim();
  if (!COLOR_PATTERN.test(v)) return null;
  const ratio = contrastWithWhite(v);
  return { ratio: ratio.toFixed(2), ok: ratio >= CONTRAST_MIN };
};

/**
 * The site form (urlencoded, or JSON): its text fields and the navMore rows (`nav.<i>.label`,
 * `nav.<i>.link`) as typed, '' when absent, and the forum's box; the service checks every value and
 * names the field. Any other field must be text too (the CSRF token).
 */
const SiteFormBody = z
  .object({
    ...(Object.fromEntries(SITE_TEXT_FIELDS.map((f) => [f, field()])) as Record<SiteTextField, ReturnType<typeof field>>),
    forumEnabled: z.union([z.boolean(), checkbox]),
  })
  .catchall(field());
/** A site's code in the path: the service finds it or answers NotFound. */
const SiteParams = z.object({ code: z.string().max(100) });
/** The notice after a redirect: anything else is none. */
const DoneQuery = z.object({ done: z.string().optional().catch(undefined) });

/** The filled navMore rows and a few blank ones, so a row can be added without JavaScript. */
const navRowsOf = (form: SiteForm) => Math.max(form.nav.length, Math.min(form.nav.length + NAV_BLANK_ROWS, NAV_MAX));

/** Sites (brands as data) and the per-brand admin dashboards page (spec section 2; ADMIN only). */
export default async function siteAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const notices: Record<string, string> = { saved: 'sites.saved', created: 'sites.created', unchanged: 'sites.unchanged' };
  const noticeOf = (request: FastifyRequest) => {
    const { done } = queryOf(DoneQuery, request);
    return done && Object.hasOwn(notices, done) ? t(notices[done]!) : undefined;
  };

  function formPage(reply: FastifyReply, props: { mode: 'new' | 'edit'; form: SiteForm; errors?: Record<string, string>; notice?: string; name?: string; status?: number }) {
    const errors = props.errors ?? {};
    const title = props.mode === 'new' ? t('sites.new.title') : t('sites.edit.title', { name: props.name ?? props.form.name });
    return reply.page({
      title,
      status: props.status,
      body: (
        <SiteFormPage
          mode={props.mode}
          form={props.form}
          errors={errors}
          notice={props.notice}
          name={props.name}
          navRows={navRowsOf(props.form)}
          contrast={{ colorPrimary: contrastOf(props.form.colorPrimary), colorAccent: contrastOf(props.form.colorAccent) }}
        />
      ),
    });
  }

  const fieldErrors = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));

  app.get('/admin/sites', admin, async (request, reply) => {
    const [sites, canCreate] = await Promise.all([listSites(siteDeps(request), siteActor(request)), isPlatformStaff(app.db, siteActor(request).userId)]);
    return reply.page({ title: t('sites.title'), body: <SitesList sites={sites} canCreate={canCreate} notice={noticeOf(request)} /> });
  });

  // Only platform staff (admins of the `admin` community) create sites.
  app.get('/admin/sites/new', admin, async (request, reply) => {
    if (!(await isPlatformStaff(app.db, siteActor(request).userId))) throw new AppError('Forbidden');
    return formPage(reply, { mode: 'new', form: blankSiteForm() });
  });

  app.post('/admin/sites/new', admin, async (request, reply) => {
    const form = siteFormFromBody(formOf(SiteFormBody, request));
    try {
      const created = await createSite(siteDeps(request), siteActor(request), form);
      // This process forgets its cached communities now; the others hear the NOTIFY.
      app.communities.invalidate();
      return reply.redirectTo(`/admin/sites/${created.code}?done=created`);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      return formPage(reply, { mode: 'new', form, errors: fieldErrors(e), status: e.status });
    }
  });

  app.get('/admin/sites/:code', admin, async (request, reply) => {
    const { code } = paramsOf(SiteParams, request);
    const { community, hosts } = await getSite(siteDeps(request), siteActor(request), code);
    return formPage(reply, { mode: 'edit', form: siteFormOf(community, hosts), name: community.name, notice: noticeOf(request) });
  });

  app.post('/admin/sites/:code', admin, async (request, reply) => {
    const { code } = paramsOf(SiteParams, request);
    const deps = siteDeps(request);
    const actor = siteActor(request);
    const form = siteFormFromBody(formOf(SiteFormBody, request));
    try {
      const { changed } = await updateSite(deps, actor, code, form);
      if (changed.length) app.communities.invalidate();
      return reply.redirectTo(`/admin/sites/${code}?done=${changed.length ? 'saved' : 'unchanged'}`);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      const { community } = await getSite(deps, actor, code);
      return formPage(reply, { mode: 'edit', form: { ...form, code: community.code }, name: community.name, errors: fieldErrors(e), status: e.status });
    }
  });

  app.get('/admin/dashboards', admin, async (request, reply) => {
    const sites = await listSites(siteDeps(request), siteActor(request));
    // The scheme and port this admin reached us on (summit.localhost:3000 locally, https in production).
    const port = request.port && !((request.protocol === 'https' && request.port === 443) || (request.protocol === 'http' && request.port === 80)) ? String(request.port) : null;
    const links = dashboardLinks(sites, { protocol: request.protocol, port, basePath: app.config.basePath });
    return reply.page({ title: t('sites.dashboards.title'), body: <DashboardsPage links={links} /> });
  });
}

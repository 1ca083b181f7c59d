import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { checkbox, field, formOf, idParams, paramsOf, queryOf } from '#src/lib/form.ts';
import { acceptUploads, uploadTooLarge } from '#src/lib/uploads.ts';
import { AdEditPage, AdsAdminPage } from '#src/features/ads/views/admin.tsx';
import { AD_LIMITS, AD_MAX_BYTES, AD_SIZES, createAd, listStaffAds, staffAd, updateAd, type AdDeps } from './admin.ts';
import type { AdDraft } from './types.ts';

/** The form's fields: shapes only (the service applies the rules and names the field it refuses). */
const adForm = z.object({
  shape: field(40),
  link: field(4 * AD_LIMITS.link),
  altText: field(4 * AD_LIMITS.altText),
  startsAt: field(100),
  endsAt: field(100),
  isActive: checkbox,
  image: z.instanceof(Buffer).optional(),
  _csrf: field(200),
});

const doneQuery = z.object({ done: z.enum(['created', 'saved']).optional() }).passthrough();

export const adDeps = (request: FastifyRequest): AdDeps => ({ db: request.server.db, clock: request.server.clock, community: request.community });

/** A datetime-local's value (UTC, to the minute) for a stored time. */
const local = (d: Date | null) => (d ? d.toISOString().slice(0, 16) : '');

/** The staff's ads tab of the marketplace (issue 27): /admin/marketplace/ads and one ad's page. */
export default async function adAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const upload = { config: { access: 'admin' as const, rateLimit: { max: 30, timeWindow: '1 minute' } } };
  await acceptUploads(app, { maxBytes: AD_MAX_BYTES });

  const messages = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));
  const tooLarge = () => ({ image: t('ads.form.errors.imageTooLarge', { mb: AD_MAX_BYTES / 1024 / 1024 }) });
  const draftOf = (body: z.infer<typeof adForm>): AdDraft => ({ shape: body.shape, link: body.link, altText: body.altText, startsAt: body.startsAt, endsAt: body.endsAt, isActive: body.isActive });
  const blank: AdDraft = { shape: 'MASTHEAD', link: '', altText: '', startsAt: '', endsAt: '', isActive: true };

  async function listPage(request: FastifyRequest, reply: FastifyReply, props: { draft?: AdDraft; errors?: Record<string, string>; status?: number } = {}) {
    const { done } = queryOf(doneQuery, request);
    const ads = await listStaffAds(adDeps(request));
    return reply.page({
      title: t('ads.admin.title'),
      status: props.status,
      body: <AdsAdminPage ads={ads} draft={props.draft ?? blank} errors={props.errors ?? {}} sizes={AD_SIZES} maxMb={AD_MAX_BYTES / 1024 / 1024} />,
    });
  }

  async function editPage(request: FastifyRequest, reply: FastifyReply, id: number, props: { draft?: AdDraft; errors?: Record<string, string>; status?: number } = {}) {
    const { done } = queryOf(doneQuery, request);
    const { ad, days } = await staffAd(adDeps(request), id);
    const draft = props.draft ?? { shape: ad.shape, link: ad.link, altText: ad.altText, startsAt: local(ad.startsAt), endsAt: local(ad.endsAt), isActive: ad.isActive };
    return reply.page({
      title: t('ads.edit.title', { id: ad.id }),
      status: props.status,
      body: <AdEditPage ad={ad} days={days} draft={draft} errors={props.errors ?? {}} sizes={AD_SIZES} maxMb={AD_MAX_BYTES / 1024 / 1024} notice={done === 'saved' ? t('ads.admin.saved') : done === 'created' ? t('ads.admin.created') : undefined} />,
    });
  }

  app.get('/admin/marketplace/ads', admin, async (request, reply) => listPage(request, reply));

  app.post('/admin/marketplace/ads', upload, async (request, reply) => {
    const body = formOf(adForm, request);
    const draft = draftOf(body);
    // Nothing typed is lost: a refused form comes back with every value and a message beside each field.
    if (uploadTooLarge(request)) return listPage(request, reply, { draft, errors: tooLarge(), status: 413 });
    try {
      const id = await createAd(adDeps(request), draft, body.image);
      return reply.redirectTo(`/admin/marketplace/ads/${id}?done=created`);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      return listPage(request, reply, { draft, errors: messages(e), status: e.status });
    }
  });

  app.get('/admin/marketplace/ads/:id', admin, async (request, reply) => {
    const { id } = paramsOf(idParams, request, () => new AppError('Ads.NotFound'));
    return editPage(request, reply, id);
  });

  app.post('/admin/marketplace/ads/:id', upload, async (request, reply) => {
    const { id } = paramsOf(idParams, request, () => new AppError('Ads.NotFound'));
    const body = formOf(adForm, request);
    const draft = draftOf(body);
    if (uploadTooLarge(request)) return editPage(request, reply, id, { draft, errors: tooLarge(), status: 413 });
    try {
      await updateAd(adDeps(request), id, draft, body.image);
      return reply.redirectTo(`/admin/marketplace/ads/${id}?done=saved`);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      return editPage(request, reply, id, { draft, errors: messages(e), status: e.status });
    }
  });
}

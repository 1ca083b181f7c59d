import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { idParams, paramsOf } from '#src/lib/form.ts';
import { IMAGE_KEY, findAd, readAdImage } from './admin.ts';
import { adCounterFor } from './counter.ts';
import { listLiveAds } from './service.ts';

const imageParams = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{24}\.webp$/) });

/**
 * What members' pages link to: an ad's click (counted in memory, then a redirect to the ad's stored
 * link and nowhere else) and its uploaded art. Both public: an API client opens the click address in
 * a browser that has no session, and the art is an advertisement, not a member's data. Each answers
 * only for the community of the host: another community's ad is a 404.
 */
export default async function adRoutes(app: FastifyInstance) {
  // The tally of this process is written when the app closes (and every FLUSH_MS before).
  app.addHook('onClose', async () => adCounterFor(app.db, app.clock).close());

  app.get('/ads/:id/click', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const { id } = paramsOf(idParams, request, () => new AppError('Ads.NotFound'));
    // Most clicks are on a live ad, which this process holds: no statement for them.
    const live = (await listLiveAds(app.db, request.community, app.clock)).find((ad) => ad.id === id);
    // Else the database (this process's list may be up to 30 s old). An ad that ended since the page
    // showed it still leads to its link; one switched off or not started yet does not give it out.
    const ad = live ?? (await findAd({ db: app.db, community: request.community }, id));
    if (!live && (!ad.is_active || (ad.starts_at !== null && new Date(ad.starts_at) > app.clock.now()))) throw new AppError('Ads.NotFound');
    adCounterFor(app.db, app.clock).click(request.community.id, ad.id);
    // Only the link stored with the ad (checked http(s) when it was saved): never one from the request.
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'origin').redirect(ad.link, 302);
  });

  // A page shows two ads: their art has its own, larger limit per address, never using up the pages'.
  const imageLimit = { max: 10 * app.config.rateLimitMax, timeWindow: '1 minute' };
  app.get('/ads/images/:file', { config: { access: 'public', allowDuringOnboarding: true, rateLimit: imageLimit } }, async (request, reply) => {
    const { file } = paramsOf(imageParams, request);
    const key = file.slice(0, -'.webp'.length);
    if (!IMAGE_KEY.test(key)) throw new AppError('NotFound');
    const image = await readAdImage(app.db, request.community, key);
    if (!image) throw new AppError('NotFound');
    // A key is never reused: new art gets a new key, so stored bytes never change.
    return reply.header('content-type', image.content_type).header('cache-control', 'public, max-age=31536000, immutable').send(image.bytes);
  });
}

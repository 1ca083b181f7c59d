import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { field, paramsOf, queryOf } from '#src/lib/form.ts';
import { ExecPage } from '#src/features/offers/views/ExecPage.tsx';
import { OfferPage } from '#src/features/offers/views/OfferPage.tsx';
import { OffersList } from '#src/features/offers/views/OffersList.tsx';
import { offersDeps, offersViewer } from './deps.ts';
import { execOffers, getOffer, listOffers, offerIdOf, redeemOffer } from './offers.ts';
import { readPartnerLogo } from './partners.ts';
import { OFFER_CATEGORIES } from './types.ts';

const ListQuery = z.object({ category: field(100), q: field(1000), after: field(200) });
const OfferParams = z.object({ offerId: z.string().max(40) });
const LogoParams = z.object({ file: z.string().max(100) });

/**
 * The member's offers pages (issue 27): `/offers`, `/offers/exec`, `/offers/{offerId}` and the
 * redeem POST (a plain form: a 303 back to the offer, which then shows the code or the concierge's
 * answer; a link offer goes out to the partner). No island, no script: light on the wire.
 */
export default async function offersRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };
  const notFound = () => new AppError('Offers.NotFound');

  app.get('/offers', member, async (request, reply) => {
    const query = queryOf(ListQuery, request);
    const deps = offersDeps(request);
    const viewer = offersViewer(request);
    try {
      const page = await listOffers(deps, viewer, query);
      return reply.page({ title: t('offers.list.title'), body: <OffersList page={page} categories={OFFER_CATEGORIES} /> });
    } catch (e) {
      // A search that cannot be used is shown beside the field, as typed, and the list shown without it.
      if (!isAppError(e) || !e.fields?.q) throw e;
      const page = await listOffers(deps, viewer, { category: query.category });
      return reply.page({ title: t('offers.list.title'), status: 400, body: <OffersList page={page} categories={OFFER_CATEGORIES} searchError={t(e.fields.q.key)} searchTyped={query.q} /> });
    }
  });

  app.get('/offers/exec', member, async (request, reply) => {
    const query = queryOf(ListQuery, request);
    const view = await execOffers(offersDeps(request), offersViewer(request), query);
    return reply.page({ title: t('offers.exec.title'), body: <ExecPage view={view} categories={OFFER_CATEGORIES} /> });
  });

  const offerPage = async (request: FastifyRequest, reply: FastifyReply, id: number, error?: { message: string; status: number }) => {
    const offer = await getOffer(offersDeps(request), offersViewer(request), id);
    return reply.page({ title: offer.title, status: error?.status, body: <OfferPage offer={offer} error={error?.message} /> });
  };

  app.get('/offers/:offerId', member, async (request, reply) => {
    const { offerId } = paramsOf(OfferParams, request, notFound);
    return offerPage(request, reply, offerIdOf(offerId));
  });

  app.post('/offers/:offerId/redeem', member, async (request, reply) => {
    const id = offerIdOf(paramsOf(OfferParams, request, notFound).offerId);
    try {
      const offer = await redeemOffer(offersDeps(request), offersViewer(request), id);
      if (offer.redeem?.kind === 'link') return reply.redirect(offer.redeem.link, 303);
      return reply.redirectTo(`/offers/${id}#redeem`);
    } catch (e) {
      // Not running now, or reserved for EXEC: the offer's page says so.
      if (isAppError(e) && (e.code === 'Offers.NotAvailable' || e.code === 'Offers.ExecOnly')) return offerPage(request, reply, id, { message: t(e.key), status: e.status });
      throw e;
    }
  });

  // Uploaded partner logos: a key is never reused, so a stored logo never changes.
  app.get('/offers/logos/:file', member, async (request, reply) => {
    const { file } = paramsOf(LogoParams, request, notFound);
    const key = /^([A-Za-z0-9_-]{16,64})\.webp$/.exec(file)?.[1];
    if (!key) throw notFound();
    const logo = await readPartnerLogo(offersDeps(request), key);
    if (!logo) throw notFound();
    return reply.header('content-type', logo.content_type).header('cache-control', 'private, max-age=31536000, immutable').send(logo.bytes);
  });
}

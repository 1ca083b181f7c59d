import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { formOf, id, idParams, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';
import { parseId } from '#src/core/ids.ts';
import { AmplifyNotPublished, AmplifyPage } from '#src/features/payments/views/payments/Amplify.tsx';
import { CardForm } from '#src/features/payments/views/payments/CardForm.tsx';
import { buyAmplification, findActivePackage, findOwnPublishedArticle, isAmplifyKey, loadAmplify, type AmplificationPackage } from './amplify.ts';
import { cardErrorMessage, hostedPageAddress, newIdempotencyKey, readHostedReturn } from './checkout.ts';
import type { PaymentSource } from './ledger.ts';
import { cardFormLogos } from './cards.ts';
import { formatMoney } from './money.ts';
import { loadPaymentSite } from './queries.ts';
import { amplifyPageModel } from './view-models.ts';

const appOf = (request: FastifyRequest) => request.server;

/** The article id of the address: a positive id, else 404 (hostile ids never reach a query). */
const articleIdOf = (request: FastifyRequest): number => paramsOf(idParams, request).id;

/** The page with a package chosen (`?package=<id>`): anything but an id is the unknown package's message. */
const AmplifyQuery = z.object({ package: z.string().optional().catch('') });

/**
 * The purchase form: the package (not an id: the unknown package's message), the form's key, and the
 * card: a saved one (its id) or the provider's token (none: the hosted page). A misfit is code 900,
 * the catalogue's answer for input that cannot be used (spec section 8), as every payments form answers.
 */
const AmplifyForm = z.object({
  packageId: optionalId.catch(null),
  idempotencyKey: z.string().optional(),
  savedPaymentId: id.optional(),
  token: z.string().optional(),
});
const amplifyFormOf = (request: FastifyRequest) => {
  try {
    return formOf(AmplifyForm, request);
  } catch (e) {
    if (isAppError(e) && e.code === 'BadRequest.Validation') throw new AppError(900);
    throw e;
  }
};

type PageState = {
  selected?: AmplificationPackage | null;
  packageError?: string | null;
  cardError?: { message: string; form: 'saved' | 'new' } | null;
  status?: number;
  /** After a processing failure the form that failed keeps its key: the retry asks about the same charge. */
  keepKey?: { form: 'saved' | 'new'; key: string } | null;
};

/**
 * Amplification (/articles/amplify/{id}, spec section 2): the page, its payment POST (the default card,
 * or a new card's token from the card form), and the provider's hosted-page return
 * (/articles/amplify/{id}/return) for a new card entered without JavaScript. All of them call the one
 * service, buyAmplification; success is a 303 back to the page with an alert, and the page lists what
 * was bought; a refused card is the page again (400) with the message in the form and the package kept.
 */
export default async function amplifyRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  async function render(request: FastifyRequest, reply: FastifyReply, articleId: number, state: PageState = {}) {
    let view;
    try {
      view = await loadAmplify(appOf(request), request.community, request.guardian.userId!, articleId);
    } catch (e) {
      if (isAppError(e) && e.code === 'Amplify.NotPublished') return reply.page({ title: t('amplify.notPublished.heading'), body: <AmplifyNotPublished />, status: e.status });
      throw e;
    }
    const keys = { saved: newIdempotencyKey(), new: newIdempotencyKey() };
    if (state.keepKey) keys[state.keepKey.form] = state.keepKey.key;
    // A choice that is no longer offered is no choice: the list again.
    const selected = state.selected ? (view.packages.find((p) => p.id === state.selected!.id) ?? null) : null;
    const user = request.identity.user;
    const newCardForm = selected ? (
      <CardForm
        action={`${app.config.basePath}/articles/amplify/${articleId}`}
        idempotencyKey={keys.new}
        processor={app.cardProcessor.browserSettings(view.site)}
        logos={cardFormLogos(view.site.acceptedCards)}
        submitLabel={t('amplify.payment.newCardSubmit', { price: formatMoney(selected.priceCents, selected.currency) })}
        hidden={{ packageId: String(selected.id) }}
        cardError={state.cardError?.form === 'new' ? state.cardError.message : null}
        log={{ userId: user?.id, email: user?.email, value: formatMoney(selected.priceCents, selected.currency) }}
      />
    ) : null;
    return reply.page({
      title: t('amplify.title'),
      status: state.status ?? 200,
      body: <AmplifyPage {...amplifyPageModel(view, selected)} packageError={state.packageError ?? null} cardError={state.cardError ?? null} keys={keys} newCardForm={newCardForm} />,
    });
  }

  async function buy(request: FastifyRequest, reply: FastifyReply, articleId: number, packageId: number, idempotencyKey: string, source: PaymentSource, form: 'saved' | 'new') {
    const result = await buyAmplification(appOf(request), { community: request.community, userId: request.guardian.userId!, actorId: request.guardian.userId!, articleId, packageId, idempotencyKey, source });
    if (result.status === 'succeeded') return reply.redirectTo(withAlert(`/articles/amplify/${articleId}`, 'amplify-purchased'));
    // A refusal gets a new key (the next card is another payment); a processing failure keeps this one.
    const keepKey = result.status === 'failed' && result.code === 'processing' ? { form, key: idempotencyKey } : null;
    return render(request, reply, articleId, { selected: result.package, cardError: { message: cardErrorMessage(t, result.code, 'member'), form }, status: result.status === 'failed' ? 502 : 400, keepKey });
  }

  app.get('/articles/amplify/:id', member, async (request, reply) => {
    const articleId = articleIdOf(request);
    const chosen = queryOf(AmplifyQuery, request).package;
    if (chosen === undefined) return render(request, reply, articleId);
    const packageId = parseId(chosen);
    try {
      const selected = packageId === null ? null : await findActivePackage(app.db, request.community, packageId);
      if (!selected) throw new AppError('Amplify.UnknownPackage');
      return render(request, reply, articleId, { selected });
    } catch (e) {
      if (!isAppError(e) || e.code !== 'Amplify.UnknownPackage') throw e;
      return render(request, reply, articleId, { packageError: t('amplify.errors.unknownPackage'), status: 400 });
    }
  });

  app.post('/articles/amplify/:id', member, async (request, reply) => {
    const articleId = articleIdOf(request);
    const body = amplifyFormOf(request);
    const packageId = body.packageId;
    if (packageId === null) return render(request, reply, articleId, { packageError: t('amplify.errors.unknownPackage'), status: 400 });
    const key = body.idempotencyKey ?? '';
    const savedPaymentId = body.savedPaymentId ?? null;
    const token = body.token ?? '';
    try {
      if (savedPaymentId !== null) return await buy(request, reply, articleId, packageId, key, { savedPaymentId }, 'saved');
      if (token) {
        if (token.length > 200 || !/^[\x21-\x7e]+$/.test(token)) throw new AppError(900);
        return await buy(request, reply, articleId, packageId, key, { token }, 'new');
      }
      // No card and no token: the new card without JavaScript (or the island's card that needs the
      // 3-D-Secure-style step). Checked first, then off to the provider's page, which returns below.
      if (!isAmplifyKey(key)) throw new AppError(900);
      const site = await loadPaymentSite(app.db, request.community);
      if (!site) throw new AppError('Payments.NotConfigured');
      await findOwnPublishedArticle(app.db, request.community, request.guardian.userId!, articleId);
      await findActivePackage(app.db, request.community, packageId);
      const returnPath = `/articles/amplify/${articleId}/return`;
      return reply.redirect(
        hostedPageAddress(app, request, site, { communityId: request.community.id, purpose: 'amplify', idempotencyKey: key, returnPath, data: { articleId: String(articleId), packageId: String(packageId) } }),
        303,
      );
    } catch (e) {
      if (isAppError(e) && e.code === 'Amplify.UnknownPackage') return render(request, reply, articleId, { packageError: t('amplify.errors.unknownPackage'), status: 400 });
      throw e;
    }
  });

  /** The provider's hosted page (JavaScript off) comes back here with the card's token: the same purchase as the POST. */
  app.get('/articles/amplify/:id/return', member, async (request, reply) => {
    const articleId = articleIdOf(request);
    const back = readHostedReturn(app, request);
    if (!back || back.state.purpose !== 'amplify' || back.state.data.articleId !== String(articleId)) throw new AppError(900);
    const packageId = parseId(back.state.data.packageId);
    if (packageId === null) throw new AppError(900);
    try {
      return await buy(request, reply, articleId, packageId, back.state.idempotencyKey, { token: back.token }, 'new');
    } catch (e) {
      if (isAppError(e) && e.code === 'Amplify.UnknownPackage') return render(request, reply, articleId, { packageError: t('amplify.errors.unknownPackage'), status: 400 });
      throw e;
    }
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { formOf, id, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';
import { wantsJson, isHtmx } from '#src/lib/negotiation.ts';
import { adminView, staffCommunity, type StaffCommunity } from '#src/features/members/index.ts';
import { hostedPageAddress, newIdempotencyKey, readHostedReturn } from '../checkout.ts';
import { cardFormLogos } from '../cards.ts';
import { loadPaymentSite } from '../queries.ts';
import { CardForm } from '#src/features/payments/views/payments/CardForm.tsx';
import { SavedCardsPage, savedCardsPath } from '#src/features/payments/views/payments/SavedCards.tsx';
import { AuthLogTable } from '#src/features/payments/views/payments/SavedCardsAuthLog.tsx';
import { addCard, adminScope, authLog, changeDefault, deleteCard, listCards, type CardsScope } from './service.ts';
import { authLogRow, cardView, cardsView } from './view-model.ts';

/** `/admin/members/:code/:userId/cards...`: a community's code and a member's id (anything else names no one: 404). */
const CardsParams = z.object({ code: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), userId: id });
/** `.../cards/:paymentId/...` */
const PaymentParams = z.object({ paymentId: id });
/** The cards page, with one card's log open (`?log=<id>`; anything else opens none). */
const CardsQuery = z.object({ log: optionalId.catch(null) });
/** One card's log: as a fragment (`?fragment=1`) or not. */
const LogQuery = z.object({ fragment: z.string().optional().catch(undefined) });
/** The card form: the provider's token (none: the hosted page) and the form's key (not a key: a new one). */
const AddCardForm = z.object({
  token: z
    .string()
    .optional()
    .transform((v) => (v ?? '').trim()),
  idempotencyKey: z
    .string()
    .optional()
    .transform((v) => (v !== undefined && /^[\x21-\x7e]{8,200}$/.test(v) ? v : undefined)),
});

/**
 * Admin mode's saved cards (spec sections 4 and 6): /admin/members/{code}/{userId}/cards, linked from
 * the admin member page. Every action is a plain form (POST, then 303 with an alert, or the page
 * again with the admin's message); the SavedCards island posts the same forms asking for JSON.
 */
export default async function savedCardsRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };

  /** The member of the path, in a community the staff administer; NotFound otherwise. */
  async function target(request: FastifyRequest): Promise<{ community: StaffCommunity; scope: CardsScope }> {
    const params = paramsOf(CardsParams, request);
    const userId = params.userId;
    request.guardian.ensureAdmin();
    const staff = { userId: request.guardian.userId! };
    const community = await staffCommunity({ db: app.db }, staff, params.code);
    return { community, scope: await adminScope(app, staff, community, userId) };
  }

  const paymentIdOf = (request: FastifyRequest) => paramsOf(PaymentParams, request).paymentId;

  /** The card form for adding a card (it becomes the default), or null when the community takes no payments. */
  async function addCardForm(community: StaffCommunity, userId: number, cardError: string | null): Promise<ReactNode | null> {
    const site = await loadPaymentSite(app.db, community);
    if (!site) return null;
    return (
      <CardForm
        action={`${app.config.basePath}${savedCardsPath(community.code, userId)}`}
        idempotencyKey={newIdempotencyKey()}
        processor={app.cardProcessor.browserSettings(site)}
        logos={cardFormLogos(site.acceptedCards)}
        submitLabel={t('savedCards.add.submit')}
        cardError={cardError}
        log={{ userId }}
      />
    );
  }

  async function render(request: FastifyRequest, reply: FastifyReply, extra: { error?: string | null; status?: number; cardError?: string | null } = {}) {
    const { community, scope } = await target(request);
    const member = await adminView({ db: app.db }, community, scope.userId);
    const cards = await listCards(app, scope);
    const logId = queryOf(CardsQuery, request).log;
    const logCard = logId ? cards.find((c) => c.id === logId) : undefined;
    const openLog = logCard ? { cardId: logCard.id, rows: (await authLog(app, scope, logCard.id)).map(authLogRow) } : null;
    const view = cardsView(cards);
    return reply.page({
      title: t('savedCards.page.title', { name: member.name }),
      status: extra.status,
      body: (
        <SavedCardsPage
          member={{ id: member.id, name: member.name, communityCode: community.code, communityName: community.name }}
          cards={view.cards}
          updatePrompt={view.updatePrompt}
          openLog={openLog}
          error={extra.error}
          addCard={await addCardForm(community, scope.userId, extra.cardError ?? null)}
        />
      ),
    });
  }

  app.get('/admin/members/:code/:userId/cards', admin, async (request, reply) => render(request, reply));

  /** After an action: JSON for the island, else 303 with the alert, or the page with the admin's message. */
  async function act(request: FastifyRequest, reply: FastifyReply, run: (scope: CardsScope) => Promise<number>, alert: 'saved-card-default' | 'saved-card-removed') {
    const { community, scope } = await target(request);
    try {
      const id = await run(scope);
      if (wantsJson(request)) return reply.send({ id: String(id) });
      return reply.redirectTo(withAlert(savedCardsPath(community.code, scope.userId), alert));
    } catch (e) {
      // JSON clients get the error handler's JSON; a page gets the message above the cards.
      if (!isAppError(e) || wantsJson(request) || e.status >= 500 || e.code === 'NotFound') throw e;
      return render(request, reply, { error: t(e.key, e.values), status: e.status });
    }
  }

  app.post('/admin/members/:code/:userId/cards/:paymentId/default', admin, async (request, reply) =>
    act(request, reply, (scope) => changeDefault(app, scope, paymentIdOf(request)), 'saved-card-default'),
  );

  app.post('/admin/members/:code/:userId/cards/:paymentId/remove', admin, async (request, reply) =>
    act(request, reply, (scope) => deleteCard(app, scope, paymentIdOf(request)), 'saved-card-removed'),
  );

  /** One card's log: the fragment for the island; a page navigation opens it on the cards page. */
  app.get('/admin/members/:code/:userId/cards/:paymentId/log', admin, async (request, reply) => {
    const { community, scope } = await target(request);
    const paymentId = paymentIdOf(request);
    const rows = (await authLog(app, scope, paymentId)).map(authLogRow);
    const fragment = queryOf(LogQuery, request).fragment === '1' || isHtmx(request);
    if (!fragment) return reply.redirectTo(`${savedCardsPath(community.code, scope.userId)}?log=${paymentId}#log-${paymentId}`);
    const card = (await listCards(app, scope)).find((c) => c.id === paymentId);
    if (!card) throw new AppError('NotFound');
    return reply.fragment(<AuthLogTable rows={rows} card={cardView(card)} />);
  });

  /** After adding: the page with its alert, or the page with the refused card's message in the form. */
  async function added(request: FastifyRequest, reply: FastifyReply, community: StaffCommunity, scope: CardsScope, input: { token: string; idempotencyKey: string | undefined }) {
    try {
      const card = await addCard(app, scope, input);
      if (wantsJson(request)) return reply.send({ id: String(card.id) });
      return reply.redirectTo(withAlert(savedCardsPath(community.code, scope.userId), 'saved-card-added'));
    } catch (e) {
      if (!isAppError(e) || wantsJson(request) || e.status >= 500 || e.code === 'NotFound') throw e;
      return render(request, reply, { cardError: t(e.key, e.values), status: e.status });
    }
  }

  /**
   * Add a card: the card form's POST. With a token (the island tokenised the card) it is saved at once;
   * without one (JavaScript off, or a card that needs the bank's step) the browser goes to the
   * provider's hosted page, which returns to /admin/cards/return.
   */
  app.post('/admin/members/:code/:userId/cards', admin, async (request, reply) => {
    const { community, scope } = await target(request);
    const { token, idempotencyKey } = formOf(AddCardForm, request);
    if (token || wantsJson(request)) return added(request, reply, community, scope, { token, idempotencyKey });
    const site = await loadPaymentSite(app.db, community);
    if (!site) throw new AppError('Payments.NotConfigured');
    // The state is the host's community (the return comes back to this host); the member's community is in its data.
    const address = hostedPageAddress(app, request, site, {
      communityId: request.community.id,
      purpose: 'admin-card',
      idempotencyKey: idempotencyKey ?? newIdempotencyKey(),
      returnPath: '/admin/cards/return',
      data: { code: community.code, userId: String(scope.userId) },
    });
    return reply.redirect(address, 303);
  });

  /** The hosted page's return (JavaScript off): the signed token, then as the POST with a token. */
  app.get('/admin/cards/return', admin, async (request, reply) => {
    const back = readHostedReturn(app, request);
    if (!back || back.state.purpose !== 'admin-card') throw new AppError('BadRequest.Validation');
    request.params = { code: back.state.data.code ?? '', userId: back.state.data.userId ?? '' };
    const { community, scope } = await target(request);
    return added(request, reply, community, scope, { token: back.token, idempotencyKey: back.state.idempotencyKey });
  });
}

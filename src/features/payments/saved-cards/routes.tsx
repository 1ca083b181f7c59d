import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { AppError, isAppError } from '#src/core/errors.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { type FormBody as Body, positiveId, str } from '#src/lib/form.ts';
import { wantsJson, isHtmx } from '#src/lib/negotiation.ts';
import { adminView, staffCommunity, type StaffCommunity } from '#src/features/members/admin.ts';
import { loadPaymentSite } from '../queries.ts';
import { SavedCardsPage, savedCardsPath } from '#views/payments/SavedCards.tsx';
import { AuthLogTable } from '#views/payments/SavedCardsAuthLog.tsx';
import { addCard, adminScope, authLog, changeDefault, deleteCard, listCards, type CardsScope } from './service.ts';
import { authLogRow, cardView, cardsView } from './view-model.ts';

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
    const params = request.params as { code: string; userId: string };
    const userId = positiveId(params.userId);
    if (!userId || !/^[A-Za-z0-9_-]{1,64}$/.test(params.code)) throw new AppError('NotFound');
    request.guardian.ensureAdmin();
    const staff = { userId: request.guardian.userId! };
    const community = await staffCommunity({ db: app.db }, staff, params.code);
    return { community, scope: await adminScope(app, staff, community, userId) };
  }

  const paymentIdOf = (request: FastifyRequest) => {
    const id = positiveId((request.params as { paymentId?: string }).paymentId);
    if (!id) throw new AppError('NotFound');
    return id;
  };

  /** The card form for adding a card, or null when the community takes no payments. */
  async function addCardForm(_request: FastifyRequest, community: StaffCommunity, _userId: number, _cardError: string | null): Promise<ReactNode | null> {
    const site = await loadPaymentSite(app.db, community.id);
    if (!site) return null;
    return null;
  }

  async function render(request: FastifyRequest, reply: FastifyReply, extra: { error?: string | null; status?: number; cardError?: string | null } = {}) {
    const { community, scope } = await target(request);
    const member = await adminView({ db: app.db }, community, scope.userId);
    const cards = await listCards(app, scope);
    const logId = positiveId((request.query as Record<string, unknown>).log);
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
          addCard={await addCardForm(request, community, scope.userId, extra.cardError ?? null)}
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
    const fragment = (request.query as Record<string, unknown>).fragment === '1' || isHtmx(request);
    if (!fragment) return reply.redirectTo(`${savedCardsPath(community.code, scope.userId)}?log=${paymentId}#log-${paymentId}`);
    const card = (await listCards(app, scope)).find((c) => c.id === paymentId);
    if (!card) throw new AppError('NotFound');
    return reply.fragment(<AuthLogTable rows={rows} card={cardView(card)} />);
  });

  /** Add a card from the provider's token (the card form's POST). */
  app.post('/admin/members/:code/:userId/cards', admin, async (request, reply) => {
    const { community, scope } = await target(request);
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Body;
    try {
      const card = await addCard(app, scope, { token: str(body.token), idempotencyKey: str(body.idempotencyKey) || undefined });
      if (wantsJson(request)) return reply.send({ id: String(card.id) });
      return reply.redirectTo(withAlert(savedCardsPath(community.code, scope.userId), 'saved-card-added'));
    } catch (e) {
      if (!isAppError(e) || wantsJson(request) || e.status >= 500 || e.code === 'NotFound') throw e;
      const message = t(e.key, e.values);
      return render(request, reply, { cardError: message, error: message, status: e.status });
    }
  });
}

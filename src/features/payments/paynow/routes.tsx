import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { formatDate } from '#shared/format.ts';
import { safeRedirect } from '#src/features/auth/index.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { formOf, queryOf } from '#src/lib/form.ts';
import { OverduePage } from '#src/features/payments/views/paynow/Overdue.tsx';
import { PayNowCompleteView, PayNowErrorView, PayNowFormView, PayNowNoBalanceView } from '#src/features/payments/views/paynow/PayNow.tsx';
import type { CardFormProps } from '#src/features/payments/views/payments/CardForm.tsx';
import { hostedPageAddress, newIdempotencyKey, readHostedReturn, type CheckoutState } from '../checkout.ts';
import { cardFormLogos, paymentMethodLabel } from '../cards.ts';
import { formatMoney } from '../money.ts';
import { findDefaultPayment, loadPaymentSite } from '../queries.ts';
import type { PaymentSource } from '../ledger.ts';
import { rememberCheckedBalance } from './checked.ts';
import { ensureWithinLimit } from './limits.ts';
import { payNowPath } from './links.ts';
import { clientKey, loadBalance, memberSubscription, parseBalanceRef, payBalance, type BalanceRef, type BalanceView } from './service.ts';

const PAY_NOW_PURPOSE = 'pay-now';
const OVERDUE_PURPOSE = 'pay-overdue';

/** A text field as a form or query string carries it; its reader (parseBalanceRef, clientKey, safeRedirect) checks it. */
const text = z.string().optional();
/** The pay-now page's pair, as the link carries it: anything else is the pair that names nothing (the error view). */
const PayNowQuery = z.object({ subscriptionId: text.catch(undefined), userId: text.catch(undefined) });
/** The card form: the pair, the form's key (absent: code 900), the provider's token (none: the hosted page). */
const PayNowForm = z.object({ subscriptionId: text, userId: text, idempotencyKey: text, token: text });
/** The dunning page: where the member was going (checked by safeRedirect; anything odd: home). */
const OverdueQuery = z.object({ next: text.catch(undefined) });
/** The dunning page's forms: where next, the form's key, the provider's token (the card form only). */
const OverdueForm = z.object({ next: text, idempotencyKey: text, token: text });

/**
 * The public pay-now page (spec sections 2, 4 "Pay-now flow", 6) and the dunning page at sign-in.
 *
 * - `GET /pay-now?userId=&subscriptionId=`: one of the four views, from the balance: the form (a
 *   balance is due), complete (paid lately: 0 is marked paid), no balance due, or the error view (an
 *   unknown or mismatched pair is one answer, HTTP 400, whichever part was wrong).
 * - `POST /pay-now` (the card form): with the provider's token, pays under the form's hidden key and
 *   redirects to the page (complete); a refused card (a 400 from the payment) comes back inline in the
 *   form; any other failure is the error view with try again and the concierge. Without a token (no
 *   JavaScript) it sends the browser to the provider's hosted page, which returns to
 *   `GET /pay-now/return` with the token: the same payment, under the same key.
 * - `/billing/overdue`: a signed-in member whose subscription is past due is sent here once per
 *   session, right after sign-in (gate.ts): the balance, pay with the default card in one press, or
 *   with another card (the card form, or the hosted page without JavaScript).
 *
 * Every page and POST of pay-now counts against the per-address limits (limits.ts).
 */
export default async function payNowRoutes(app: FastifyInstance) {
  const t = app.t;
  const base = app.config.basePath;
  const visitor = { config: { access: 'public' as const, allowDuringOnboarding: true } };
  const member = { config: { access: 'member' as const } };

  const page = (reply: FastifyReply, body: React.ReactNode, status = 200) => reply.page({ title: t('paynow.title'), body, status, bare: true });
  const retryHref = (ref: BalanceRef | null) => (ref ? `${base}${payNowPath(ref.userId, ref.subscriptionId)}` : `${base}/pay-now`);
  const amountOf = (view: BalanceView) => formatMoney(view.balance.outstandingBalance, view.balance.currency);

  function cardForm(view: BalanceView, action: string, key: string, cardError: string | null, hidden: Record<string, string>): CardFormProps {
    return {
      action,
      idempotencyKey: key,
      processor: view.browser,
      logos: cardFormLogos(view.acceptedCards),
      submitLabel: t('paynow.form.submit', { amount: amountOf(view) }),
      hidden,
      cardError,
      log: { userId: view.balance.userId, value: amountOf(view) },
    };
  }

  /** The page for a pair: whichever view its balance calls for. */
  async function renderPayNow(request: FastifyRequest, reply: FastifyReply, input: { subscriptionId?: unknown; userId?: unknown }, cardError: string | null = null, status = 200) {
    let view: BalanceView;
    try {
      view = await loadBalance(app, request.community, input);
    } catch (e) {
      if (!isAppError(e) || e.status >= 500) throw e;
      return page(reply, <PayNowErrorView message={t(e.key)} retryHref={retryHref(null)} />, e.status);
    }
    const b = view.balance;
    rememberCheckedBalance(request, reply, request.community, { subscriptionId: b.subscriptionId, userId: b.userId });
    if (b.showNoBalanceDue) return page(reply, <PayNowNoBalanceView />);
    if (b.outstandingBalance === 0) return page(reply, <PayNowCompleteView />);
    const facts = { memberName: b.memberName, balance: amountOf(view), renewalDate: b.renewalDate ? formatDate(b.renewalDate) : null };
    // The action keeps the link's query: the hosted page's Cancel (the posted address) comes back to this page.
    const form = cardForm(view, `${base}${payNowPath(b.userId, b.subscriptionId)}`, newIdempotencyKey(), cardError, { userId: String(b.userId), subscriptionId: b.subscriptionId });
    return page(reply, <PayNowFormView facts={facts} form={form} />, status);
  }

  /** Pays with a token (the form's, or the hosted page's return) and answers with the right view. */
  async function payAndAnswer(request: FastifyRequest, reply: FastifyReply, ref: BalanceRef, key: string, token: string) {
    try {
      const outcome = await payBalance(app, request.community, { ref, actorId: request.guardian?.userId ?? null, idempotencyKey: key, source: { token } });
      if (outcome.status === 'paid') return reply.redirect(retryHref(ref), 303);
      return renderPayNow(request, reply, ref, t(outcome.error.key), outcome.error.status);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === 'Payments.NoBalanceDue') return reply.redirect(retryHref(ref), 303);
      // A refused token or a key reused for another amount: the form again, with a fresh key.
      if (e.status >= 400 && e.status < 500 && e.code !== 'Payments.InvalidMembership' && e.code !== 'RateLimited') return renderPayNow(request, reply, ref, t(e.key), e.status);
      if (e.code === 'RateLimited') throw e;
      const message = e.code === 'Payments.InvalidMembership' ? t(e.key) : t('paynow.error.text');
      return page(reply, <PayNowErrorView message={message} retryHref={retryHref(e.code === 'Payments.InvalidMembership' ? null : ref)} />, e.status);
    }
  }

  app.get('/pay-now', visitor, async (request, reply) => {
    await ensureWithinLimit(request, 'lookup');
    const query = queryOf(PayNowQuery, request);
    return renderPayNow(request, reply, { subscriptionId: query.subscriptionId, userId: query.userId });
  });

  app.post('/pay-now', visitor, async (request, reply) => {
    await ensureWithinLimit(request, 'pay');
    const body = formOf(PayNowForm, request);
    let ref: BalanceRef;
    try {
      ref = parseBalanceRef(body);
    } catch (e) {
      if (!isAppError(e)) throw e;
      return page(reply, <PayNowErrorView message={t(e.key)} retryHref={retryHref(null)} />, e.status);
    }
    const key = clientKey(body.idempotencyKey);
    if (!key) return renderPayNow(request, reply, ref, t('errors.client.missingInput'), 400);
    const token = body.token ?? '';
    if (token) return payAndAnswer(request, reply, ref, key, token);
    // No JavaScript: the card is taken on the provider's hosted page, which returns to us with a token.
    // Nothing left to pay (a second submit after the first paid): the page, which says so.
    const due = await memberSubscription(app.db, request.community, ref.userId);
    if (!due || due.id !== ref.subscriptionId || due.outstanding_cents === 0) return renderPayNow(request, reply, ref);
    const site = await loadPaymentSite(app.db, request.community);
    if (!site) return renderPayNow(request, reply, ref);
    const state: CheckoutState = { communityId: request.community.id, purpose: PAY_NOW_PURPOSE, idempotencyKey: key, returnPath: '/pay-now/return', data: { userId: String(ref.userId), subscriptionId: ref.subscriptionId } };
    return reply.redirect(hostedPageAddress(app, request, site, state), 303);
  });

  app.get('/pay-now/return', visitor, async (request, reply) => {
    await ensureWithinLimit(request, 'pay');
    const back = readHostedReturn(app, request);
    if (!back || back.state.purpose !== PAY_NOW_PURPOSE) {
      return page(reply, <PayNowErrorView message={t('payments.errors.invalidMembership')} retryHref={retryHref(null)} />, 400);
    }
    let ref: BalanceRef;
    try {
      ref = parseBalanceRef(back.state.data);
    } catch (e) {
      if (!isAppError(e)) throw e;
      return page(reply, <PayNowErrorView message={t(e.key)} retryHref={retryHref(null)} />, e.status);
    }
    return payAndAnswer(request, reply, ref, back.state.idempotencyKey, back.token);
  });

  // ---- the dunning page ------------------------------------------------------------------------

  const nextOf = (value: unknown) => safeRedirect(value, base);

  async function renderOverdue(request: FastifyRequest, reply: FastifyReply, next: string, options: { cardError?: string | null; defaultError?: string | null; status?: number } = {}) {
    const me = request.guardian.userId!;
    const sub = await memberSubscription(app.db, request.community, me);
    if (!sub || sub.status !== 'past_due' || sub.outstanding_cents === 0) return reply.redirect(next, 303);
    const view = await loadBalance(app, request.community, { subscriptionId: sub.id, userId: me });
    const card = await findDefaultPayment(app.db, request.community, me);
    const props = {
      balance: amountOf(view),
      since: sub.past_due_since ? formatDate(sub.past_due_since) : null,
      defaultCard: card ? { label: paymentMethodLabel(card.cardType, card.last4Digits), action: `${base}/billing/overdue/default`, idempotencyKey: newIdempotencyKey(), next } : null,
      form: cardForm(view, `${base}/billing/overdue`, newIdempotencyKey(), options.cardError ?? null, { next }),
      laterHref: next,
      error: options.defaultError ?? null,
    };
    return reply.page({ title: t('paynow.overdue.title'), body: <OverduePage {...props} />, status: options.status ?? 200 });
  }

  /** The member pays their own overdue balance, from a card saved or new; paid: on to where they were going. */
  async function payOverdue(request: FastifyRequest, reply: FastifyReply, next: string, key: string, source: PaymentSource) {
    const me = request.guardian.userId!;
    const sub = await memberSubscription(app.db, request.community, me);
    if (!sub) return reply.redirect(next, 303);
    const viaDefault = 'savedPaymentId' in source;
    try {
      const outcome = await payBalance(app, request.community, { ref: { subscriptionId: sub.id, userId: me }, actorId: me, idempotencyKey: key, source });
      if (outcome.status === 'paid') return reply.redirectTo(withAlert((base ? next.slice(base.length) : next) || '/', 'paynow-paid'));
      const message = t(outcome.error.key);
      return renderOverdue(request, reply, next, { [viaDefault ? 'defaultError' : 'cardError']: message, status: outcome.error.status });
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === 'Payments.NoBalanceDue') return reply.redirect(next, 303);
      if (e.status >= 400 && e.status < 500 && e.code !== 'RateLimited') return renderOverdue(request, reply, next, { [viaDefault ? 'defaultError' : 'cardError']: t(e.key), status: e.status });
      throw e;
    }
  }

  app.get('/billing/overdue', member, async (request, reply) => {
    return renderOverdue(request, reply, nextOf(queryOf(OverdueQuery, request).next));
  });

  app.post('/billing/overdue', member, async (request, reply) => {
    const body = formOf(OverdueForm, request);
    const next = nextOf(body.next);
    const key = clientKey(body.idempotencyKey);
    if (!key) throw new AppError(900);
    const token = body.token ?? '';
    if (token) return payOverdue(request, reply, next, key, { token });
    const site = await loadPaymentSite(app.db, request.community);
    if (!site) return renderOverdue(request, reply, next);
    const state: CheckoutState = { communityId: request.community.id, purpose: OVERDUE_PURPOSE, idempotencyKey: key, returnPath: '/billing/overdue/return', data: { next, userId: String(request.guardian.userId!) } };
    return reply.redirect(hostedPageAddress(app, request, site, state), 303);
  });

  app.get('/billing/overdue/return', member, async (request, reply) => {
    const back = readHostedReturn(app, request);
    if (!back || back.state.purpose !== OVERDUE_PURPOSE) throw new AppError('BadRequest.Validation');
    // The return pays for the member who started it, never for whoever's session opens the address.
    if (back.state.data.userId !== String(request.guardian.userId!)) throw new AppError('BadRequest.Validation');
    return payOverdue(request, reply, nextOf(back.state.data.next), back.state.idempotencyKey, { token: back.token });
  });

  app.post('/billing/overdue/default', member, async (request, reply) => {
    const body = formOf(OverdueForm, request);
    const next = nextOf(body.next);
    const key = clientKey(body.idempotencyKey);
    if (!key) throw new AppError(900);
    const card = await findDefaultPayment(app.db, request.community, request.guardian.userId!);
    if (!card) return renderOverdue(request, reply, next);
    return payOverdue(request, reply, next, key, { savedPaymentId: card.id });
  });
}

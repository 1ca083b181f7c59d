import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import { formOf } from '#src/lib/form.ts';
import type { Community } from '#src/db/types.ts';
import { checkedBalance, rememberCheckedBalance } from './checked.ts';
import { ensureWithinLimit } from './limits.ts';
import { checkBalance, clientKey, keyFromToken, parseBalanceRef, parseToken, payBalance, memberSubscription, type BalanceRef, type PayNowApp } from './service.ts';

/**
 * The pay calls' JSON body (or form): the pair and the token as sent, text or a number; their readers
 * (parseBalanceRef, parseToken) answer a bad value with its own code. Not an object: a bad request.
 */
const value = z.union([z.string(), z.number()]).nullish();
const CheckBody = z.object({ subscriptionId: value, userId: value });
const PayBody = CheckBody.extend({ token: value });

/** The Idempotency-Key header, checked; undefined when absent. */
export const headerKey = (request: FastifyRequest) => clientKey(request.headers['idempotency-key']);

/**
 * Which subscription a pay call is for. With a subscriptionId: the pair, as on the page. Without one
 * (spec section 7's payload is token and userId): the balance this client checked for that user
 * (check-balance, subscriptionBalance or the page, with the right pair: checked.ts), else the
 * signed-in member's own subscription. Never a user id alone: an anonymous caller cannot learn from
 * one whether a member owes anything.
 */
export async function payRef(app: PayNowApp, community: Community, request: FastifyRequest, input: { subscriptionId?: unknown; userId?: unknown }): Promise<BalanceRef> {
  if (input.subscriptionId !== undefined && input.subscriptionId !== null) return parseBalanceRef(input);
  const me = request.guardian?.userId ?? null;
  const asked = parseId(input.userId);
  const checked = checkedBalance(request, community);
  if (checked && asked !== null && checked.userId === asked) return checked;
  if (me === null || asked !== me) throw new AppError('Payments.InvalidMembership');
  const own = await memberSubscription(app.db, community, me);
  if (!own) throw new AppError('Payments.InvalidMembership');
  return { subscriptionId: own.id, userId: me };
}

/** The balance of a pair; the pair is remembered for this client's pay call (checked.ts). */
export async function checkAndRemember(app: PayNowApp, request: FastifyRequest, reply: FastifyReply, input: { subscriptionId?: unknown; userId?: unknown }) {
  const balance = await checkBalance(app, request.community, input);
  rememberCheckedBalance(request, reply, request.community, { subscriptionId: balance.subscriptionId, userId: balance.userId });
  return balance;
}

/**
 * Spec section 7: `POST /rest/payment/check-balance` {subscriptionId, userId} → Subscription balance
 * (and the checked-balance cookie), and `POST /rest/payment/pay-balance` {token, userId[, subscriptionId]} → {id}. Public: a browser
 * carrying our cookies sends the CSRF token; another client calls with JSON and no cookie, or with its
 * bearer token. A refused card is a 400 with the card message (shown inline); a processor failure 502.
 */
export default async function payNowRestRoutes(app: FastifyInstance) {
  const open = { config: { access: 'public' as const, csrf: false as const, allowDuringOnboarding: true } };

  app.post('/rest/payment/check-balance', open, async (request, reply) => {
    await ensureWithinLimit(request, 'lookup');
    const body = formOf(CheckBody, request);
    return checkAndRemember(app, request, reply, { subscriptionId: body.subscriptionId, userId: body.userId });
  });

  app.post('/rest/payment/pay-balance', open, async (request) => {
    await ensureWithinLimit(request, 'pay');
    const body = formOf(PayBody, request);
    const token = parseToken(body.token);
    const key = headerKey(request) ?? keyFromToken(token);
    const ref = await payRef(app, request.community, request, { subscriptionId: body.subscriptionId, userId: body.userId });
    const outcome = await payBalance(app, request.community, { ref, actorId: request.guardian?.userId ?? null, idempotencyKey: key, source: { token } });
    if (outcome.status === 'refused') throw outcome.error;
    return { id: String(outcome.id) };
  });
}

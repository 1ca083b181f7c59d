import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { Community } from '#src/db/types.ts';
import { ensureWithinLimit } from './limits.ts';
import { checkBalance, clientKey, keyFromToken, parseBalanceRef, parseToken, payBalance, memberSubscription, type BalanceRef, type PayNowApp } from './service.ts';

const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new AppError('BadRequest.Validation');
  return body as Record<string, unknown>;
};

/** The Idempotency-Key header, checked; undefined when absent. */
export const headerKey = (request: FastifyRequest) => clientKey(request.headers['idempotency-key']);

/**
 * Which subscription a pay call is for. With a subscriptionId: the pair, as on the page. Without one
 * (spec section 7's payload is token and userId): only the signed-in member's own subscription, so
 * that an anonymous caller cannot learn from a user id alone whether a member owes anything.
 */
export async function payRef(app: PayNowApp, community: Community, request: FastifyRequest, input: { subscriptionId?: unknown; userId?: unknown }): Promise<BalanceRef> {
  if (input.subscriptionId !== undefined && input.subscriptionId !== null) return parseBalanceRef(input);
  const me = request.guardian?.userId ?? null;
  const asked = typeof input.userId === 'number' ? input.userId : typeof input.userId === 'string' && /^\d{1,10}$/.test(input.userId) ? Number(input.userId) : null;
  if (me === null || asked !== me) throw new AppError('Payments.InvalidMembership');
  const own = await memberSubscription(app.db, community.id, me);
  if (!own) throw new AppError('Payments.InvalidMembership');
  return { subscriptionId: own.id, userId: me };
}

/**
 * Spec section 7: `POST /rest/payment/check-balance` {subscriptionId, userId} → Subscription balance,
 * and `POST /rest/payment/pay-balance` {token, userId[, subscriptionId]} → {id}. Public: a browser
 * carrying our cookies sends the CSRF token; another client calls with JSON and no cookie, or with its
 * bearer token. A refused card is a 400 with the card message (shown inline); a processor failure 502.
 */
export default async function payNowRestRoutes(app: FastifyInstance) {
  const open = { config: { access: 'public' as const, csrf: false as const, allowDuringOnboarding: true } };

  app.post('/rest/payment/check-balance', open, async (request) => {
    await ensureWithinLimit(request, 'lookup');
    const body = bodyOf(request);
    return checkBalance(app, request.community, { subscriptionId: body.subscriptionId, userId: body.userId });
  });

  app.post('/rest/payment/pay-balance', open, async (request) => {
    await ensureWithinLimit(request, 'pay');
    const body = bodyOf(request);
    const token = parseToken(body.token);
    const key = headerKey(request) ?? keyFromToken(token);
    const ref = await payRef(app, request.community, request, { subscriptionId: body.subscriptionId, userId: body.userId });
    const outcome = await payBalance(app, request.community, { ref, actorId: request.guardian?.userId ?? null, idempotencyKey: key, source: { token } });
    if (outcome.status === 'refused') throw outcome.error;
    return { id: String(outcome.id) };
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';

/**
 * The pay-now page and its calls identify a member by two parameters only, so they are limited per
 * client address, whatever the transport (page, form, REST, GraphQL): one count for looking a balance
 * up, a smaller one for paying. The counts live in the rate limiter's store (Redis when REDIS_URL is
 * set, so every process shares them; else this process's memory), beside the global limit.
 */
export const PAYNOW_LIMITS = {
  /** Opening the page, check-balance, subscriptionBalance. */
  lookup: { max: 30, timeWindow: 60_000 },
  /** Paying: the form, the hosted page's return, pay-balance, paySubscriptionByToken. */
  pay: { max: 10, timeWindow: 60_000 },
} as const;

export type PayNowLimit = keyof typeof PAYNOW_LIMITS;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
const limiters = new WeakMap<object, Record<PayNowLimit, Limiter>>();

function limitersOf(app: FastifyInstance): Record<PayNowLimit, Limiter> {
  // One set per app (its config object is shared by every encapsulated scope of the app).
  let set = limiters.get(app.config);
  if (!set) {
    set = {
      lookup: app.createRateLimit({ ...PAYNOW_LIMITS.lookup, keyGenerator: (r) => `paynow-lookup:${r.ip}` }),
      pay: app.createRateLimit({ ...PAYNOW_LIMITS.pay, keyGenerator: (r) => `paynow-pay:${r.ip}` }),
    };
    limiters.set(app.config, set);
  }
  return set;
}

/** Counts this request; past the limit it is refused with the catalogue's RateLimited (429). */
export async function ensureWithinLimit(request: FastifyRequest, which: PayNowLimit): Promise<void> {
  const result = await limitersOf(request.server)[which](request);
  if (!result.isAllowed && result.isExceeded) {
    throw new AppError('RateLimited');
  }
}

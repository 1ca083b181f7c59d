import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '#src/features/auth/index.ts';
import { isPageNavigation } from '#src/lib/negotiation.ts';
import { memberSubscription } from './service.ts';

/** Set once the session has been checked for an overdue balance (its value: a digest of the session id). */
export const DUNNING_COOKIE = 'dunning';

/** Pages never interrupted: the dunning page itself, pay-now, sign-in and out, onboarding. */
const EXEMPT = /^\/(billing\/overdue|pay-now|login|logout|account\/|password\/|get-started|sandbox-pay|dev\/|notifications\/unsubscribe)/;

/** Sessions this process has checked (a client that keeps no cookies is not queried on every page). */
const checked = new Set<string>();
const MAX_CHECKED = 10_000;

const sessionMark = (sessionId: string) => createHash('sha256').update(`dunning:${sessionId}`).digest('base64url').slice(0, 22);

/**
 * The dunning page at sign-in (issue 13): the first page a signed-in member opens in a session checks,
 * once, whether their subscription is past due; if it is, they are sent to /billing/overdue (with the
 * page they were going to as `next`, where "Remind me later" and a payment lead). The check is then
 * remembered in a signed session cookie tied to the session, so it costs one indexed read per session
 * and the member is not interrupted again until the next sign-in (this process also remembers the
 * sessions it checked, for clients that keep no cookies). A root hook (fastify-plugin), so it
 * sees every area's pages; API calls (JSON, bearer clients, htmx) are never redirected.
 */
export default fp(
  async (app) => {
    const base = app.config.basePath;
    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      const config = request.routeOptions.config;
      if (!config?.access || config.bare || config.access === 'admin' || !isPageNavigation(request)) return;
      const identity = request.identity;
      if (!identity?.loggedIn || request.guardian?.mustOnboard || bearerToken(request)) return;
      if (EXEMPT.test(request.appPath)) return;
      const mark = sessionMark(identity.sessionId);
      const seen = request.cookies[DUNNING_COOKIE];
      const unsigned = seen ? request.unsignCookie(seen) : null;
      if ((unsigned?.valid && unsigned.value === mark) || checked.has(mark)) return;
      const sub = await memberSubscription(app.db, request.community, identity.user.id);
      if (checked.size >= MAX_CHECKED) checked.clear();
      checked.add(mark);
      reply.setCookie(DUNNING_COOKIE, mark, { path: base || '/', httpOnly: true, sameSite: 'lax', secure: app.config.isProduction, signed: true });
      if (sub?.status === 'past_due' && sub.outstanding_cents > 0) {
        return reply.redirect(`${base}/billing/overdue?next=${encodeURIComponent(request.url)}`, 303);
      }
    });
  },
  { name: 'payments-dunning-gate' },
);

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { logClientPaymentError, type ClientPaymentError } from './error-log.ts';

/** A client's report: a JSON object of anything (each field read, bounded and cleaned by error-log.ts). */
const ReportBody = z.record(z.string(), z.unknown());

/** A body of 64 KiB is far beyond any honest report; the route refuses it before parsing. */
const BODY_LIMIT = 64 * 1024;

/**
 * Spec section 7's two client error-log calls: the card form island's (logClientPaymentError) and
 * the payment script's (logPaymentScriptError). Public JSON like the other REST calls (our pages send
 * the CSRF header with their cookies; a bearer client or a cookie-less one sends plain JSON), rate
 * limited per address, every field bounded and stripped of anything like a card number. 204.
 */
export default async function paymentErrorLogRoutes(app: FastifyInstance) {
  const config = { access: 'public' as const, csrf: false as const, rateLimit: { max: 20, timeWindow: '1 minute' } };

  const read = (request: FastifyRequest, source: ClientPaymentError['source']): ClientPaymentError => {
    // Any JSON object: a client's report may carry anything; each field is bounded and cleaned below.
    const parsed = ReportBody.safeParse(request.body);
    if (!parsed.success) throw new AppError(900);
    const b = parsed.data;
    const message = b.error ?? b.errorMsg;
    // An Error serialised by a client may arrive as an object: keep its text, not its shape.
    const text = message && typeof message === 'object' ? JSON.stringify(message).slice(0, 2000) : message;
    if (text === undefined || text === null || text === '') throw new AppError(900, { fields: { error: { code: 900, key: 'errors.client.missingInput' } } });
    return { source, message: text, userId: b.userId, category: b.category, email: b.email, value: b.value, uri: b.uri };
  };

  for (const [url, source] of [
    ['/rest/get-started/logClientPaymentError', 'client'],
    ['/rest/payment/logPaymentScriptError', 'script'],
  ] as const) {
    app.post(url, { config, bodyLimit: BODY_LIMIT }, async (request, reply) => {
      const input = read(request, source);
      const identity = request.identity;
      await logClientPaymentError(app.db, request.community, identity?.loggedIn ? identity.user.id : null, input);
      return reply.code(204).send();
    });
  }
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY, textField } from '#src/core/fields.ts';
import { authContext } from './http.ts';
import { sendOneTimeCode } from './codes.ts';
import { passwordTokenIsValid, requestPasswordReset, resetPassword } from './passwords.ts';
import { authStrategies, availableCommunities } from './service.ts';
import { loginResultView, refreshSignIn, signInWithCode, signInWithPassword, signOut } from './transport.ts';

/** Caps that only keep absurd payloads out; the services apply the real rules (spec section 5). */
const text = (max: number) => textField({ max });
const channel = z.enum(['EMAIL', 'SMS']);

const schemas = {
  login: z.object({ username: text(254), password: text(1024), targetCommunity: text(100).nullish(), remember: z.boolean().optional() }),
  // Spec section 7: "same" payload as /rest/login, so targetCommunity is optional here too.
  adminLogin: z.object({ username: text(254), password: text(1024), targetCommunity: text(100).nullish() }),
  strategies: z.object({ to: text(254), channel: channel.nullish() }),
  oneTime: z.object({ to: text(254), channel: channel.nullish() }),
  redeem: z.object({ to: text(254), code: text(20), remember: z.boolean().optional() }),
  resetToken: z.object({ token: text(200) }),
  forgot: z.object({ username: text(254) }),
  reset: z.object({ resetToken: text(200), newPassword: text(1024) }),
  refresh: z.object({ refreshToken: text(200).nullish() }),
};

/**
 * A payload of the wrong shape is the catalogue's 900 (missing input), naming each field; a text
 * that holds a control character is 150 (invalid characters), naming its field.
 */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const fields: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const invalidCharacters = issue.message === INVALID_CHARACTERS_KEY;
    fields[issue.path.join('.') || 'body'] ??= invalidCharacters
      ? { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY }
      : { code: 900, key: 'errors.client.missingInput' };
  }
  throw new AppError(Object.values(fields).every((f) => f.code === INVALID_CHARACTERS_CODE) ? INVALID_CHARACTERS_CODE : 900, { fields });
}

/**
 * The sign-in calls of spec section 7 as JSON under /rest. Each calls the same service as the sign-in
 * forms; errors are AppErrors, rendered as `{ error: { code, message, fields? } }`. A browser that
 * carries our cookies sends the CSRF token (`x-csrf-token`); a client that is not our page calls the
 * sign-in routes (`signIn`) with JSON and no cookie, and the rest with `Authorization: Bearer
 * <authToken>` (docs/api.md). The login answers carry the tokens such a client keeps.
 */
export default async function authRestRoutes(app: FastifyInstance) {
  const open = { config: { access: 'public' as const } };
  const signIn = { config: { access: 'public' as const, csrf: false as const } };

  app.post('/rest/login', signIn, async (request, reply) => {
    const body = parse(schemas.login, request.body);
    const result = await signInWithPassword(request, reply, { email: body.username, password: body.password, targetCommunity: body.targetCommunity, remember: body.remember });
    return { displayName: result.user.displayName, ...loginResultView(result) };
  });

  app.post('/rest/admin/login', signIn, async (request, reply) => {
    const body = parse(schemas.adminLogin, request.body);
    // Without one, the community of the host, as the admin sign-in page preselects it.
    const targetCommunity = body.targetCommunity?.trim() || request.community.code;
    const result = await signInWithPassword(request, reply, { email: body.username, password: body.password, targetCommunity, admin: true });
    return { displayName: result.user.displayName, ...loginResultView(result) };
  });

  app.post('/rest/logout', open, async (request, reply) => {
    await signOut(request, reply);
    return reply.code(204).send();
  });

  // The refresh token comes in the body (API clients) or in the refresh cookie (our pages).
  app.post('/rest/token-refresh', signIn, async (request, reply) => {
    const body = parse(schemas.refresh, request.body);
    return loginResultView(await refreshSignIn(request, reply, body.refreshToken));
  });

  app.get('/rest/admin/available-communities', open, async () => ({ availableCommunities: await availableCommunities(app.db) }));

  // Answers whether an email belongs to a member: a strict limit per address slows enumeration.
  app.post('/rest/login/auth-strategies', { config: { ...signIn.config, rateLimit: { max: 20, timeWindow: '1 minute' } } }, async (request) => {
    const body = parse(schemas.strategies, request.body);
    const { passwordStrategy, otcSmsStrategy, smsOptions } = await authStrategies(authContext(request), body.to);
    return { passwordStrategy, otcSmsStrategy, smsOptions };
  });

  app.post('/rest/login/one-time', signIn, async (request) => {
    const body = parse(schemas.oneTime, request.body);
    const sent = await sendOneTimeCode(authContext(request), { email: body.to, channel: body.channel ?? 'EMAIL' });
    return { channel: sent.channel, maskedDestination: sent.masked };
  });

  app.post('/rest/login/one-time-redeem', signIn, async (request, reply) => {
    const body = parse(schemas.redeem, request.body);
    return loginResultView(await signInWithCode(request, reply, { email: body.to, code: body.code, remember: body.remember }));
  });

  app.get('/rest/validate-reset-token', open, async (request) => {
    const query = parse(schemas.resetToken, request.query);
    return { isValid: await passwordTokenIsValid(authContext(request), query.token) };
  });

  // An unknown username is 404 Unrecognized.Email, 'A member with that username could not be found'
  // (spec section 8): like auth-strategies it tells who is a member, so the same strict limit.
  app.post('/rest/password-forgot', { config: { ...signIn.config, rateLimit: { max: 20, timeWindow: '1 minute' } } }, async (request) => {
    const body = parse(schemas.forgot, request.body);
    await requestPasswordReset(authContext(request), { email: body.username });
    return {};
  });

  app.post('/rest/reset-password', signIn, async (request) => {
    const body = parse(schemas.reset, request.body);
    await resetPassword(authContext(request), { token: body.resetToken, password: body.newPassword });
    return {};
  });
}

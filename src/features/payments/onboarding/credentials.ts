import type { FastifyRequest } from 'fastify';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters, INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY } from '#src/core/fields.ts';
import { hashPassword } from '#src/core/passwords.ts';
import { selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { cleanUserAgent, endCurrentSession, ensureNewPassword, type LoginResult, startSession } from '#src/features/auth/index.ts';
import { advance, hasCredentials, hasPaid, reload, type Onboarding } from './progress.ts';
import { USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from './types.ts';

/**
 * The password step (spec section 3 "Create password input": username, password): the invitee picks
 * a username (unique, case-insensitively, across the platform) and a password by the platform's
 * rules (src/core/password-rules.ts, hashed by src/core/passwords.ts), then is signed in the way
 * sign-in does it (a server-side session, the auth and refresh cookies; bearer clients get the
 * tokens). Only after payment, and only once.
 */

export type CredentialsInput = { username: unknown; password: unknown; confirm?: unknown };

function usernameError(raw: unknown): FieldErrors[string] | null {
  if (typeof raw !== 'string') return { code: 900, key: 'onboarding.password.usernameRequired' };
  const v = raw.trim();
  if (hasForbiddenCharacters(v)) return { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY };
  if (v === '') return { code: 900, key: 'onboarding.password.usernameRequired' };
  if (v.length < USERNAME_MIN || v.length > USERNAME_MAX || !USERNAME_PATTERN.test(v)) {
    return { code: 'BadRequest.Validation', key: 'onboarding.password.usernameRules', values: { min: USERNAME_MIN, max: USERNAME_MAX } };
  }
  return null;
}

const taken = () => new AppError('Onboarding.UsernameTaken', { fields: { username: { code: 'Onboarding.UsernameTaken', key: 'onboarding.password.usernameTaken' } } });

export async function createCredentials(request: FastifyRequest, o: Onboarding, input: CredentialsInput): Promise<{ onboarding: Onboarding; login: LoginResult }> {
  const app = request.server;
  if (o.site.onboardingDisabled) throw new AppError('Onboarding.Disabled');
  if (!hasPaid(o)) throw new AppError('Onboarding.PaymentFirst');
  if (hasCredentials(o)) throw new AppError('Onboarding.CredentialsExist');
  const fields: FieldErrors = {};
  const userError = usernameError(input.username);
  if (userError) fields.username = userError;
  const password = typeof input.password === 'string' ? input.password : '';
  try {
    ensureNewPassword(password, input.confirm);
  } catch (e) {
    if (!(e instanceof AppError) || !e.fields) throw e;
    Object.assign(fields, e.fields);
  }
  if (Object.keys(fields).length) {
    const all = Object.values(fields);
    throw new AppError(all.every((f) => f.code === INVALID_CHARACTERS_CODE) ? INVALID_CHARACTERS_CODE : all.length === 1 ? all[0]!.code : 'BadRequest.Validation', { fields });
  }
  const username = (input.username as string).trim();
  const clash = await app.db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .where('id', '!=', o.user.id)
    .executeTakeFirst();
  if (clash) throw taken();
  const hash = await hashPassword(password);
  const now = app.clock.now();
  try {
    await app.db.transaction().execute(async (trx) => {
      // Once: the row is claimed first, so two racing submits set one password.
      const claimed = await updateInCommunity(trx, 'onboardings', o.community)
        .set({ credentials_at: now, current_step: 'profile', updated_at: now })
        .where('id', '=', o.row.id)
        .where('credentials_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new AppError('Onboarding.CredentialsExist');
      const updated = await trx.updateTable('users').set({ username, password_hash: hash, updated_at: now }).where('id', '=', o.user.id).where('password_hash', 'is', null).executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new AppError('Onboarding.CredentialsExist');
    });
  } catch (e) {
    if ((e as { code?: unknown }).code === '23505') throw taken();
    throw e;
  }

  // Signed in, as sign-in does it: this browser's earlier session (if any) ends, a new one starts.
  const membership = await selectInCommunity(app.db, 'memberships', o.community)
    .select(['roles', 'gate'])
    .where('user_id', '=', o.user.id)
    .executeTakeFirstOrThrow();
  await endCurrentSession(request);
  const session = await startSession(app.db, app.sessionTokens, app.clock, {
    userId: o.user.id,
    community: o.community,
    roles: membership.roles,
    gate: membership.gate,
    basePath: app.config.basePath,
    remember: false,
    userAgent: cleanUserAgent(request.headers['user-agent']),
  });
  const login: LoginResult = {
    user: { id: o.user.id, email: o.user.email, displayName: `${o.user.firstName} ${o.user.lastName}`.trim() },
    community: { code: o.community.code, name: o.community.name },
    authToken: session.token,
    refreshToken: session.refreshToken,
    roles: membership.roles,
    expiresAt: session.expiresAt,
  };
  return { onboarding: await advance(app, { ...(await reload(app, o)), signedIn: true }), login };
}

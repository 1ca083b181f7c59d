import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { isStrongPassword } from '#src/core/fields.ts';
import { randomToken, sha256 } from '#src/core/ids.ts';
import { hashPassword, verifyPassword } from '#src/core/passwords.ts';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { findAccount, isMemberHere, mailFrom, parseEmail, type AuthContext } from './account.ts';
import { revokeOtherSessions } from './sessions.ts';
import { LIMITS, Throttle } from './throttle.ts';

/** Passwords: the reset link (request, job, redemption), setup links, the new-password rules, the change from settings. */

export const RESET_TOKEN_TTL_MS = 60 * 60_000;
export const SETUP_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * Emails a reset link. An address that is no member's here is Unrecognized.Email worded as the spec's
 * 'A member with that username could not be found' (spec section 8; the sign-in page's email step and
 * its code mail already tell whether an address is a member's, so hiding it here protected nothing:
 * docs/decisions/0042). Every request counts against the address's limit, found or not.
 */
export async function requestPasswordReset(ctx: AuthContext, input: { email: unknown }): Promise<void> {
  const email = parseEmail(input.email);
  await new Throttle(ctx.db, ctx.clock).begin([{ limit: LIMITS.resetRequestsPerAccount, key: email }]);
  if (!isMemberHere(await findAccount(ctx, email))) throw new AppError('Unrecognized.Email', { key: USERNAME_NOT_FOUND_KEY });
  // Storing a token and queueing the mail happen in a job, so a crash after the answer still sends the link.
  await ctx.jobs.enqueue(ctx.db, PASSWORD_RESET_JOB, { communityId: ctx.community.id, email });
}

/** Spec section 8, Password: 'A member with that username could not be found'. */
export const USERNAME_NOT_FOUND_KEY = 'auth.forgot.notFound';

export const PASSWORD_RESET_JOB = 'auth.password-reset';

/** The reset job: for a member of the community, a new token and its mail, in one transaction. */
export async function deliverPasswordReset(ctx: AuthContext, email: string): Promise<void> {
  const account = await findAccount(ctx, email);
  if (!isMemberHere(account)) return;
  await ctx.db.transaction().execute(async (trx) => {
    const token = await createPasswordToken({ ...ctx, db: trx }, account.id, 'reset');
    const link = `${ctx.config.publicUrl}${ctx.config.basePath}/password/reset?token=${encodeURIComponent(token)}`;
    await ctx.messages.mail(trx, {
      to: account.email,
      from: mailFrom(ctx),
      subject: ctx.t('auth.messages.resetSubject', { name: ctx.community.name }),
      text: ctx.t('auth.messages.resetText', { firstName: account.first_name, link, name: ctx.community.name, minutes: RESET_TOKEN_TTL_MS / 60_000 }),
    });
  });
}

export async function createPasswordToken(ctx: Pick<AuthContext, 'db' | 'clock' | 'community'>, userId: number, purpose: 'reset' | 'setup'): Promise<string> {
  const token = randomToken();
  const now = ctx.clock.now();
  await insertInCommunity(ctx.db, 'password_tokens', ctx.community, {
    user_id: userId,
    purpose,
    token_hash: sha256(token),
    created_at: now,
    expires_at: new Date(now.getTime() + (purpose === 'reset' ? RESET_TOKEN_TTL_MS : SETUP_TOKEN_TTL_MS)),
  }).execute();
  return token;
}

async function findPasswordToken(ctx: Pick<AuthContext, 'db' | 'clock' | 'community'>, token: unknown) {
  if (typeof token !== 'string' || token.length < 20 || token.length > 200) return undefined;
  return selectInCommunity(ctx.db, 'password_tokens', ctx.community)
    .select(['id', 'user_id', 'purpose'])
    .where('token_hash', '=', sha256(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', ctx.clock.now())
    .executeTakeFirst();
}

export async function passwordTokenIsValid(ctx: Pick<AuthContext, 'db' | 'clock' | 'community'>, token: unknown): Promise<boolean> {
  return (await findPasswordToken(ctx, token)) !== undefined;
}

/** A reset or setup link that is unknown, spent or expired: the invalid-link message (spec section 8). */
const invalidResetLink = () => new AppError('BadRequest.InvalidLink', { fields: { token: { code: 'BadRequest.InvalidLink', key: 'auth.reset.invalidLink' } } });

/** Sets a new password from a reset or setup link; the link is spent and every other session ends. */
export async function resetPassword(ctx: AuthContext, input: { token: unknown; password: unknown; confirm?: unknown }): Promise<{ userId: number; email: string }> {
  const found = await findPasswordToken(ctx, input.token);
  if (!found) throw invalidResetLink();
  const password = typeof input.password === 'string' ? input.password : '';
  ensureNewPassword(password, input.confirm);
  const hash = await hashPassword(password);
  const now = ctx.clock.now();
  const user = await ctx.db.transaction().execute(async (trx) => {
    const spent = await updateInCommunity(trx, 'password_tokens', ctx.community).set({ used_at: now }).where('id', '=', found.id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw invalidResetLink();
    // A person's password (named cross-community query): the password is the user's in
    // every community, so the user's unspent links everywhere are spent with it.
    await crossCommunity(trx).updateTable('password_tokens').set({ used_at: now }).where('user_id', '=', found.user_id).where('used_at', 'is', null).execute();
    return trx.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', found.user_id).returning(['id', 'email']).executeTakeFirstOrThrow();
  });
  await revokeOtherSessions(ctx.db, ctx.clock, user.id, null);
  return { userId: user.id, email: user.email };
}

/** Every rule a new password and its confirmation break, each by its field (121 strength, 120 mismatch). */
export function newPasswordProblems(password: string, confirm: unknown): FieldErrors {
  const fields: FieldErrors = {};
  if (!isStrongPassword(password)) fields.password = { code: 121, key: 'errors.client.passwordStrength' };
  if (confirm !== undefined && confirm !== password) fields.confirm = { code: 120, key: 'errors.client.passwordMismatch' };
  return fields;
}

export function ensureNewPassword(password: string, confirm: unknown): void {
  const fields = newPasswordProblems(password, confirm);
  if (fields.password || fields.confirm) throw new AppError(fields.password ? 121 : 120, { fields });
}

/** Changes the password from settings: the current one is required; the member's other sessions end. */
export async function updatePassword(
  ctx: AuthContext,
  input: { userId: number; sessionId: string; oldPassword: unknown; newPassword: unknown; confirm?: unknown },
  /** Runs in the transaction that stores the new password (the settings notify the member there). */
  inTransaction?: (trx: Db) => Promise<void>,
): Promise<void> {
  const oldPassword = typeof input.oldPassword === 'string' ? input.oldPassword : '';
  const newPassword = typeof input.newPassword === 'string' ? input.newPassword : '';
  // Every failing rule is answered at once, each by its field: the current password (missing or
  // incorrect), the new one's strength, the confirmation.
  const problems = newPasswordProblems(newPassword, input.confirm);
  if (oldPassword === '') {
    // Not a guess: nothing is counted against the account (spec section 5: the current password is required).
    throw new AppError(900, { fields: { oldPassword: { code: 900, key: 'errors.client.missingInput' }, ...problems } });
  }
  const attempt = await new Throttle(ctx.db, ctx.clock).begin([{ limit: LIMITS.passwordPerAccountAndIp, key: `user:${input.userId}|${ctx.ip}` }]);
  const user = await ctx.db.selectFrom('users').select(['password_hash']).where('id', '=', input.userId).executeTakeFirstOrThrow();
  if (!user.password_hash || !(await verifyPassword(user.password_hash, oldPassword))) {
    const locked = await attempt.failed();
    // Spec section 8: a password change answers 'Current password incorrect' (the API's message too).
    // A 400, not the sign-in's 401: spec section 7 reads a 401 as "signed out", and this member is not.
    const fields = { oldPassword: { code: 'NotAuthorized.Password' as const, key: 'auth.password.currentIncorrect' }, ...problems };
    throw locked ? new AppError(locked, { fields }) : new AppError('NotAuthorized.Password', { fields, key: 'auth.password.currentIncorrect', status: 400 });
  }
  await attempt.succeeded();
  ensureNewPassword(newPassword, input.confirm);
  const hash = await hashPassword(newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash, updated_at: ctx.clock.now() }).where('id', '=', input.userId).execute();
    await inTransaction?.(trx);
  });
  await revokeOtherSessions(ctx.db, ctx.clock, input.userId, input.sessionId);
}

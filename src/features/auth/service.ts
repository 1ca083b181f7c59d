import { AppError } from '#src/core/errors.ts';
import { ensureText, maskPhone } from '#src/core/fields.ts';
import { ensurePasswordCheckRoom, verifyPassword } from '#src/core/passwords.ts';
import type { Db } from '#src/db/index.ts';
import { burnHashTime, checkedBy, findAccount, holdsAdminAnywhere, isMemberHere, issueSession, parseEmail, passwordChecks, type AuthContext, type AuthStrategies, type LoginResult } from './account.ts';
import { Throttle } from './throttle.ts';

/** Signing in with a password: the strategies an email offers, the member's sign-in, the admin's. */

/**
 * The sign-in strategies for an email (spec section 3, "Auth strategies"). An email that belongs to
 * no member of this community has none; one that belongs only to staff elsewhere gets NoAdmins.
 */
export async function authStrategies(ctx: AuthContext, emailInput: unknown): Promise<AuthStrategies> {
  const email = parseEmail(emailInput);
  const account = await findAccount(ctx, email);
  if (!isMemberHere(account)) {
    if (account && (await holdsAdminAnywhere(ctx.db, account.id))) throw new AppError('BadRequest.NoAdmins');
    throw new AppError('Unrecognized.Email');
  }
  const masked = maskPhone(account.mobile_country_code, account.mobile_number);
  return {
    passwordStrategy: account.password_hash !== null,
    otcSmsStrategy: masked !== null,
    otcEmailStrategy: true,
    smsOptions: masked ? [{ id: `sms:${account.id}`, maskedValue: masked }] : [],
  };
}

/** Password sign-in. Limits are checked before any hash is computed; an unknown email costs a hash too. */
export async function loginWithPassword(
  ctx: AuthContext,
  input: { email: unknown; password: unknown; remember?: boolean },
): Promise<LoginResult> {
  const email = parseEmail(input.email);
  const password = typeof input.password === 'string' ? input.password : '';
  if (!password) throw new AppError(900, { fields: { password: { code: 900, key: 'auth.password.required' } } });
  ensurePasswordCheckRoom();
  const attempt = await new Throttle(ctx.db, ctx.clock).begin(passwordChecks(ctx, email));
  const account = await findAccount(ctx, email);
  const ok = await checkedBy(attempt, () => (isMemberHere(account) && account.password_hash ? verifyPassword(account.password_hash, password) : burnHashTime(password).then(() => false)));
  if (!ok || !isMemberHere(account)) throw new AppError((await attempt.failed()) ?? 'NotAuthorized.Password');
  await attempt.succeeded();
  return issueSession(ctx, account, input.remember ?? false);
}

/** Admin sign-in: the password, and the ADMIN role in the chosen community. */
export async function loginAsAdmin(
  ctx: AuthContext,
  input: { email: unknown; password: unknown; targetCommunity: unknown },
): Promise<LoginResult> {
  const email = parseEmail(input.email);
  const password = typeof input.password === 'string' ? input.password : '';
  if (!password) throw new AppError(900, { fields: { password: { code: 900, key: 'auth.password.required' } } });
  const code = typeof input.targetCommunity === 'string' ? input.targetCommunity : '';
  ensureText({ community: code });
  const target = code ? await ctx.db.selectFrom('communities').selectAll().where('code', '=', code).executeTakeFirst() : undefined;
  if (!target) throw new AppError(900, { fields: { community: { code: 900, key: 'auth.admin.communityRequired' } } });
  ensurePasswordCheckRoom();
  const attempt = await new Throttle(ctx.db, ctx.clock).begin(passwordChecks(ctx, email));
  const account = await findAccount({ ...ctx, community: target }, email);
  const ok = await checkedBy(attempt, () => (account?.password_hash ? verifyPassword(account.password_hash, password) : burnHashTime(password).then(() => false)));
  if (!ok || !account) throw new AppError((await attempt.failed()) ?? 'NotAuthorized.Password');
  await attempt.succeeded();
  if (!isMemberHere(account) || !account.roles.includes('ADMIN')) throw new AppError('Forbidden');
  return issueSession({ ...ctx, community: target }, account, false, target);
}

/** Communities an admin may pick at the admin sign-in (spec: "Available community"). */
export async function availableCommunities(db: Db) {
  const rows = await db.selectFrom('communities').select(['code', 'name', 'familiar_name']).orderBy('name').execute();
  return rows.map((r) => ({ code: r.code, name: r.name, familiarName: r.familiar_name }));
}

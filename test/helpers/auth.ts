import type { FastifyInstance } from 'fastify';
import { hashPassword } from '#src/core/passwords.ts';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import type { AuthContext } from '#src/features/auth/account.ts';

export const GOOD_PASSWORD = 'Correct-Horse-9';

let hashed: Promise<string> | null = null;
/** Gives a user the test password (hashed once per file: argon2 is slow on purpose). */
export async function setPassword(db: Db, userId: number) {
  hashed ??= hashPassword(GOOD_PASSWORD);
  await db.updateTable('users').set({ password_hash: await hashed }).where('id', '=', userId).execute();
}

export async function setPhone(db: Db, userId: number, number = '2025550143') {
  await db.updateTable('users').set({ mobile_country_code: 'US', mobile_number: number }).where('id', '=', userId).execute();
}

export function ctxFor(app: FastifyInstance, community: Community, ip = '203.0.113.7'): AuthContext {
  return { db: app.db, clock: app.clock, config: app.config, tokens: app.sessionTokens, messages: app.messages, jobs: app.jobs, t: app.t, community, ip };
}

/** The 5-digit code in the newest message to an address, once the queue has sent what is due. */
export async function codeFrom(app: FastifyInstance, to: string, channel: 'email' | 'sms' = 'email'): Promise<string> {
  await app.jobs.drain();
  const message = app.outbox.latestTo(to, channel);
  const code = message && /\b(\d{5})\b/.exec(`${message.subject ?? ''} ${message.text}`)?.[1];
  if (!code) throw new Error(`No code sent to ${to} by ${channel}`);
  return code;
}

/** The link in the newest mail to this address, once the queue has run the reset job and sent its mail. */
export async function linkFrom(app: FastifyInstance, to: string): Promise<string> {
  await app.jobs.drain();
  const message = app.outbox.latestTo(to, 'email');
  const link = message && /(https?:\/\/\S+)/.exec(message.text)?.[1];
  if (!link) throw new Error(`No link sent to ${to}`);
  return link;
}

import type { RawDb } from '#src/db/index.ts';

type Choice = { username: string; option: string; channel: 'email' | 'web' | 'push'; selected: boolean };

/**
 * Demo notification preferences in the summit community: a few members changed what they get (push
 * off for editor feedback, no push about introductions, account security on their phone too), and
 * one gathers their email into the daily digest. Members not listed keep the catalogue's defaults.
 */
const CHOICES: Choice[] = [
  { username: 'amara.okafor', option: 'article_feedback', channel: 'push', selected: false },
  { username: 'amara.okafor', option: 'account_security', channel: 'push', selected: true },
  { username: 'daniel.reyes', option: 'introductions', channel: 'push', selected: false },
  { username: 'priya.raman', option: 'article_progress', channel: 'push', selected: false },
  { username: 'priya.raman', option: 'article_feedback', channel: 'push', selected: false },
  { username: 'mei.chen', option: 'article_progress', channel: 'email', selected: false },
];
const DIGEST = ['priya.raman'];

export async function seedPreferences(trx: RawDb, { communityId }: { communityId: number }): Promise<void> {
  const names = [...new Set([...CHOICES.map((c) => c.username), ...DIGEST])];
  const users = await trx
    .selectFrom('users')
    .innerJoin('memberships as m', 'm.user_id', 'users.id')
    .select(['users.id', 'users.username'])
    .where('m.community_id', '=', communityId)
    .where('users.username', 'in', names)
    .execute();
  const idOf = new Map(users.map((u) => [u.username, u.id]));
  const rows = CHOICES.filter((c) => idOf.has(c.username)).map((c) => ({ community_id: communityId, user_id: idOf.get(c.username)!, option: c.option, channel: c.channel, selected: c.selected }));
  if (rows.length) await trx.insertInto('notification_preferences').values(rows).execute();
  const digest = DIGEST.filter((u) => idOf.has(u)).map((u) => ({ community_id: communityId, user_id: idOf.get(u)!, email_digest: true }));
  if (digest.length) await trx.insertInto('notification_settings').values(digest).execute();
}

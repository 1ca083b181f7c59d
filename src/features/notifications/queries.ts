import type { Db } from '#src/db/index.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';
import type { NotificationChannel } from '#src/db/types.ts';
import { CHANNELS, kindOf, offers } from '#src/lib/notification-kinds.ts';
import { tenantOf, type Choices, type MemberRef } from './types.ts';

/**
 * A member's choices for one kind: the catalogue's defaults, overridden by what they changed
 * (`stored`), and never a channel the kind does not offer. An unknown kind (an old row) is shown on
 * the web and sent nowhere else.
 */
export function choicesOf(kind: string, stored: readonly { channel: string; selected: boolean }[]): Choices {
  const def = kindOf(kind);
  const choices: Choices = { ...(def?.defaults ?? { email: false, web: true, push: false }) };
  if (!def) return choices;
  for (const r of stored) if ((CHANNELS as readonly string[]).includes(r.channel)) choices[r.channel as NotificationChannel] = r.selected;
  for (const channel of CHANNELS) if (!offers(def, channel)) choices[channel] = false;
  return choices;
}

/** choicesOf with the member's stored changes for that kind read from the database. */
export async function choicesFor(db: Db, member: MemberRef, kind: string): Promise<Choices> {
  if (!kindOf(kind)) return choicesOf(kind, []);
  const rows = await selectInCommunity(db, 'notification_preferences', tenantOf(member))
    .select(['channel', 'selected'])
    .where('user_id', '=', member.userId)
    .where('option', '=', kind)
    .execute();
  return choicesOf(kind, rows);
}

/** Every stored choice of a member (the preferences page fills the rest from the catalogue). */
export async function storedChoices(db: Db, member: MemberRef): Promise<Map<string, Partial<Choices>>> {
  const rows = await selectInCommunity(db, 'notification_preferences', tenantOf(member))
    .select(['option', 'channel', 'selected'])
    .where('user_id', '=', member.userId)
    .execute();
  const map = new Map<string, Partial<Choices>>();
  for (const r of rows) map.set(r.option, { ...map.get(r.option), [r.channel]: r.selected });
  return map;
}

/** Whether the member gathers their notification email into a daily digest. */
export async function wantsDigest(db: Db, member: MemberRef): Promise<boolean> {
  const row = await selectInCommunity(db, 'notification_settings', tenantOf(member))
    .select('email_digest')
    .where('user_id', '=', member.userId)
    .executeTakeFirst();
  return row?.email_digest ?? false;
}

/**
 * Whether the member has a notification in the list they have not seen yet (the bell's dot): one
 * probe of the partial index notifications_unviewed.
 */
export async function hasUnviewed(db: Db, member: MemberRef): Promise<boolean> {
  const row = await selectInCommunity(db, 'notifications', tenantOf(member))
    .select('id')
    .where('user_id', '=', member.userId)
    .where('shown', '=', true)
    .where('viewed_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

import { AppError } from '#src/core/errors.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity } from '#src/db/tenancy.ts';
import type { NotificationChannel } from '#src/db/types.ts';
import { CHANNELS, kindGroups, kindOf, offers, type NotificationKindDef } from '#src/lib/notification-kinds.ts';
import { storedChoices, wantsDigest } from './queries.ts';
import { tenantOf, type Choices, type MemberRef } from './types.ts';

/**
 * A member's notification preferences (spec section 3, "Notification preference group"): the
 * catalogue's groups and options (src/lib/notification-kinds.ts), each with the member's choice per channel, and their
 * email rhythm (each email at once, or one daily digest). Only the choices a member changed are
 * stored; the catalogue's defaults fill the rest.
 *
 * A channel entry's id is `<kind>:<channel>`, e.g. `article_feedback:push`: what
 * notificationsPreferenceSelection(id, selected) takes, and the name of its checkbox in the form.
 *
 * The web channel decides whether a notification shows in the list and the bell when it is made
 * (notifications.shown): changing it affects future notifications only, never the ones already there.
 */

/** `available` false: this kind offers no choice on this channel (notification-kinds.ts `channels`); it stays off. */
export type PreferenceEntry = { id: string; channel: NotificationChannel; selected: boolean; available: boolean };
export type PreferenceOption = { id: string; name: string; description: string; email: PreferenceEntry; web: PreferenceEntry; push: PreferenceEntry };
export type PreferenceGroup = { id: string; group: string; options: PreferenceOption[] };
export type PreferencesView = { groups: PreferenceGroup[]; emailDigest: boolean };

export const entryId = (kind: string, channel: NotificationChannel) => `${kind}:${channel}`;

/** A channel entry's id parsed, or the catalogue's Notifications.UnknownPreference (400). */
export function parseEntryId(id: unknown): { kind: NotificationKindDef; channel: NotificationChannel } {
  const s = typeof id === 'string' ? id : typeof id === 'number' ? String(id) : '';
  const match = s.length <= 100 ? /^([a-z_]{1,60}):(email|web|push)$/.exec(s) : null;
  const kind = match ? kindOf(match[1]!) : undefined;
  if (!match || !kind || !offers(kind, match[2] as NotificationChannel)) throw new AppError('Notifications.UnknownPreference');
  return { kind, channel: match[2] as NotificationChannel };
}

function effective(def: NotificationKindDef, stored: Partial<Choices> | undefined): Choices {
  const c = { ...def.defaults, ...stored };
  for (const channel of CHANNELS) if (!offers(def, channel)) c[channel] = false;
  return c;
}

/** The member's groups and options with their names in the member's words, and the email rhythm. */
export async function preferencesOf(db: Db, member: MemberRef, t: Translate): Promise<PreferencesView> {
  const [stored, emailDigest] = await Promise.all([storedChoices(db, member), wantsDigest(db, member)]);
  const groups = kindGroups().map(({ group, kinds }) => ({
    id: group,
    group: t(`notifications.groups.${group}`),
    options: kinds.map((k) => {
      const c = effective(k, stored.get(k.id));
      const entry = (channel: NotificationChannel): PreferenceEntry => ({ id: entryId(k.id, channel), channel, selected: c[channel], available: offers(k, channel) });
      return {
        id: k.id,
        name: t(`notifications.kinds.${k.id}.name`),
        description: t(`notifications.kinds.${k.id}.description`),
        email: entry('email'),
        web: entry('web'),
        push: entry('push'),
      };
    }),
  }));
  return { groups, emailDigest };
}

type Change = { option: string; channel: NotificationChannel; selected: boolean };

async function storeChoices(db: Db, member: MemberRef, changes: Change[], now: Date): Promise<void> {
  if (changes.length === 0) return;
  await insertInCommunity(
    db,
    'notification_preferences',
    tenantOf(member),
    changes.map((c) => ({ user_id: member.userId, option: c.option, channel: c.channel, selected: c.selected, updated_at: now })),
  )
    .onConflict((oc) => oc.columns(['community_id', 'user_id', 'option', 'channel']).doUpdateSet((eb) => ({ selected: eb.ref('excluded.selected'), updated_at: eb.ref('excluded.updated_at') })))
    .execute();
}

/** notificationsPreferenceSelection: one channel of one option on or off; answers the entry as stored. */
export async function selectPreference(db: Db, member: MemberRef, id: unknown, selected: unknown, now: Date): Promise<PreferenceEntry> {
  const { kind, channel } = parseEntryId(id);
  if (typeof selected !== 'boolean') throw new AppError('BadRequest.Validation');
  await storeChoices(db, member, [{ option: kind.id, channel, selected }], now);
  return { id: entryId(kind.id, channel), channel, selected, available: true };
}

/** The email rhythm: true gathers notification email into one daily digest, false sends each at once. */
export async function setEmailDigest(db: Db, member: MemberRef, enabled: unknown, now: Date): Promise<boolean> {
  if (typeof enabled !== 'boolean') throw new AppError('BadRequest.Validation');
  await insertInCommunity(db, 'notification_settings', tenantOf(member), { user_id: member.userId, email_digest: enabled, updated_at: now })
    .onConflict((oc) => oc.columns(['community_id', 'user_id']).doUpdateSet({ email_digest: enabled, updated_at: now }))
    .execute();
  return enabled;
}

export const DIGEST_VALUES = { immediate: false, daily: true } as const;

/**
 * The page's one form without JavaScript: every checkbox (named by its entry id; present = on) and
 * the rhythm (`digest` = immediate | daily). Stores only what differs from the member's current
 * choices, so options left alone keep following the catalogue's defaults. One transaction.
 */
export async function savePreferencesForm(db: Db, member: MemberRef, body: Record<string, unknown>, now: Date): Promise<void> {
  const digest = body.digest;
  if (digest !== undefined && (typeof digest !== 'string' || !Object.hasOwn(DIGEST_VALUES, digest))) throw new AppError('BadRequest.Validation');
  await db.transaction().execute(async (trx) => {
    const stored = await storedChoices(trx, member);
    const changes: Change[] = [];
    for (const { kinds } of kindGroups()) {
      for (const k of kinds) {
        const current = effective(k, stored.get(k.id));
        for (const channel of CHANNELS) {
          if (!offers(k, channel)) continue;
          const selected = body[entryId(k.id, channel)] !== undefined;
          if (selected !== current[channel]) changes.push({ option: k.id, channel, selected });
        }
      }
    }
    await storeChoices(trx, member, changes, now);
    if (typeof digest === 'string') await setEmailDigest(trx, member, DIGEST_VALUES[digest as keyof typeof DIGEST_VALUES], now);
  });
}

/** Email off for one kind, or for every kind ('*'): what an unsubscribe link does. */
export async function stopEmail(db: Db, member: MemberRef, kind: string, now: Date): Promise<void> {
  const kinds = kind === '*' ? kindGroups().flatMap((g) => g.kinds.filter((k) => offers(k, 'email')).map((k) => k.id)) : [kind];
  await storeChoices(db, member, kinds.map((option) => ({ option, channel: 'email' as const, selected: false })), now);
}

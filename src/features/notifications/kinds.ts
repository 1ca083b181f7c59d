import type { NotificationChannel } from '#src/db/types.ts';

/**
 * The one catalogue of notification kinds. Each kind is a preference option (spec section 3,
 * "Notification preference group"): its title and description come from locales/en/notifications.json
 * (`notifications.kinds.<id>.name` / `.description`, groups under `notifications.groups.<group>`),
 * and its defaults say which channels are on until the member changes them. An area that makes a new
 * kind of notification adds one line here.
 */
export const CHANNELS: readonly NotificationChannel[] = ['email', 'web', 'push'];

export type NotificationKindDef = {
  id: string;
  group: string;
  defaults: Record<NotificationChannel, boolean>;
  /**
   * The channels a member may choose for this kind (all when absent). A kind whose event already
   * sends its own email (an introduction's outcome mails the introduction itself) offers no email
   * choice, so that nobody gets the same news twice.
   */
  channels?: readonly NotificationChannel[];
};

const all = { email: true, web: true, push: true };

export const NOTIFICATION_KINDS = [
  { id: 'article_progress', group: 'articles', defaults: all },
  { id: 'article_feedback', group: 'articles', defaults: all },
  { id: 'introductions', group: 'members', defaults: { email: false, web: true, push: true }, channels: ['web', 'push'] },
  { id: 'account_security', group: 'account', defaults: { email: true, web: true, push: false } },
  { id: 'payments', group: 'account', defaults: { email: false, web: true, push: true }, channels: ['web', 'push'] },
  { id: 'forum', group: 'forum', defaults: { email: false, web: true, push: true } },
  { id: 'expert_questions', group: 'expertPanels', defaults: all },
  { id: 'expert_answers', group: 'expertPanels', defaults: all },
] as const satisfies readonly NotificationKindDef[];

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]['id'];

const BY_ID = new Map<string, NotificationKindDef>(NOTIFICATION_KINDS.map((k) => [k.id, k]));

export function kindOf(id: string): NotificationKindDef | undefined {
  return BY_ID.get(id);
}

/** Whether the member may choose this channel for this kind (kinds.ts `channels`). */
export function offers(def: NotificationKindDef, channel: NotificationChannel): boolean {
  return !def.channels || def.channels.includes(channel);
}

export function isNotificationKind(id: unknown): id is NotificationKind {
  return typeof id === 'string' && BY_ID.has(id);
}

/** The groups in catalogue order, each with its kinds. */
export function kindGroups(): { group: string; kinds: NotificationKindDef[] }[] {
  const groups = new Map<string, NotificationKindDef[]>();
  for (const k of NOTIFICATION_KINDS) groups.set(k.group, [...(groups.get(k.group) ?? []), k]);
  return [...groups].map(([group, kinds]) => ({ group, kinds }));
}

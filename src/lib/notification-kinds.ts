import type { NotificationChannel } from '#src/db/types.ts';

/**
 * The catalogue of notification kinds, filled by the areas. Each kind is a preference option (spec
 * section 3, "Notification preference group"): its title and description come from the notifications
 * area's messages (`notifications.kinds.<id>.name` / `.description`, groups under
 * `notifications.groups.<group>`), and its defaults say which channels are on until the member changes
 * them. An area that makes a kind of notification declares it (`Area.notificationKinds`, in its own
 * notification-kinds.ts, which also adds its ids to `NotificationKindIds`); src/features/areas.ts
 * registers them at start.
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

/** The areas' kind ids: each area adds its own (`interface NotificationKindIds extends KindIds<typeof mine> {}`). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface NotificationKindIds {}
export type NotificationKind = keyof NotificationKindIds & string;
/** An area's kinds as the keys of NotificationKindIds. */
export type KindIds<K extends readonly { id: string }[]> = { [I in K[number]['id']]: true };

/** Channels on by default: all three. */
export const ALL_CHANNELS = { email: true, web: true, push: true } as const;

/** The preference page's groups, in the order it shows them; a group not named here comes after, in registration order. */
const GROUP_ORDER = ['articles', 'members', 'account', 'forum', 'expertPanels'];

const BY_ID = new Map<string, NotificationKindDef>();

/** Adds an area's kinds (src/features/areas.ts does, once per area). A kind may be declared once. */
export function registerNotificationKinds(kinds: readonly NotificationKindDef[]): void {
  for (const kind of kinds) {
    if (BY_ID.has(kind.id) && BY_ID.get(kind.id) !== kind) throw new Error(`notification kind ${kind.id} is declared twice`);
    BY_ID.set(kind.id, kind);
  }
}

/** Every registered kind, in registration order. */
export function notificationKinds(): NotificationKindDef[] {
  return [...BY_ID.values()];
}


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
  const groups = new Map<string, NotificationKindDef[]>(GROUP_ORDER.map((g) => [g, []]));
  for (const k of BY_ID.values()) groups.set(k.group, [...(groups.get(k.group) ?? []), k]);
  return [...groups].filter(([, kinds]) => kinds.length > 0).map(([group, kinds]) => ({ group, kinds }));
}

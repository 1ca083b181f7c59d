import type { KindIds, NotificationKindDef } from '#src/lib/notification-kinds.ts';

/**
 * This area's kind of notification: a message from the community team. On the web and by email by
 * default; push is the member's choice; each email carries its one-click unsubscribe for this kind.
 */
export const messageNotificationKinds = [{ id: 'team_messages', group: 'team', defaults: { email: true, web: true, push: false } }] as const satisfies readonly NotificationKindDef[];

export const TEAM_MESSAGES_KIND = 'team_messages' as const;

declare module '#src/lib/notification-kinds.ts' {
  interface NotificationKindIds extends KindIds<typeof messageNotificationKinds> {}
}

import type { KindIds, NotificationKindDef } from '#src/lib/notification-kinds.ts';

/** This area's kinds of notification: a chair hears of a request to join, the member of the answer. */
export const groupsNotificationKinds = [{ id: 'groups', group: 'groups', defaults: { email: true, web: true, push: true } }] as const satisfies readonly NotificationKindDef[];

declare module '#src/lib/notification-kinds.ts' {
  interface NotificationKindIds extends KindIds<typeof groupsNotificationKinds> {}
}

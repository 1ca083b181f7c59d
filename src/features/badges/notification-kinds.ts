import type { KindIds, NotificationKindDef } from '#src/lib/notification-kinds.ts';

/**
 * This area's kind of notification: a badge newly earned or awarded, told once. Good news, never
 * urgent: on the web (the bell and the list) by default; email and push are the member's choice.
 */
export const badgeNotificationKinds = [{ id: 'badges', group: 'badges', defaults: { email: false, web: true, push: false } }] as const satisfies readonly NotificationKindDef[];

declare module '#src/lib/notification-kinds.ts' {
  interface NotificationKindIds extends KindIds<typeof badgeNotificationKinds> {}
}

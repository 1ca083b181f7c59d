import type { KindIds, NotificationKindDef } from '#src/lib/notification-kinds.ts';

/** This area's kinds of notification (preference options): registered from src/features/areas.ts. */
export const memberNotificationKinds = [
  { id: 'introductions', group: 'members', defaults: { email: false, web: true, push: true }, channels: ['web', 'push'] },
] as const satisfies readonly NotificationKindDef[];

declare module '#src/lib/notification-kinds.ts' {
  interface NotificationKindIds extends KindIds<typeof memberNotificationKinds> {}
}

import type { KindIds, NotificationKindDef } from '#src/lib/notification-kinds.ts';

/** This area's kinds of notification (preference options): registered from src/features/areas.ts. */
export const authNotificationKinds = [
  { id: 'account_security', group: 'account', defaults: { email: true, web: true, push: false } },
] as const satisfies readonly NotificationKindDef[];

declare module '#src/lib/notification-kinds.ts' {
  interface NotificationKindIds extends KindIds<typeof authNotificationKinds> {}
}

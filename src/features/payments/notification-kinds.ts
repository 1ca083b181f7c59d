import type { KindIds, NotificationKindDef } from '#src/lib/notification-kinds.ts';

/** This area's kinds of notification (preference options): registered from src/features/areas.ts. */
export const paymentNotificationKinds = [
  { id: 'payments', group: 'account', defaults: { email: false, web: true, push: true }, channels: ['web', 'push'] },
] as const satisfies readonly NotificationKindDef[];

declare module '#src/lib/notification-kinds.ts' {
  interface NotificationKindIds extends KindIds<typeof paymentNotificationKinds> {}
}

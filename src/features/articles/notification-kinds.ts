import { ALL_CHANNELS, type KindIds, type NotificationKindDef } from '#src/lib/notification-kinds.ts';

/** This area's kinds of notification (preference options): registered from src/features/areas.ts. */
export const articleNotificationKinds = [
  { id: 'article_progress', group: 'articles', defaults: ALL_CHANNELS },
  { id: 'article_feedback', group: 'articles', defaults: ALL_CHANNELS },
] as const satisfies readonly NotificationKindDef[];

declare module '#src/lib/notification-kinds.ts' {
  interface NotificationKindIds extends KindIds<typeof articleNotificationKinds> {}
}

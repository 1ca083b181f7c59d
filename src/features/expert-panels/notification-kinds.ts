import { ALL_CHANNELS, type KindIds, type NotificationKindDef } from '#src/lib/notification-kinds.ts';

/** This area's kinds of notification (preference options): registered from src/features/areas.ts. */
export const expertPanelNotificationKinds = [
  { id: 'expert_questions', group: 'expertPanels', defaults: ALL_CHANNELS },
  { id: 'expert_answers', group: 'expertPanels', defaults: ALL_CHANNELS },
] as const satisfies readonly NotificationKindDef[];

declare module '#src/lib/notification-kinds.ts' {
  interface NotificationKindIds extends KindIds<typeof expertPanelNotificationKinds> {}
}

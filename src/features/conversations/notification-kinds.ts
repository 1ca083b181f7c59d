import type { KindIds, NotificationKindDef } from '#src/lib/notification-kinds.ts';

/**
 * This area's kind of notification: a message from a member one was introduced to. A person wrote to
 * the member, so every channel is on until they change it; one notice per conversation until they
 * read it (decision 0058), so a lively thread does not fill the bell or the inbox.
 */
export const conversationNotificationKinds = [{ id: 'conversations', group: 'members', defaults: { email: true, web: true, push: true } }] as const satisfies readonly NotificationKindDef[];

declare module '#src/lib/notification-kinds.ts' {
  interface NotificationKindIds extends KindIds<typeof conversationNotificationKinds> {}
}

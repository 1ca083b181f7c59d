import { AdminTabs } from '#views/admin/tab-frame.tsx';
import { usePage } from './page-context.tsx';

/**
 * A member's messages (/messages) are served by two areas side by side: messages (what the community
 * team sends: "From the team") and conversations (between members who were introduced). Each serves
 * its own tab; the tabs are listed here once (paths only, no area imported) so both pages draw the
 * same navigation.
 */
export const MESSAGES_TABS = [
  { key: 'team', path: '/messages' },
  { key: 'conversations', path: '/messages/conversations' },
] as const;

export type MessagesTab = (typeof MESSAGES_TABS)[number]['key'];

/** `unread` per tab, shown in words after the tab's name ("From the team, 2 unread"). */
export function MessagesTabs({ current, unread = {} }: { current: MessagesTab; unread?: Partial<Record<MessagesTab, number>> }) {
  const { t } = usePage();
  return (
    <AdminTabs
      label={t('shell.messagesTabs.label')}
      tabs={MESSAGES_TABS.map((tab) => {
        const count = unread[tab.key] ?? 0;
        const name = t(`shell.messagesTabs.${tab.key}`);
        return { ...tab, label: count > 0 ? t('shell.messagesTabs.withUnread', { name, count }) : name };
      })}
      current={current}
    />
  );
}

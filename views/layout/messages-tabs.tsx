import { Tabs } from '#views/kit/tabs.tsx';
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

/** Beyond this many unread, a count says "more than 99" (the services count no further than one more). */
export const MANY_UNREAD = 99;

/** `unread` per tab, shown in words after the tab's name ("From the team, 2 unread"). */
export function MessagesTabs({ current, unread = {} }: { current: MessagesTab; unread?: Partial<Record<MessagesTab, number>> }) {
  const { t } = usePage();
  return (
    <Tabs
      label={t('shell.messagesTabs.label')}
      tabs={MESSAGES_TABS.map((tab) => {
        const count = unread[tab.key] ?? 0;
        const name = t(`shell.messagesTabs.${tab.key}`);
        const label = count > MANY_UNREAD ? t('shell.messagesTabs.withManyUnread', { name, count: MANY_UNREAD }) : count > 0 ? t('shell.messagesTabs.withUnread', { name, count }) : name;
        return { ...tab, label };
      })}
      current={current}
    />
  );
}

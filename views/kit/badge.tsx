import type { ReactNode } from 'react';
import { usePage } from '#views/layout/page-context.tsx';

/**
 * A badge: a short status or count beside a name ("New", "3 new", "Closed"), never a control. The
 * tone says the kind of news; the words say it too (colour is never the only sign).
 */
/** `strong`: news for this member ("New", "3 new"), solid in the community's colour. */
export type Tone = 'neutral' | 'brand' | 'strong' | 'success' | 'warning' | 'danger' | 'info';

export function Badge({ tone = 'brand', children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  return <span className={['badge', tone === 'brand' ? '' : `badge-${tone}`, className ?? ''].filter(Boolean).join(' ')}>{children}</span>;
}

/**
 * What is new for the viewer in a thread, after its title: "New" when they never opened it, else
 * "N new" for the replies since their visit (the forum's read state, decision 0065), else nothing.
 * A space comes first, so it sits after a title's link as a word does.
 */
export function ReadStateBadge({ unread, newCount }: { unread: boolean; newCount: number }) {
  const { t } = usePage();
  if (!unread && newCount <= 0) return null;
  return (
    <>
      {' '}
      <Badge tone="strong">{unread ? t('shell.readState.unread') : t('shell.readState.newReplies', { n: newCount })}</Badge>
    </>
  );
}

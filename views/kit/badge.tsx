import type { ReactNode } from 'react';

/**
 * A badge: a short status or count beside a name ("New", "3 new", "Closed"), never a control. The
 * tone says the kind of news; the words say it too (colour is never the only sign).
 */
/** `strong`: news for this member ("New", "3 new"), solid in the community's colour. */
export type Tone = 'neutral' | 'brand' | 'strong' | 'success' | 'warning' | 'danger' | 'info';

export function Badge({ tone = 'brand', children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  return <span className={['badge', tone === 'brand' ? '' : `badge-${tone}`, className ?? ''].filter(Boolean).join(' ')}>{children}</span>;
}

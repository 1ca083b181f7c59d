import type { ReactNode } from 'react';

/**
 * What a list or page shows when it has nothing yet: one sentence saying so, perhaps why, and the one
 * action that fills it ("Start a topic"). Not an error: no alert role.
 */
export function EmptyState({ title, children, action, className }: { title: ReactNode; children?: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={className ? `empty-state ${className}` : 'empty-state'}>
      <p className="empty-state-title">{title}</p>
      {children ? <div className="empty-state-text">{children}</div> : null}
      {action ? <div className="empty-state-action">{action}</div> : null}
    </div>
  );
}

import type { ReactNode } from 'react';

/**
 * A message box: an error is announced at once (role alert), the others politely (role status).
 * Kinds: error, warning, success, info.
 */
export function Alert({ kind, children, className }: { kind: 'error' | 'warning' | 'success' | 'info'; children: ReactNode; className?: string }) {
  return (
    <div className={['alert', `alert-${kind}`, className ?? ''].filter(Boolean).join(' ')} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/**
 * The toast: what a page says once after a form's POST redirected to it (POST, 303, GET with
 * `?done=…`): "Saved.", "Invitation sent." An Alert of kind success (or info), announced politely,
 * at the top of the page's content; it stays until the next page (no timer, nothing to miss).
 */
export function Toast({ children, kind = 'success' }: { children: ReactNode; kind?: 'success' | 'info' }) {
  return (
    <Alert kind={kind} className="toast">
      {children}
    </Alert>
  );
}

import type { ReactNode } from 'react';

/** The card the sign-in screens sit in. */
export function AuthCard({ heading, intro, children, alert }: { heading: string; intro?: ReactNode; children: ReactNode; alert?: ReactNode }) {
  return (
    <section className="auth-card" aria-labelledby="auth-heading">
      <h1 id="auth-heading">{heading}</h1>
      {alert}
      {intro ? <p className="auth-intro">{intro}</p> : null}
      {children}
    </section>
  );
}

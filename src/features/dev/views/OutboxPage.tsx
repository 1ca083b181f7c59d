import type { SentMessage } from '#src/lib/messaging/mail.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { usePage } from '#views/layout/page-context.tsx';

export function OutboxPage({ messages }: { messages: SentMessage[] }) {
  const { t } = usePage();
  return (
    <section>
      <h1>{t('auth.outbox.heading')}</h1>
      <p className="lead">{t('auth.outbox.intro')}</p>
      {messages.length === 0 ? <EmptyState title={t('auth.outbox.empty')} /> : null}
      {messages.map((m) => (
        <article key={m.id} className="outbox-message">
          <h2>{m.subject ?? m.text.slice(0, 60)}</h2>
          <p className="outbox-meta">
            {t('auth.outbox.to')}: {m.to} · {m.channel.toUpperCase()} · {t('auth.outbox.at')}: {m.at.toISOString()}
          </p>
          <pre className="outbox-body">{m.text}</pre>
        </article>
      ))}
    </section>
  );
}

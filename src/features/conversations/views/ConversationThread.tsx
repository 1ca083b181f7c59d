import { formatDate } from '#shared/format.ts';
import type { ConversationThread } from '#src/features/conversations/index.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { CsrfField, TextArea } from '#views/kit/form.tsx';
import { MemberAvatar } from '#views/kit/member-avatar.tsx';
import { MessagesTabs } from '#views/layout/messages-tabs.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

export type ThreadForm = {
  /** What was typed, kept when it is refused. */
  body: string;
  error?: string;
  /** The message's limit, for the hint. */
  max: number;
};

const timeOf = (d: Date) => new Date(d).toISOString().slice(11, 16);

/**
 * `/messages/conversations/{id}` (and `/with/{userId}` before the first message): the messages, newest
 * at the bottom, then the reply form (a plain POST, then back here), and the block or unblock button.
 * A message is shown as typed: escaped, its line breaks kept, its links as text.
 */
export function ConversationThreadPage({ thread, form, action }: { thread: ConversationThread; form: ThreadForm; action: string }) {
  const { t } = usePage();
  const href = useHref();
  const name = thread.other.name;
  const base = thread.id === null ? null : `/messages/conversations/${thread.id}`;
  return (
    <section className="conversation" aria-labelledby="conversation-heading">
      <MessagesTabs current="conversations" unread={{ conversations: thread.unreadConversations }} />
      <p>
        <a href={href('/messages/conversations')}>{t('conversations.thread.back')}</a>
      </p>
      <header className="conversation-head">
        <MemberAvatar member={thread.other} />
        <div>
          <h1 id="conversation-heading">{t('conversations.thread.heading', { name })}</h1>
          {thread.other.isActive ? (
            <p className="muted">
              <a href={href(`/profile/${thread.other.id}`)}>{t('conversations.thread.profile', { name })}</a>
            </p>
          ) : null}
        </div>
      </header>
      {thread.earlier && base ? (
        <p>
          <a href={href(`${base}?before=${encodeURIComponent(thread.earlier)}`)} rel="prev">
            {t('conversations.thread.earlier')}
          </a>
        </p>
      ) : null}
      {thread.messages.length === 0 ? (
        <EmptyState title={t('conversations.thread.empty')} />
      ) : (
        <ol className="conversation-messages plain" aria-label={t('conversations.thread.messagesLabel')}>
          {thread.messages.map((m) => (
            <li key={m.id} id={`m${m.id}`} className={m.fromMe ? 'conversation-message conversation-mine' : 'conversation-message'}>
              <p className="conversation-sender">
                <strong>{m.senderName}</strong>{' '}
                <time className="muted" dateTime={new Date(m.at).toISOString()}>
                  {t('conversations.thread.sentAt', { date: formatDate(m.at), time: timeOf(m.at) })}
                </time>
              </p>
              <p className="conversation-body">{m.body}</p>
            </li>
          ))}
        </ol>
      )}
      {thread.older && base ? (
        <p>
          <a href={href(base)}>{t('conversations.thread.latest')}</a>
        </p>
      ) : null}
      {thread.state === 'open' ? (
        <form method="post" action={href(action)} className="conversation-reply" id="reply">
          <CsrfField />
          <TextArea
            id="conversation-body"
            name="body"
            label={t('conversations.thread.form.label', { name })}
            hint={t('conversations.thread.form.hint', { max: form.max.toLocaleString('en-US') })}
            value={form.body}
            error={form.error}
            rows={5}
          />
          <p className="button-row">
            <button type="submit" className="button">
              {t('conversations.thread.form.send')}
            </button>
          </p>
        </form>
      ) : (
        <p className="conversation-closed" role={form.error ? 'alert' : undefined}>
          {thread.state === 'blockedByMe'
            ? t('conversations.thread.blockedByMe')
            : thread.state === 'blockedByThem'
              ? t('conversations.thread.blockedByThem', { name })
              : t('conversations.thread.closed', { name })}
        </p>
      )}
      {base && thread.state !== 'blockedByThem' && thread.state !== 'closed' ? (
        <form method="post" action={href(`${base}/${thread.state === 'blockedByMe' ? 'unblock' : 'block'}`)} className="conversation-block">
          <CsrfField />
          {thread.state === 'open' ? <p className="field-hint">{t('conversations.thread.blockHint', { name: thread.other.firstName })}</p> : null}
          <button type="submit" className="button button-secondary">
            {thread.state === 'blockedByMe' ? t('conversations.thread.unblock') : t('conversations.thread.block')}
          </button>
        </form>
      ) : null}
    </section>
  );
}

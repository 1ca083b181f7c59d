import { formatDate } from '#shared/format.ts';
import type { InboxMessage, InboxPage as InboxPageData } from '#src/features/messages/index.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { MANY_UNREAD, MessagesTabs } from '#views/layout/messages-tabs.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** `/messages`: "From the team", the messages the community team sent the member, newest first, unread in words. */
export function InboxPage({ page, after }: { page: InboxPageData; after: string | null }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="team-messages">
      <h1>{t('messages.inbox.heading')}</h1>
      <MessagesTabs current="team" unread={{ team: page.unread }} />
      <p>{page.unread > MANY_UNREAD ? t('messages.inbox.unreadMany', { count: MANY_UNREAD }) : page.unread > 0 ? t('messages.inbox.unreadCount', { count: page.unread }) : t('messages.inbox.allRead')}</p>
      {page.items.length === 0 ? (
        // Past the last page there is no "yet": a plain line above the link back to the newest.
        after ? <p>{t('messages.inbox.noMore')}</p> : <EmptyState title={t('messages.inbox.empty')} />
      ) : (
        <ul className="message-list">
          {page.items.map((m) => (
            <li key={m.id} className={m.read ? 'message-item' : 'message-item message-unread'}>
              <a href={href(`/messages/team/${m.id}`)}>
                {m.read ? null : <strong>{t('messages.inbox.unread')}: </strong>}
                {m.subject}
              </a>
              <p className="muted">{t('messages.inbox.meta', { sender: m.senderName ?? t('messages.inbox.theTeam'), date: formatDate(m.sentAt) })}</p>
            </li>
          ))}
        </ul>
      )}
      <nav aria-label={t('messages.inbox.pages')}>
        <ul className="board-links">
          {after ? (
            <li>
              <a href={href('/messages')}>{t('messages.inbox.newest')}</a>
            </li>
          ) : null}
          {page.next ? (
            <li>
              <a href={href(`/messages?after=${encodeURIComponent(page.next)}`)} rel="next">
                {t('messages.inbox.older')}
              </a>
            </li>
          ) : null}
        </ul>
      </nav>
    </section>
  );
}

/** `/messages/team/{id}`: one message from the team (opening it marked it read). */
export function MessagePage({ message, unread }: { message: InboxMessage; unread: number }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <article className="team-message">
      <MessagesTabs current="team" unread={{ team: unread }} />
      <p>
        <a href={href('/messages')}>{t('messages.message.back')}</a>
      </p>
      <h1>{message.subject}</h1>
      <p className="muted">{t('messages.inbox.meta', { sender: message.senderName ?? t('messages.inbox.theTeam'), date: formatDate(message.sentAt) })}</p>
      <div className="rich-text" dangerouslySetInnerHTML={{ __html: message.bodyHtml }} />
    </article>
  );
}

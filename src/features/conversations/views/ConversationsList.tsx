import { formatDate } from '#shared/format.ts';
import type { ConversationListPage, ConversationSummary } from '#src/features/conversations/index.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { MemberAvatar } from '#views/kit/member-avatar.tsx';
import { MessagesTabs } from '#views/layout/messages-tabs.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** What a line says of the conversation's state, when it is not open. */
function StateNote({ item }: { item: ConversationSummary }) {
  const { t } = usePage();
  if (item.state === 'blockedByMe') return <span className="conversation-state">{t('conversations.list.blockedByMe')}</span>;
  if (item.state === 'blockedByThem') return <span className="conversation-state">{t('conversations.list.blockedByThem', { name: item.other.firstName })}</span>;
  if (item.state === 'closed') return <span className="conversation-state">{t('conversations.list.closed')}</span>;
  return null;
}

/** `/messages/conversations`: the member's conversations, newest activity first; unread ones say so in words. */
export function ConversationsList({ page }: { page: ConversationListPage }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="conversations">
      <h1>{t('conversations.list.heading')}</h1>
      <MessagesTabs current="conversations" unread={{ conversations: page.unreadConversations }} />
      <p className="lead">{t('conversations.list.intro')}</p>
      {page.items.length === 0 ? (
        <EmptyState title={t('conversations.list.none')} />
      ) : (
        <ul className="conversation-list plain">
          {page.items.map((item) => (
            <li key={item.id} className={item.unread > 0 ? 'conversation-item conversation-unread' : 'conversation-item'}>
              <MemberAvatar member={item.other} />
              <div className="conversation-summary">
                <h2 className="conversation-name">
                  <a href={href(`/messages/conversations/${item.id}`)}>{item.other.name}</a>
                </h2>
                {item.other.jobTitle || item.other.companyName ? <p className="conversation-work muted">{[item.other.jobTitle, item.other.companyName].filter(Boolean).join(', ')}</p> : null}
                <p className="conversation-excerpt">
                  {item.lastFromMe ? t('conversations.list.you') : ''}
                  {item.excerpt}
                </p>
                <p className="conversation-meta muted">
                  {item.unread > 0 ? <strong className="conversation-count">{t('conversations.list.unread', { count: item.unread })}</strong> : null}
                  <span>{t('conversations.list.lastAt', { date: formatDate(item.lastMessageAt) })}</span>
                  <StateNote item={item} />
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {page.next || page.later ? (
        <p className="button-row">
          {page.later ? <a href={href('/messages/conversations')}>{t('conversations.list.first')}</a> : null}
          {page.next ? (
            <a href={href(`/messages/conversations?after=${encodeURIComponent(page.next)}`)} rel="next">
              {t('conversations.list.next')}
            </a>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

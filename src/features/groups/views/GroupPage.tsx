import type { GroupView } from '#src/features/groups/index.ts';
import type { PostSummary } from '#src/features/forum/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { ReadStateBadge } from '#views/kit/badge.tsx';
import { DateText } from '#views/kit/date-text.tsx';
import { CsrfField, Field, Hidden, TextArea } from '#views/kit/form.tsx';
import { List, ListRow } from '#views/kit/list-row.tsx';
import { FaceStack, MemberAvatar } from '#views/kit/member-avatar.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { People } from './parts.tsx';

type Typed = { values: Record<string, string>; errors: Record<string, string> };

/** `/groups/{slug}`: about, chairs and members, the waiting requests (chairs), the discussion and its new-post form. */
export function GroupPage({ group, posts, next, after, notice, typed }: { group: GroupView; posts: PostSummary[]; next: string | null; after: string | null; notice?: string; typed?: Typed }) {
  const { t } = usePage();
  const href = useHref();
  const a = group.abilities;
  // Its only chair stays until staff name another.
  const canLeave = group.myRole === 'member' || (group.myRole === 'chair' && group.chairs.length > 1);
  return (
    <article className="group">
      <h1>{group.name}</h1>
      {group.image ? <img className="group-image" src={href(group.image.path)} alt="" width={640} height={360} /> : null}
      <p className="muted">
        {t(`groups.visibility.${group.visibility}`)} · {t('groups.members', { count: group.memberCount })}
        {group.myRole ? ` · ${t(`groups.role.${group.myRole}`)}` : ''}
      </p>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {group.visibility === 'preview' ? <Alert kind="info">{t('groups.previewNote')}</Alert> : null}
      {group.aboutHtml ? <div className="group-about" dangerouslySetInnerHTML={{ __html: group.aboutHtml }} /> : null}
      {a.canRequest || (group.requested && !group.myRole) || canLeave ? (
        <div className="group-actions">
          {a.canRequest ? (
            <form method="post" action={href(`/groups/${group.slug}/join`)}>
              <CsrfField />
              <button type="submit" className="button">
                {t('groups.join')}
              </button>
            </form>
          ) : group.requested && !group.myRole ? (
            <p>{t('groups.requestWaiting')}</p>
          ) : null}
          {canLeave ? (
            <form method="post" action={href(`/groups/${group.slug}/leave`)}>
              <CsrfField />
              <button type="submit" className="button button-secondary" aria-label={t('groups.leaveLabel', { name: group.name })}>
                {t('groups.leave')}
              </button>
            </form>
          ) : null}
        </div>
      ) : null}
      {a.canChair && group.requests.length ? (
        <section aria-labelledby="requests">
          <h2 id="requests">{t('groups.requestsHeading', { count: group.requests.length })}</h2>
          <ul className="group-requests">
            {group.requests.map((r) => (
              <li key={r.id}>
                <a href={href(`/profile/${r.member.id}`)}>{r.member.name}</a> <DateText at={r.createdAt} />
                {(['accept', 'decline'] as const).map((d) => (
                  <form key={d} method="post" action={href(`/groups/${group.slug}/requests/${r.id}`)} className="inline-form">
                    <CsrfField />
                    <Hidden name="decision" value={d} />
                    <button type="submit" className={d === 'accept' ? 'button' : 'button button-secondary'} aria-label={t(`groups.${d}Label`, { name: r.member.name })}>
                      {t(`groups.${d}`)}
                    </button>
                  </form>
                ))}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="chairs">
        <h2 id="chairs">{t('groups.chairsHeading')}</h2>
        {group.chairs.length ? <People people={group.chairs} label={t('groups.chairsHeading')} /> : <p>{t('groups.noChairs')}</p>}
      </section>
      {group.discussion ? (
      <section aria-labelledby="discussion">
        <h2 id="discussion">{t('groups.discussionHeading')}</h2>
        {a.canRead ? (
          <>
            {posts.length ? (
              <List>
                {posts.map((p) => (
                  <ListRow
                    key={p.id}
                    unread={p.unread}
                    lead={<MemberAvatar member={p.author} />}
                    title={
                      <>
                        <a href={href(`/groups/${group.slug}/posts/${p.id}`)}>{p.title}</a>
                        <ReadStateBadge unread={p.unread} newCount={p.newReplyCount} />
                      </>
                    }
                    meta={
                      <>
                        <span className="list-row-excerpt">{p.excerpt}</span>
                        <span>
                          <FaceStack members={p.repliers} /> {p.author.name} · <DateText at={p.lastActivityAt} /> · {t('groups.replies', { count: p.replyCount })}
                          {p.status !== 'published' ? ` · ${t(`groups.status.${p.status}`)}` : ''}
                        </span>
                      </>
                    }
                  />
                ))}
              </List>
            ) : (
              <p>{t('groups.noPosts')}</p>
            )}
            {next || after ? (
              <ul className="board-links">
                {after ? (
                  <li>
                    <a href={href(`/groups/${group.slug}#discussion`)}>{t('groups.firstPosts')}</a>
                  </li>
                ) : null}
                {next ? (
                  <li>
                    <a href={href(`/groups/${group.slug}?after=${encodeURIComponent(next)}#discussion`)} rel="next">
                      {t('groups.morePosts')}
                    </a>
                  </li>
                ) : null}
              </ul>
            ) : null}
          </>
        ) : null}
        {a.canPost ? (
          <form method="post" action={href(`/groups/${group.slug}/posts`)} noValidate className="group-new-post">
            <h3>{t('groups.newPost')}</h3>
            <CsrfField />
            <Field id="post-title" name="title" label={t('groups.field.title')} maxLength={400} defaultValue={typed?.values.title ?? ''} error={typed?.errors.title} />
            <TextArea id="post-body" name="body" label={t('groups.field.body')} hint={t('groups.field.bodyHint')} value={typed?.values.body ?? ''} error={typed?.errors.body} rows={6} />
            <button type="submit" className="button">
              {t('groups.publish')}
            </button>
          </form>
        ) : a.canRequest || group.requested ? (
          <p>{t('groups.joinToPost')}</p>
        ) : null}
      </section>
      ) : null}
      <section aria-labelledby="members">
        <h2 id="members">{t('groups.membersHeading')}</h2>
        {group.members.length ? <People people={group.members} label={t('groups.membersHeading')} /> : <p>{t('groups.noMembers')}</p>}
      </section>
      <p>
        <a href={href('/groups')}>{t('groups.back')}</a>
      </p>
    </article>
  );
}

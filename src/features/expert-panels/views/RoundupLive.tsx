import { formatDate } from '#shared/format.ts';
import type { PublishedRoundup } from '#src/features/expert-panels/index.ts';
import { MemberAvatar as ForumAvatar } from '#views/kit/member-avatar.tsx';
import { usePage } from '#views/layout/page-context.tsx';

/**
 * A published roundup's live page (/expert-panels/roundups/{slug}), readable signed out: its title,
 * when it was published, the introduction, the question, then each answer in order under the
 * member's face, name and company.
 */
export function RoundupLive({ roundup: r }: { roundup: PublishedRoundup }) {
  const { t } = usePage();
  return (
    <article className="ep-roundup" aria-labelledby="roundup-title">
      <header className="ep-roundup-head">
        <p className="ep-roundup-kicker">{t('expertPanelsRoundups.live.kicker')}</p>
        <h1 id="roundup-title">{r.title}</h1>
        <p className="muted">
          <time dateTime={r.publishedAt.toISOString()}>{t('expertPanelsRoundups.live.published', { date: formatDate(r.publishedAt) })}</time>
          {' · '}
          {t('expertPanelsRoundups.live.count', { n: r.answers.length })}
        </p>
      </header>
      {r.introHtml ? <div className="ep-roundup-prose ep-roundup-intro" dangerouslySetInnerHTML={{ __html: r.introHtml }} /> : null}
      <section className="ep-roundup-question" aria-labelledby="roundup-question">
        <h2 id="roundup-question">{t('expertPanelsRoundups.live.question')}</h2>
        <p className="ep-roundup-question-title">{r.questionTitle}</p>
        {r.questionBriefHtml ? <div className="ep-roundup-prose" dangerouslySetInnerHTML={{ __html: r.questionBriefHtml }} /> : null}
      </section>
      <section aria-labelledby="roundup-answers">
        <h2 id="roundup-answers">{t('expertPanelsRoundups.live.answers')}</h2>
        <ol className="plain ep-roundup-list">
          {r.answers.map((a) => {
            const m = a.member;
            const role = [m.jobTitle, m.companyName].filter(Boolean).join(', ');
            return (
              <li key={a.answerId} id={`answer-${a.answerId}`} className="ep-roundup-answer">
                <div className="forum-author ep-roundup-member">
                  <ForumAvatar member={m} />
                  <div>
                    <h3 className="ep-roundup-name">{m.name}</h3>
                    {role ? <p className="muted">{role}</p> : null}
                  </div>
                </div>
                <div className="ep-roundup-prose" dangerouslySetInnerHTML={{ __html: a.bodyHtml }} />
              </li>
            );
          })}
        </ol>
      </section>
    </article>
  );
}

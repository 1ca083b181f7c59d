import { formatDate } from '#shared/format.ts';
import type { RoundupDetail } from '#src/features/expert-panels/index.ts';
import { ActionForm, dateTime } from '#views/admin/tab-frame.tsx';
import { CsrfField, Field } from '#views/kit/form.tsx';
import { TextArea } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { RoundupFrame, RoundupMember, type RoundupFormState } from '#src/features/expert-panels/views/admin/RoundupParts.tsx';

/**
 * One roundup for its editors: its status and the moves allowed from it (buttons), its title and
 * introduction, its answers in order (move up or down, remove), the question's accepted answers not
 * yet in it (add), the history of its moves, and the live address once published. Published, its
 * content is frozen: the forms are gone.
 */
export function RoundupPage({ roundup: r, form }: { roundup: RoundupDetail; form: RoundupFormState }) {
  const { t } = usePage();
  const href = useHref();
  const base = `/admin/expert-panels/roundups/${r.id}`;
  const frozen = r.status === 'FINAL';
  const statusLabel = t(`expertPanelsRoundups.status.${r.status}`);
  const e = form.errors;
  return (
    <RoundupFrame heading={t('expertPanelsRoundups.page.heading', { title: r.title })} error={e.form}>
      <p>
        <a href={href('/admin/expert-panels/roundups')}>{t('expertPanelsRoundups.page.back')}</a>
      </p>
      <p className="muted">{t('expertPanelsRoundups.page.question', { title: r.questionTitle })}</p>
      <p>
        <span className="badge">{t('expertPanelsRoundups.page.status', { status: statusLabel })}</span>
      </p>
      {r.livePath && r.publishedAt ? (
        <p className="ep-roundup-live">
          {t('expertPanelsRoundups.page.liveAt', { date: formatDate(r.publishedAt) })} <a href={href(r.livePath)}>{r.livePath}</a>
        </p>
      ) : null}

      <section aria-labelledby="rp-moves" id="moves">
        <h2 id="rp-moves">{t('expertPanelsRoundups.page.moves')}</h2>
        {r.allowedMoves.length === 0 ? (
          <p>{t('expertPanelsRoundups.page.noMoves')}</p>
        ) : (
          <>
            <p className="muted">{t('expertPanelsRoundups.page.movesHint', { status: statusLabel })}</p>
            <div className="button-row">
              {r.allowedMoves.map((to) => (
                <ActionForm key={to} action={`${base}/move`} label={t(`expertPanelsRoundups.moveTo.${to}`)} fields={{ to }} secondary={to === 'DRAFT' || (to === 'EDITOR_REVIEW' && r.status !== 'DRAFT')} />
              ))}
            </div>
          </>
        )}
      </section>

      <section aria-labelledby="rp-compose" id="compose">
        <h2 id="rp-compose">{t('expertPanelsRoundups.page.compose')}</h2>
        {frozen ? (
          <>
            <p className="muted">{t('expertPanelsRoundups.page.frozen')}</p>
            {r.introHtml ? <div className="ep-roundup-prose" dangerouslySetInnerHTML={{ __html: r.introHtml }} /> : null}
          </>
        ) : (
          <form method="post" action={href(base)} className="stack" noValidate>
            <CsrfField />
            <Field id="rp-title" name="title" label={t('expertPanelsRoundups.form.title')} defaultValue={form.values.title ?? ''} error={e.title} maxLength={200} required />
            <TextArea id="rp-intro" name="intro" label={t('expertPanelsRoundups.form.introLabel')} value={form.values.intro ?? ''} error={e.intro} hint={t('expertPanelsRoundups.form.introHint')} rows={6} />
            <button type="submit" className="button">
              {t('expertPanelsRoundups.form.save')}
            </button>
          </form>
        )}
      </section>

      <section aria-labelledby="rp-answers" id="answers">
        <h2 id="rp-answers">{t('expertPanelsRoundups.page.answers')}</h2>
        {e.answerIds ? (
          <p className="field-error" role="alert">
            {e.answerIds}
          </p>
        ) : null}
        {r.answers.length === 0 ? <p>{t('expertPanelsRoundups.page.noAnswers')}</p> : null}
        <ol className="plain ep-roundup-answers">
          {r.answers.map((a, i) => (
            <li key={a.answerId} id={`answer-${a.answerId}`} className="card">
              <RoundupMember answer={a} as="h3" />
              <p className="muted">
                {t('expertPanelsRoundups.page.position', { n: i + 1 })} {t('expertPanelsRoundups.page.words', { n: a.wordCount })}
              </p>
              <div className="ep-roundup-prose" dangerouslySetInnerHTML={{ __html: a.bodyHtml }} />
              {frozen ? null : (
                <div className="button-row">
                  {i > 0 ? <ActionForm action={`${base}/answers/${a.answerId}/move`} label={t('expertPanelsRoundups.page.up')} ariaLabel={t('expertPanelsRoundups.page.upLabel', { name: a.member.name })} fields={{ direction: 'up' }} secondary /> : null}
                  {i < r.answers.length - 1 ? (
                    <ActionForm action={`${base}/answers/${a.answerId}/move`} label={t('expertPanelsRoundups.page.down')} ariaLabel={t('expertPanelsRoundups.page.downLabel', { name: a.member.name })} fields={{ direction: 'down' }} secondary />
                  ) : null}
                  <ActionForm action={`${base}/answers/${a.answerId}/remove`} label={t('expertPanelsRoundups.page.remove')} ariaLabel={t('expertPanelsRoundups.page.removeLabel', { name: a.member.name })} secondary />
                </div>
              )}
            </li>
          ))}
        </ol>
        {!frozen && r.answers.length > 1 ? (
          <form method="post" action={href(`${base}/order`)} className="ep-roundup-order">
            <CsrfField />
            <fieldset>
              <legend>{t('expertPanelsRoundups.page.order')}</legend>
              <p className="field-hint">{t('expertPanelsRoundups.page.orderHint')}</p>
              <div className="ep-roundup-places">
                {r.answers.map((a, i) => (
                  <Field key={a.answerId} id={`place-${a.answerId}`} name={`position-${a.answerId}`} label={t('expertPanelsRoundups.page.placeOf', { name: a.member.name })} defaultValue={String(i + 1)} inputMode="numeric" size={4} maxLength={4} />
                ))}
              </div>
              <button type="submit" className="button button-secondary">
                {t('expertPanelsRoundups.page.saveOrder')}
              </button>
            </fieldset>
          </form>
        ) : null}
      </section>

      {frozen ? null : (
        <section aria-labelledby="rp-candidates" id="candidates">
          <h2 id="rp-candidates">{t('expertPanelsRoundups.page.candidates')}</h2>
          {r.candidates.length === 0 ? <p>{t('expertPanelsRoundups.page.noCandidates')}</p> : null}
          <ul className="plain ep-roundup-answers">
            {r.candidates.map((a) => (
              <li key={a.answerId} id={`candidate-${a.answerId}`} className="card">
                <RoundupMember answer={a} as="h3" />
                <p className="muted">{t('expertPanelsRoundups.page.words', { n: a.wordCount })}</p>
                <div className="ep-roundup-prose" dangerouslySetInnerHTML={{ __html: a.bodyHtml }} />
                <ActionForm action={`${base}/answers`} label={t('expertPanelsRoundups.page.add')} ariaLabel={t('expertPanelsRoundups.page.addLabel', { name: a.member.name })} fields={{ answerId: String(a.answerId) }} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="rp-log" id="log">
        <h2 id="rp-log">{t('expertPanelsRoundups.page.log')}</h2>
        {r.moves.length === 0 ? (
          <p>{t('expertPanelsRoundups.page.logNone')}</p>
        ) : (
          <ol className="plain ep-roundup-log">
            {r.moves.map((m) => (
              <li key={m.id}>
                {t('expertPanelsRoundups.page.logLine', {
                  from: t(`expertPanelsRoundups.status.${m.from}`),
                  to: t(`expertPanelsRoundups.status.${m.to}`),
                  actor: m.actorName ?? t('expertPanelsRoundups.page.someone'),
                  when: dateTime(m.at),
                })}
              </li>
            ))}
          </ol>
        )}
      </section>
    </RoundupFrame>
  );
}

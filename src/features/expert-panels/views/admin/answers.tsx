import type { AnswerDetail, AnswerFilters, AnswerRow, PanelRow } from '#src/features/expert-panels/index.ts';
import type { EpAnswerStatus } from '#src/db/types.ts';
import { CsrfField, Field } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ActionForm, EpAdminPage, EpTable, FormError, Pager, TextArea, dateTime, typed, type EpForm } from '#src/features/expert-panels/views/admin/frame.tsx';

const ANSWER_STATUSES: readonly EpAnswerStatus[] = ['open', 'submitted', 'accepted', 'declined', 'cant_answer', 'ignored'];

/** The board's query string (its pages, the export and the way back share it). */
export function answersParams(f: AnswerFilters): string {
  const p = new URLSearchParams();
  if (f.status) p.set('status', f.status);
  if (f.panelId) p.set('panelId', String(f.panelId));
  if (f.questionId) p.set('questionId', String(f.questionId));
  if (f.q) p.set('q', f.q);
  if (f.sort !== 'newest') p.set('sort', f.sort);
  return p.toString();
}

function Scan({ a }: { a: AnswerRow }) {
  const { t } = usePage();
  if (!a.scan) return <>{t('expertPanelsAdmin.answers.noScan')}</>;
  return <>{t('expertPanelsAdmin.answers.scan', { score: a.scan.aggregatedScore ?? 0, identical: a.scan.identicalWords ?? 0, minor: a.scan.minorChangedWords ?? 0, related: a.scan.relatedMeaningWords ?? 0 })}</>;
}

export function EpAnswers({
  rows,
  next,
  after,
  filters,
  panels,
  question,
  searchError,
}: {
  rows: AnswerRow[];
  next: string | null;
  after: string | null;
  filters: AnswerFilters;
  panels: PanelRow[];
  question: { id: number; title: string; closed: boolean } | null;
  searchError?: string;
}) {
  const { t } = usePage();
  const href = useHref();
  const params = answersParams(filters);
  return (
    <EpAdminPage tab="answers" heading={question ? t('expertPanelsAdmin.answers.ofQuestion', { title: question.title }) : t('expertPanelsAdmin.titles.answers')}>
      {question?.closed ? <p className="muted">{t('expertPanelsAdmin.answers.questionClosed')}</p> : null}
      <form method="get" action={href('/admin/expert-panels/answers')} className="filters">
        {filters.questionId ? <input type="hidden" name="questionId" value={String(filters.questionId)} /> : null}
        <Field id="ea-q" name="q" type="search" label={t('expertPanelsAdmin.answers.search')} defaultValue={filters.q ?? ''} error={searchError} />
        <div className="field">
          <label htmlFor="ea-status">{t('expertPanelsAdmin.answers.status')}</label>
          <select id="ea-status" name="status" defaultValue={filters.status ?? ''}>
            <option value="">{t('expertPanelsAdmin.answers.anyStatus')}</option>
            {ANSWER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`expertPanelsAdmin.answerStatus.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="ea-panel">{t('expertPanelsAdmin.answers.panel')}</label>
          <select id="ea-panel" name="panelId" defaultValue={filters.panelId ? String(filters.panelId) : ''}>
            <option value="">{t('expertPanelsAdmin.answers.anyPanel')}</option>
            {panels.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="ea-sort">{t('expertPanelsAdmin.answers.sort')}</label>
          <select id="ea-sort" name="sort" defaultValue={filters.sort}>
            <option value="newest">{t('expertPanelsAdmin.answers.sortNewest')}</option>
            <option value="words">{t('expertPanelsAdmin.answers.sortWords')}</option>
          </select>
        </div>
        <button type="submit" className="button">
          {t('expertPanelsAdmin.answers.apply')}
        </button>
      </form>
      <p>
        <a href={href(`/admin/expert-panels/answers/export.csv${params ? `?${params}` : ''}`)}>{t('expertPanelsAdmin.answers.export')}</a>
      </p>
      <EpTable section="answers" columns={['member', 'question', 'status', 'words', 'submitted', 'scan']} empty={rows.length === 0}>
        {rows.map((a) => (
          <tr key={a.id}>
            <th scope="row">
              <a href={href(`/admin/expert-panels/answers/${a.id}`)}>{a.member.name}</a>
              {a.member.companyName ? <span className="muted"> — {a.member.companyName}</span> : null}
            </th>
            <td>{a.questionTitle}</td>
            <td>{t(`expertPanelsAdmin.answerStatus.${a.status}`)}</td>
            <td>{a.wordCount}</td>
            <td>{a.submittedAt ? dateTime(a.submittedAt) : '—'}</td>
            <td>
              <Scan a={a} />
            </td>
          </tr>
        ))}
      </EpTable>
      <Pager base="/admin/expert-panels/answers" after={after} next={next} params={params} nextLabel={t('expertPanelsAdmin.answers.next')} firstLabel={t('expertPanelsAdmin.answers.first')} />
    </EpAdminPage>
  );
}

export function EpAnswer({ answer, bodyText, notice, form }: { answer: AnswerDetail; bodyText: string; notice?: string; form?: EpForm }) {
  const { t } = usePage();
  const href = useHref();
  const base = `/admin/expert-panels/answers/${answer.id}`;
  const m = answer.member;
  const edit = typed(form, 'edit', 'body');
  const noteField = typed(form, 'decide', 'note');
  const reviewable = ['submitted', 'accepted', 'declined'].includes(answer.status);
  return (
    <EpAdminPage tab="answers" heading={t('expertPanelsAdmin.answer.heading', { name: m.name })} notice={notice}>
      <p>
        <a href={href(`/admin/expert-panels/answers?questionId=${answer.questionId}`)}>{t('expertPanelsAdmin.answer.back', { title: answer.questionTitle })}</a>
      </p>
      <dl className="ep-admin-facts">
        <dt>{t('expertPanelsAdmin.answer.member')}</dt>
        <dd>{[m.name, m.jobTitle, m.companyName, m.location].filter(Boolean).join(', ')}</dd>
        <dt>{t('expertPanelsAdmin.answer.panel')}</dt>
        <dd>{t('expertPanelsAdmin.answer.panelRange', { panel: answer.panelName, min: answer.minWords, max: answer.maxWords })}</dd>
        <dt>{t('expertPanelsAdmin.answer.status')}</dt>
        <dd>{t(`expertPanelsAdmin.answerStatus.${answer.status}`)}</dd>
        <dt>{t('expertPanelsAdmin.answer.words')}</dt>
        <dd>{answer.wordCount}</dd>
        <dt>{t('expertPanelsAdmin.answer.submitted')}</dt>
        <dd>{answer.submittedAt ? dateTime(answer.submittedAt) : '—'}</dd>
        <dt>{t('expertPanelsAdmin.answer.review')}</dt>
        <dd>{answer.reviewStartedAt ? t('expertPanelsAdmin.answer.reviewBy', { at: dateTime(answer.reviewStartedAt), name: answer.reviewerName ?? '—' }) : t('expertPanelsAdmin.answer.notReviewed')}</dd>
        <dt>{t('expertPanelsAdmin.answer.scan')}</dt>
        <dd>
          <Scan a={answer} />
        </dd>
        {answer.decidedAt ? (
          <>
            <dt>{t('expertPanelsAdmin.answer.decision')}</dt>
            <dd>{t('expertPanelsAdmin.answer.decidedAt', { at: dateTime(answer.decidedAt), note: answer.decisionNote ?? '' })}</dd>
          </>
        ) : null}
      </dl>
      {answer.questionClosed ? <p className="muted">{t('expertPanelsAdmin.answers.questionClosed')}</p> : null}
      <h2>{t('expertPanelsAdmin.answer.text')}</h2>
      {answer.bodyHtml ? <div className="forum-body" dangerouslySetInnerHTML={{ __html: answer.bodyHtml }} /> : <p>{t('expertPanelsAdmin.answer.noText')}</p>}
      <FormError form={form} formKey="review" />
      {answer.status === 'submitted' && !answer.reviewStartedAt ? <ActionForm action={`${base}/review`} label={t('expertPanelsAdmin.answer.startReview')} /> : null}
      {answer.status === 'submitted' ? (
        <>
          <h2>{t('expertPanelsAdmin.answer.decide')}</h2>
          <FormError form={form} formKey="decide" />
          <form method="post" action={href(`${base}/decide`)} className="stack" noValidate>
            <CsrfField />
            <TextArea id="decision-note" name="note" rows={3} label={t('expertPanelsAdmin.answer.note')} hint={t('expertPanelsAdmin.answer.noteHint')} value={noteField.value} error={noteField.error} />
            <p className="ep-admin-buttons">
              <button type="submit" name="decision" value="accept" className="button">
                {t('expertPanelsAdmin.answer.accept')}
              </button>{' '}
              <button type="submit" name="decision" value="decline" className="button button-secondary">
                {t('expertPanelsAdmin.answer.decline')}
              </button>
            </p>
          </form>
        </>
      ) : null}
      {reviewable ? (
        <>
          <h2>{t('expertPanelsAdmin.answer.edit')}</h2>
          <FormError form={form} formKey="edit" />
          <form method="post" action={href(`${base}/edit`)} className="stack" noValidate>
            <CsrfField />
            <TextArea id="answer-body" name="body" rows={10} label={t('expertPanelsAdmin.answer.body')} hint={t('expertPanelsAdmin.format')} value={edit.value ?? bodyText} error={edit.error} required />
            <p>
              <button type="submit" className="button">
                {t('expertPanelsAdmin.answer.saveEdit')}
              </button>
            </p>
          </form>
        </>
      ) : null}
      <h2>{t('expertPanelsAdmin.answer.revisions')}</h2>
      {answer.revisions.length === 0 ? (
        <p>{t('expertPanelsAdmin.answer.noRevisions')}</p>
      ) : (
        <ol className="ep-admin-revisions">
          {answer.revisions.map((r) => (
            <li key={r.id}>
              <details>
                <summary>{t('expertPanelsAdmin.answer.revision', { at: dateTime(r.createdAt), who: r.byEditor ? (r.editorName ?? '—') : t('expertPanelsAdmin.answer.theMember'), words: r.wordCount })}</summary>
                <div className="forum-body" dangerouslySetInnerHTML={{ __html: r.bodyHtml }} />
              </details>
            </li>
          ))}
        </ol>
      )}
    </EpAdminPage>
  );
}

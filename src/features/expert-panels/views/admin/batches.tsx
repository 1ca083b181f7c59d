import type { BatchBoardRow, BatchDetail, BatchFilters, PanelRow, QuestionRow } from '#src/features/expert-panels/index.ts';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { CsrfField, Field, FieldNotes, describedBy } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ActionForm, EpAdminPage, EpTable, FormError, Pager, TextArea, dateTime, typed, type EpForm } from '#src/features/expert-panels/views/admin/frame.tsx';
import { PanelSelect, batchesParams } from '#src/features/expert-panels/views/admin/questions.tsx';

/** A question as the batch page shows it: with the typed text of its brief and guidelines (to edit). */
export type QuestionEdit = QuestionRow & { briefText: string; guidelinesText: string };

/** The batches' list: filters by panel and state, a search in titles, keyset pages; then the form of a new batch. */
export function EpBatches({
  batches,
  next = null,
  after = null,
  filters = { panelId: null, state: null, q: null },
  searchError,
  searchTyped,
  panels,
  notice,
  form,
}: {
  batches: BatchBoardRow[];
  next?: string | null;
  after?: string | null;
  filters?: BatchFilters;
  searchError?: string;
  searchTyped?: string;
  panels: PanelRow[];
  notice?: string;
  form?: EpForm;
}) {
  const { t } = usePage();
  const href = useHref();
  const f = (name: string) => typed(form, 'batch-new', name);
  const open = panels.filter((p) => !p.archived);
  return (
    <EpAdminPage tab="batches" heading={t('expertPanelsAdmin.titles.batches')} notice={notice}>
      <p className="muted">{t('expertPanelsAdmin.batches.intro')}</p>
      <form method="get" action={href('/admin/expert-panels/batches')} className="filters" aria-label={t('expertPanelsAdmin.batchBoard.filters')}>
        <Field id="eb-q" name="q" type="search" label={t('expertPanelsAdmin.batchBoard.search')} defaultValue={searchTyped ?? filters.q ?? ''} error={searchError} />
        <PanelSelect id="eb-panel" label={t('expertPanelsAdmin.batchBoard.panel')} panels={panels} value={filters.panelId} />
        <div className="field">
          <label htmlFor="eb-state">{t('expertPanelsAdmin.batchBoard.state')}</label>
          <select id="eb-state" name="state" defaultValue={filters.state ?? ''}>
            <option value="">{t('expertPanelsAdmin.batchBoard.anyState')}</option>
            {(['draft', 'sent', 'closed'] as const).map((s) => (
              <option key={s} value={s}>
                {t(`expertPanelsAdmin.batchState.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t('expertPanelsAdmin.batchBoard.apply')}
        </button>
      </form>
      <EpTable section="batches" columns={['title', 'panel', 'deadline', 'questions', 'status']} empty={batches.length === 0}>
        {batches.map((b) => (
          <tr key={b.id}>
            <th scope="row">
              <a href={href(`/admin/expert-panels/batches/${b.id}`)}>{b.title}</a>
            </th>
            <td>{b.panelName}</td>
            <td>{dateTime(b.deadlineAt)}</td>
            <td>{b.questionCount > 0 ? <a href={href(`/admin/expert-panels/questions?batchId=${b.id}`)} aria-label={t('expertPanelsAdmin.batchBoard.questionsOf', { n: b.questionCount, title: b.title })}>{b.questionCount}</a> : 0}</td>
            <td>{t(`expertPanelsAdmin.batchState.${b.state}`)}</td>
          </tr>
        ))}
      </EpTable>
      <Pager base="/admin/expert-panels/batches" after={after} next={next} params={batchesParams(filters)} nextLabel={t('expertPanelsAdmin.answers.next')} firstLabel={t('expertPanelsAdmin.answers.first')} />
      <h2>{t('expertPanelsAdmin.batches.new')}</h2>
      {open.length === 0 ? (
        <p>{t('expertPanelsAdmin.batches.noPanels')}</p>
      ) : (
        <form method="post" action={href('/admin/expert-panels/batches')} className="stack" noValidate>
          <CsrfField />
          <div className={f('panelId').error ? 'field field-invalid' : 'field'}>
            <label htmlFor="batch-panel">{t('expertPanelsAdmin.batches.panel')}</label>
            <select id="batch-panel" name="panelId" defaultValue={f('panelId').value ?? ''} aria-invalid={f('panelId').error ? true : undefined} aria-describedby={describedBy('batch-panel', f('panelId').error)}>
              <option value="">{t('expertPanelsAdmin.batches.choosePanel')}</option>
              {open.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.name}
                </option>
              ))}
            </select>
            <FieldNotes id="batch-panel" error={f('panelId').error} />
          </div>
          <Field id="batch-title" name="title" label={t('expertPanelsAdmin.batches.title')} error={f('title').error} defaultValue={f('title').value ?? ''} required />
          <Field id="batch-deadline" name="deadline" type="datetime-local" label={t('expertPanelsAdmin.batches.deadline')} hint={t('expertPanelsAdmin.batches.deadlineHint')} error={f('deadline').error} defaultValue={f('deadline').value ?? ''} required />
          <p>
            <button type="submit" className="button">
              {t('expertPanelsAdmin.batches.create')}
            </button>
          </p>
        </form>
      )}
    </EpAdminPage>
  );
}

function QuestionFields({ prefix, form, formKey, question }: { prefix: string; form?: EpForm; formKey: string; question?: QuestionEdit }) {
  const { t } = usePage();
  const f = (name: string) => typed(form, formKey, name);
  return (
    <>
      <Field id={`${prefix}-title`} name="title" label={t('expertPanelsAdmin.questions.title')} error={f('title').error} defaultValue={f('title').value ?? question?.title ?? ''} required />
      <TextArea id={`${prefix}-brief`} name="brief" label={t('expertPanelsAdmin.questions.brief')} hint={t('expertPanelsAdmin.format')} error={f('brief').error} value={f('brief').value ?? question?.briefText} />
      <TextArea id={`${prefix}-guidelines`} name="guidelines" label={t('expertPanelsAdmin.questions.guidelines')} hint={t('expertPanelsAdmin.format')} error={f('guidelines').error} value={f('guidelines').value ?? question?.guidelinesText} />
    </>
  );
}

function Question({ q, draft, form }: { q: QuestionEdit; draft: boolean; form?: EpForm }) {
  const { t } = usePage();
  const href = useHref();
  const key = `question-${q.id}`;
  const counts = Object.entries(q.counts)
    .map(([s, n]) => t('expertPanelsAdmin.questions.count', { status: t(`expertPanelsAdmin.answerStatus.${s}`), n }))
    .join(' · ');
  return (
    <li id={key} className="ep-admin-question">
      <h3>{q.title}</h3>
      {q.closedAt ? <p className="muted">{t('expertPanelsAdmin.questions.closedAt', { at: dateTime(q.closedAt) })}</p> : null}
      {q.briefHtml ? <div className="forum-body" dangerouslySetInnerHTML={{ __html: q.briefHtml }} /> : null}
      {q.guidelinesHtml ? (
        <>
          <h4>{t('expertPanelsAdmin.questions.guidelines')}</h4>
          <div className="forum-body" dangerouslySetInnerHTML={{ __html: q.guidelinesHtml }} />
        </>
      ) : null}
      <FormError form={form} formKey={key} />
      {draft ? (
        <>
          <details open={form?.key === key ? true : undefined}>
            <summary>{t('expertPanelsAdmin.questions.edit', { title: q.title })}</summary>
            <form method="post" action={href(`/admin/expert-panels/questions/${q.id}`)} className="stack" noValidate>
              <CsrfField />
              <QuestionFields prefix={`q${q.id}`} form={form} formKey={key} question={q} />
              <p>
                <button type="submit" className="button">
                  {t('expertPanelsAdmin.questions.save')}
                </button>
              </p>
            </form>
          </details>
          <ActionForm action={`/admin/expert-panels/questions/${q.id}/remove`} label={t('expertPanelsAdmin.questions.remove', { title: q.title })} secondary />
        </>
      ) : (
        <>
          {counts ? <p>{counts}</p> : null}
          <ul className="board-links">
            <li>
              <a href={href(`/admin/expert-panels/answers?questionId=${q.id}`)}>{t('expertPanelsAdmin.questions.answers', { title: q.title })}</a>
            </li>
          </ul>
          {q.closedAt ? (
            <ActionForm action={`/admin/expert-panels/questions/${q.id}/reopen`} label={t('expertPanelsAdmin.questions.reopen', { title: q.title })} secondary />
          ) : (
            <ActionForm action={`/admin/expert-panels/questions/${q.id}/close`} label={t('expertPanelsAdmin.questions.close', { title: q.title })} secondary />
          )}
        </>
      )}
    </li>
  );
}

export function EpBatch({ batch, questions, notice, form }: { batch: BatchDetail; questions: QuestionEdit[]; notice?: string; form?: EpForm }) {
  const { t } = usePage();
  const href = useHref();
  const draft = batch.status === 'draft';
  const base = `/admin/expert-panels/batches/${batch.id}`;
  // A refusal whose form is not on the page any more (the batch was sent meanwhile) is shown on top.
  const inPlace = !form || draft || /^question-\d+$/.test(form.key);
  return (
    <EpAdminPage tab="batches" heading={batch.title} notice={notice} error={inPlace ? undefined : form?.errors.form}>
      <p>
        <a href={href('/admin/expert-panels/batches')}>{t('expertPanelsAdmin.batches.back')}</a>
      </p>
      <p>
        {t('expertPanelsAdmin.batches.summary', { panel: batch.panelName, deadline: dateTime(batch.deadlineAt), status: t(`expertPanelsAdmin.batchStatus.${batch.status}`) })}
        {batch.sentAt ? ` ${t('expertPanelsAdmin.batches.sentAt', { at: dateTime(batch.sentAt) })}` : null}
      </p>
      <h2>{t('expertPanelsAdmin.questions.heading', { n: questions.length })}</h2>
      {questions.length === 0 ? <EmptyState title={t('expertPanelsAdmin.questions.none')} /> : null}
      <ol className="ep-admin-questions">
        {questions.map((q) => (
          <Question key={q.id} q={q} draft={draft} form={form} />
        ))}
      </ol>
      {draft ? (
        <>
          <h2>{t('expertPanelsAdmin.questions.new')}</h2>
          <form method="post" action={href(`${base}/questions`)} className="stack" noValidate>
            <CsrfField />
            <QuestionFields prefix="q-new" form={form} formKey="question-new" />
            <p>
              <button type="submit" className="button">
                {t('expertPanelsAdmin.questions.add')}
              </button>
            </p>
          </form>
          <h2>{t('expertPanelsAdmin.batches.sendHeading')}</h2>
          <p>{t('expertPanelsAdmin.batches.sendHelp')}</p>
          <FormError form={form} formKey="send" />
          <ActionForm action={`${base}/send`} label={t('expertPanelsAdmin.batches.send')} />
        </>
      ) : null}
    </EpAdminPage>
  );
}

import type { BatchFilters, PanelRow, QuestionBoardRow, QuestionFilters } from '#src/features/expert-panels/index.ts';
import type { EpAnswerStatus } from '#src/db/types.ts';
import { Field } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ActionForm, EpAdminPage, EpTable, Pager, dateTime } from '#src/features/expert-panels/views/admin/frame.tsx';

const STATES = ['draft', 'open', 'closed', 'past'] as const;
/** The answers' columns, in the order an editor reads them. */
export const COUNT_COLUMNS: readonly EpAnswerStatus[] = ['open', 'submitted', 'accepted', 'declined', 'cant_answer', 'ignored'];

/** The board's query string (its pages, the export and the way back after an action share it). */
export function questionsParams(f: QuestionFilters): string {
  const p = new URLSearchParams();
  if (f.panelId) p.set('panelId', String(f.panelId));
  if (f.batchId) p.set('batchId', String(f.batchId));
  if (f.state) p.set('state', f.state);
  if (f.q) p.set('q', f.q);
  if (f.sort !== 'newest') p.set('sort', f.sort);
  return p.toString();
}

/** The batches list's query string. */
export function batchesParams(f: BatchFilters): string {
  const p = new URLSearchParams();
  if (f.panelId) p.set('panelId', String(f.panelId));
  if (f.state) p.set('state', f.state);
  if (f.q) p.set('q', f.q);
  return p.toString();
}

export function PanelSelect({ id, label, panels, value }: { id: string; label: string; panels: PanelRow[]; value: number | null }) {
  const { t } = usePage();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name="panelId" defaultValue={value ? String(value) : ''}>
        <option value="">{t('expertPanelsAdmin.answers.anyPanel')}</option>
        {panels.map((p) => (
          <option key={p.id} value={String(p.id)}>
            {p.name}
          </option>
        ))}
      </select>
    </div>
  );
}


/**
 * The questions' board (/admin/expert-panels/questions): every question of every panel and batch,
 * filtered by panel, batch and state, searched by title, sorted, in keyset pages, with CSV; each row
 * can be closed or reopened (a plain POST that comes back here with the same filters).
 */
export function EpQuestions({
  rows,
  next,
  after,
  filters,
  panels,
  batch,
  notice,
  searchError,
  searchTyped,
}: {
  rows: QuestionBoardRow[];
  next: string | null;
  after: string | null;
  filters: QuestionFilters;
  panels: PanelRow[];
  /** The batch the board is narrowed to, if any (its title for the heading's hint). */
  batch: { id: number; title: string } | null;
  notice?: string;
  searchError?: string;
  /** What was typed in a refused search (kept in the field). */
  searchTyped?: string;
}) {
  const { t } = usePage();
  const href = useHref();
  const params = questionsParams(filters);
  // What an action sends back so that the board comes back as it was.
  const back = { panelId: filters.panelId ? String(filters.panelId) : '', batchId: filters.batchId ? String(filters.batchId) : '', state: filters.state ?? '', q: filters.q ?? '', sort: filters.sort, after: after ?? '' };
  return (
    <EpAdminPage tab="questions" heading={t('expertPanelsAdmin.titles.questions')} notice={notice}>
      <p className="muted">{t('expertPanelsAdmin.questionBoard.intro')}</p>
      {batch ? (
        <p>
          {t('expertPanelsAdmin.questionBoard.ofBatch', { title: batch.title })}{' '}
          <a href={href(`/admin/expert-panels/questions?${questionsParams({ ...filters, batchId: null })}`)}>{t('expertPanelsAdmin.questionBoard.allBatches')}</a>
        </p>
      ) : null}
      <form method="get" action={href('/admin/expert-panels/questions')} className="filters" aria-label={t('expertPanelsAdmin.questionBoard.filters')}>
        {filters.batchId ? <input type="hidden" name="batchId" value={String(filters.batchId)} /> : null}
        <Field id="eq-q" name="q" type="search" label={t('expertPanelsAdmin.questionBoard.search')} defaultValue={searchTyped ?? filters.q ?? ''} error={searchError} />
        <PanelSelect id="eq-panel" label={t('expertPanelsAdmin.questionBoard.panel')} panels={panels} value={filters.panelId} />
        <div className="field">
          <label htmlFor="eq-state">{t('expertPanelsAdmin.questionBoard.state')}</label>
          <select id="eq-state" name="state" defaultValue={filters.state ?? ''}>
            <option value="">{t('expertPanelsAdmin.questionBoard.anyState')}</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {t(`expertPanelsAdmin.questionState.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="eq-sort">{t('expertPanelsAdmin.questionBoard.sort')}</label>
          <select id="eq-sort" name="sort" defaultValue={filters.sort}>
            <option value="newest">{t('expertPanelsAdmin.questionBoard.sortNewest')}</option>
            <option value="deadline">{t('expertPanelsAdmin.questionBoard.sortDeadline')}</option>
            <option value="answers">{t('expertPanelsAdmin.questionBoard.sortAnswers')}</option>
          </select>
        </div>
        <button type="submit" className="button">
          {t('expertPanelsAdmin.questionBoard.apply')}
        </button>
      </form>
      <p>
        <a href={href(`/admin/expert-panels/questions/export.csv${params ? `?${params}` : ''}`)} download>
          {t('expertPanelsAdmin.questionBoard.export')}
        </a>
      </p>
      <EpTable section="questionBoard" columns={['title', 'panel', 'batch', 'deadline', 'state', ...COUNT_COLUMNS, 'actions']} empty={rows.length === 0}>
        {rows.map((q) => (
          <tr key={q.id} id={`question-row-${q.id}`}>
            <th scope="row">
              <a href={href(`/admin/expert-panels/batches/${q.batchId}#question-${q.id}`)}>{q.title}</a>
            </th>
            <td>{q.panelName}</td>
            <td>
              <a href={href(`/admin/expert-panels/questions?batchId=${q.batchId}`)}>{q.batchTitle}</a>
            </td>
            <td>{dateTime(q.deadlineAt)}</td>
            <td>{t(`expertPanelsAdmin.questionState.${q.state}`)}</td>
            {COUNT_COLUMNS.map((s) => (
              <td key={s}>{q.counts[s]}</td>
            ))}
            <td>
              {q.state === 'draft' ? (
                '—'
              ) : (
                <>
                  <a href={href(`/admin/expert-panels/answers?questionId=${q.id}`)}>{t('expertPanelsAdmin.questionBoard.answers', { n: q.answered })}</a>
                  {q.state === 'closed' ? (
                    <ActionForm action={`/admin/expert-panels/questions/${q.id}/board`} fields={{ ...back, action: 'reopen' }} label={t('expertPanelsAdmin.questionBoard.reopen')} ariaLabel={t('expertPanelsAdmin.questions.reopen', { title: q.title })} secondary />
                  ) : (
                    <ActionForm action={`/admin/expert-panels/questions/${q.id}/board`} fields={{ ...back, action: 'close' }} label={t('expertPanelsAdmin.questionBoard.close')} ariaLabel={t('expertPanelsAdmin.questions.close', { title: q.title })} secondary />
                  )}
                </>
              )}
            </td>
          </tr>
        ))}
      </EpTable>
      <Pager base="/admin/expert-panels/questions" after={after} next={next} params={params} nextLabel={t('expertPanelsAdmin.answers.next')} firstLabel={t('expertPanelsAdmin.answers.first')} />
    </EpAdminPage>
  );
}

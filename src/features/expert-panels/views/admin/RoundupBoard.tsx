import { formatDate } from '#shared/format.ts';
import type { RoundupQuery, RoundupRow } from '#src/features/expert-panels/index.ts';
import { Field } from '#views/kit/form.tsx';
import { Pager } from '#views/admin/tab-frame.tsx';
import { Button } from '#views/kit/button.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { Cell, Table } from '#views/kit/table.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { RoundupFrame } from '#src/features/expert-panels/views/admin/RoundupParts.tsx';

const STATUSES = ['DRAFT', 'EDITOR_REVIEW', 'READY_FOR_PUBLISHING', 'FINAL'] as const;

/** The board's query string (its pages and the export share it). */
export function roundupParams(query: Pick<RoundupQuery, 'q' | 'status'>): string {
  const p = new URLSearchParams();
  if (query.q) p.set('q', query.q);
  if (query.status) p.set('status', query.status);
  return p.toString();
}

/** The roundups board: filter by status, search titles, newest first, keyset pages, CSV export. */
export function RoundupBoard({ rows, next, query, errors = {} }: { rows: RoundupRow[]; next: string | null; query: RoundupQuery; errors?: Record<string, string> }) {
  const { t } = usePage();
  const href = useHref();
  const params = roundupParams(query);
  return (
    <RoundupFrame heading={t('expertPanelsRoundups.board.title')}>
      <p className="muted">{t('expertPanelsRoundups.board.intro')}</p>
      <ul className="board-links">
        <li>
          <a className="button" href={href('/admin/expert-panels/roundups/new')}>
            {t('expertPanelsRoundups.board.new')}
          </a>
        </li>
        <li>
          <a href={href(`/admin/expert-panels/roundups/export.csv${params ? `?${params}` : ''}`)} download>
            {t('expertPanelsRoundups.board.export')}
          </a>
        </li>
      </ul>
      <form method="get" action={href('/admin/expert-panels/roundups')} className="filters" aria-label={t('expertPanelsRoundups.board.filters')}>
        <Field id="rb-q" name="q" type="search" label={t('expertPanelsRoundups.board.search')} error={errors.q} defaultValue={query.q ?? ''} maxLength={200} />
        <div className="field">
          <label htmlFor="rb-status">{t('expertPanelsRoundups.board.status')}</label>
          <select id="rb-status" name="status" defaultValue={query.status ?? ''}>
            <option value="">{t('expertPanelsRoundups.board.anyStatus')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`expertPanelsRoundups.status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t('expertPanelsRoundups.board.apply')}
        </button>
      </form>
      {rows.length === 0 ? (
        <EmptyState title={t('expertPanelsRoundups.board.none')} action={query.q || query.status || query.after ? undefined : <Button href={href('/admin/expert-panels/roundups/new')}>{t('expertPanelsRoundups.board.new')}</Button>} />
      ) : (
        <Table
          label={t('expertPanelsRoundups.board.tableLabel')}
          caption={t('expertPanelsRoundups.board.tableLabel')}
          columns={(['title', 'question', 'status', 'answers', 'updated', 'live'] as const).map((c) => ({ key: c, label: t(`expertPanelsRoundups.board.col.${c}`), numeric: c === 'answers' }))}
        >
          {rows.map((r) => (
            <tr key={r.id} id={`roundup-${r.id}`}>
              <th scope="row">
                <a href={href(`/admin/expert-panels/roundups/${r.id}`)}>{r.title}</a>
              </th>
              <td>{r.questionTitle}</td>
              <td>{t(`expertPanelsRoundups.status.${r.status}`)}</td>
              <Cell numeric>{r.answerCount}</Cell>
              <td>{formatDate(r.updatedAt)}</td>
              <td>{r.status === 'FINAL' && r.slug ? <a href={href(`/expert-panels/roundups/${r.slug}`)}>{`/expert-panels/roundups/${r.slug}`}</a> : '—'}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pager base="/admin/expert-panels/roundups" after={query.after} next={next} params={params} nextLabel={t('expertPanelsRoundups.board.next')} firstLabel={t('expertPanelsRoundups.board.first')} />
    </RoundupFrame>
  );
}

/** The editors' board (/admin/articles): filters, the rows, paging, the CSV export link. */
import { formatDate } from '#shared/format.ts';
import type { ArticleRow, ArticleStatus, BoardQuery } from '#src/features/articles/index.ts';
import { Field } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { EditorOptions, statusName, type Editor } from '#src/features/articles/views/admin/parts.tsx';

type BoardRow = ArticleRow & { author_first: string; author_last: string; editor_first: string | null; editor_last: string | null };

export function ArticlesBoard({
  rows,
  query,
  statuses,
  editors,
  tooMany,
  next,
  previous,
  total,
  errors = {},
}: {
  rows: BoardRow[];
  query: BoardQuery;
  /** Every article status, in the workflow's order: the status filter's choices. */
  statuses: readonly ArticleStatus[];
  editors: Editor[];
  tooMany: boolean;
  next: string | null;
  previous: string | null;
  total: number;
  /** A refused search (its words hold a control character): the message next to the search field. */
  errors?: { q?: string };
}) {
  const { t, csrfToken } = usePage();
  const href = useHref();
  const params = (extra: Record<string, string>) => {
    const p = new URLSearchParams();
    if (query.status) p.set('status', query.status);
    if (query.editor) p.set('editor', String(query.editor));
    if (query.author) p.set('author', String(query.author));
    if (query.q) p.set('q', query.q);
    if (query.sort) p.set('sort', query.sort);
    for (const [k, v] of Object.entries(extra)) p.set(k, v);
    return p.toString();
  };
  return (
    <section>
      <h1>{t('admin.articles.heading')}</h1>
      <ul className="board-links">
        <li>
          <a href={href(`/admin/articles/export.csv?${params({})}`)} download>
            {t('admin.articles.exportCsv')}
          </a>
        </li>
        <li>
          <a href={href('/admin/articles/blackouts')}>{t('admin.articles.blackoutsLink')}</a>
        </li>
        <li>
          <a href={href('/admin/articles/settings')}>{t('admin.articles.settingsLink')}</a>
        </li>
      </ul>
      {query.author ? (
        <Alert kind="info">
          {t('admin.articles.memberFilter', { name: rows[0] ? `${rows[0].author_first} ${rows[0].author_last}` : `#${query.author}` })}{' '}
          <a href={href(`/admin/articles?${params({}).replace(/(^|&)author=\d+/, '')}`)}>{t('admin.articles.memberFilterClear')}</a>
        </Alert>
      ) : null}
      <form method="get" action={href('/admin/articles')} className="filters" aria-label={t('admin.articles.filters')}>
        {query.author ? <input type="hidden" name="author" value={query.author} /> : null}
        <div className="field">
          <label htmlFor="f-status">{t('admin.articles.status')}</label>
          <select id="f-status" name="status" defaultValue={query.status ?? ''}>
            <option value="">{t('admin.articles.anyStatus')}</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {statusName(t, s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-editor">{t('admin.articles.editor')}</label>
          <select id="f-editor" name="editor" defaultValue={query.editor ? String(query.editor) : ''}>
            <option value="">{t('admin.articles.anyEditor')}</option>
            <option value="none">{t('admin.articles.unassigned')}</option>
            <EditorOptions editors={editors} />
          </select>
        </div>
        <Field id="f-q" name="q" type="search" label={t('admin.articles.search')} error={errors.q} defaultValue={query.q ?? ''} maxLength={200} />
        <div className="field">
          <label htmlFor="f-sort">{t('admin.articles.sort')}</label>
          <select id="f-sort" name="sort" defaultValue={query.sort ?? 'newest'}>
            <option value="newest">{t('admin.articles.newest')}</option>
            <option value="oldest">{t('admin.articles.oldest')}</option>
          </select>
        </div>
        <button type="submit" className="button">
          {t('admin.articles.apply')}
        </button>
      </form>
      {tooMany ? <Alert kind="info">{t('admin.articles.tooMany')}</Alert> : null}
      {total > 0 ? <p className="muted">{t('admin.articles.count', { n: total })}</p> : null}
      {rows.length === 0 ? (
        <EmptyState title={t('admin.articles.none')} />
      ) : (
        <Island
          name="AssignEditor"
          props={{
            csrf: csrfToken,
            rows: rows.map((r) => {
              const title = r.title?.trim() || t('articles.pages.untitled');
              return {
                id: r.id,
                title,
                href: href(`/admin/articles/${r.id}`),
                member: `${r.author_first} ${r.author_last}`,
                memberHref: href(`/admin/articles?author=${r.author_id}`),
                status: statusName(t, r.status),
                editorId: r.editor_id,
                editorName: r.editor_first ? `${r.editor_first} ${r.editor_last}` : null,
                changed: formatDate(r.status_updated_at),
                assignLabel: t('admin.articles.assignModal.triggerLabel', { title }),
              };
            }),
            editors: editors.map((e) => ({ id: e.id, name: `${e.first_name} ${e.last_name}` })),
            labels: {
              table: t('admin.articles.tableLabel'),
              colTitle: t('admin.articles.colTitle'),
              colMember: t('admin.articles.colMember'),
              colStatus: t('admin.articles.colStatus'),
              colEditor: t('admin.articles.colEditor'),
              colChanged: t('admin.articles.colChanged'),
              colActions: t('admin.articles.colActions'),
              unassigned: t('admin.articles.unassigned'),
              assign: t('admin.articles.assignModal.trigger'),
              heading: t('admin.articles.assignModal.heading'),
              articleLabel: t('admin.articles.assignModal.article'),
              editorLabel: t('admin.articles.assignModal.editor'),
              submit: t('admin.articles.assignModal.submit'),
              saving: t('admin.articles.assignModal.saving'),
              cancel: t('admin.articles.assignModal.cancel'),
              failed: t('admin.articles.assignModal.failed'),
            },
          }}
        />
      )}
      {next || previous ? (
        <nav className="actions" aria-label={t('admin.articles.pages')}>
          {previous ? <a href={href(`/admin/articles?${params({})}`)}>{t('admin.articles.first')}</a> : null}
          {previous ? <a href={href(`/admin/articles?${params({ before: previous })}`)}>{t('admin.articles.previous')}</a> : null}
          {next ? <a href={href(`/admin/articles?${params({ after: next })}`)}>{t('admin.articles.next')}</a> : null}
        </nav>
      ) : null}
    </section>
  );
}
